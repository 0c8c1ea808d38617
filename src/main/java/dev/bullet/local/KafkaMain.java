package dev.bullet.local;

import dev.bullet.common.Cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs an {@link EmbeddedKafka} as a process of the local stack ({@code scripts/bullet-local.sh}): starts
 * the broker, creates the requested topics, prints {@code KAFKA_READY 127.0.0.1:<port>} on stdout for
 * scripts to wait on, and serves until SIGTERM or Ctrl-C, when it shuts down cleanly (and deletes its data
 * if it used a temporary directory).
 *
 * <pre>
 * KafkaMain [--port N] [--controller-port N] [--dir DIR] [--topic NAME[:PARTITIONS]]...
 * </pre>
 * Exit codes ({@link Cli}): 1 if the broker cannot start, 2 for a bad command line.
 */
public final class KafkaMain {
    /** The line printed once the broker serves and the topics exist; followed by the bootstrap address. */
    public static final String READY_MARKER = "KAFKA_READY";

    private KafkaMain() {
    }

    /** The command line. */
    @Command(name = "KafkaMain", sortOptions = false,
             description = "Runs a single-node Kafka broker (KRaft) on 127.0.0.1 until SIGTERM or Ctrl-C.",
             footer = {"Prints '" + READY_MARKER + " 127.0.0.1:PORT' on stdout when the broker serves and the topics exist.",
                       "Exit codes: 1 the broker cannot start, 2 bad command line."})
    static final class Options implements Cli.Validated {
        @Option(names = "--port", paramLabel = "N", description = "client port (default " + EmbeddedKafka.DEFAULT_PORT + ")")
        private int port = EmbeddedKafka.DEFAULT_PORT;
        @Option(names = "--controller-port", paramLabel = "N",
                description = "KRaft controller port (default " + EmbeddedKafka.DEFAULT_CONTROLLER_PORT + ")")
        private int controllerPort = EmbeddedKafka.DEFAULT_CONTROLLER_PORT;
        @Option(names = "--dir", paramLabel = "DIR",
                description = "data directory, kept across runs (default: a temporary directory, deleted at exit)")
        private Path dir;
        @Option(names = "--topic", paramLabel = "NAME[:N]",
                description = "create topic NAME with N partitions (default 1) if missing; repeatable")
        private List<String> topicSpecs = new ArrayList<>();
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        private final Map<String, Integer> topics = new LinkedHashMap<>();

        @Override
        public void validate() {
            checkPort("--port", port);
            checkPort("--controller-port", controllerPort);
            if (port == controllerPort) {
                throw new Cli.UsageException("--port and --controller-port must differ");
            }
            topics.clear();
            for (String spec : topicSpecs) {
                addTopic(topics, spec);
            }
        }

        int port() {
            return port;
        }

        int controllerPort() {
            return controllerPort;
        }

        Path dir() {
            return dir;
        }

        /** Topic name to partitions, in the order given. */
        Map<String, Integer> topics() {
            return topics;
        }
    }

    public static void main(String[] args) {
        Options options = new Options();
        int early = Cli.parse(options, args, System.out, System.err);
        if (early != Cli.RUN) {
            System.exit(early);
        }
        System.exit(serve(options, System.out, System.err));
    }

    private static int serve(Options options, PrintStream out, PrintStream err) {
        for (int port : new int[] {options.port(), options.controllerPort()}) {
            if (!EmbeddedKafka.isPortFree(port)) {
                return Cli.failed(err, "port 127.0.0.1:" + port + " is already in use (another broker running?)");
            }
        }
        EmbeddedKafka kafka = new EmbeddedKafka(options.port(), options.controllerPort(), options.dir());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            kafka.close();
            stopped.countDown();
        }, "kafka-shutdown"));
        try {
            kafka.start();
            kafka.createTopics(options.topics());
        } catch (RuntimeException e) {
            return Cli.failed(err, "cannot start the broker on " + kafka.bootstrapServers() + ": " + e.getMessage());
        }
        out.println(READY_MARKER + " " + kafka.bootstrapServers());
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /** Reads the command line; throws {@link Cli.UsageException} for one that cannot run. */
    static Options parse(String[] args) {
        return Cli.parse(new Options(), args);
    }

    private static void addTopic(Map<String, Integer> topics, String spec) {
        int colon = spec.lastIndexOf(':');
        String name = colon < 0 ? spec : spec.substring(0, colon);
        int partitions = 1;
        if (colon >= 0) {
            try {
                partitions = Integer.parseInt(spec.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new Cli.UsageException("--topic expects NAME[:PARTITIONS], got '" + spec + "'");
            }
        }
        if (name.isEmpty() || partitions < 1) {
            throw new Cli.UsageException("--topic expects NAME[:PARTITIONS] with PARTITIONS >= 1, got '"
                + spec + "'");
        }
        topics.put(name, partitions);
    }

    private static void checkPort(String flag, int port) {
        if (port < 1 || port > 65_535) {
            throw new Cli.UsageException(flag + " must be a port number (1-65535), got " + port);
        }
    }
}

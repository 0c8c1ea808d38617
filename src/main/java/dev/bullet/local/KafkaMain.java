package dev.bullet.local;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Runs an {@link EmbeddedKafka} as a process of the local stack ({@code scripts/bullet-local.sh}): starts
 * the broker, creates the requested topics, prints {@code KAFKA_READY 127.0.0.1:<port>} on stdout for
 * scripts to wait on, and serves until SIGTERM or Ctrl-C, when it shuts down cleanly (and deletes its data
 * if it used a temporary directory).
 *
 * <pre>
 * KafkaMain [--port N] [--controller-port N] [--dir DIR] [--topic NAME[:PARTITIONS]]...
 * </pre>
 * Exit codes: 1 if the broker cannot start, 2 for a bad command line.
 */
public final class KafkaMain {
    /** The line printed once the broker serves and the topics exist; followed by the bootstrap address. */
    public static final String READY_MARKER = "KAFKA_READY";

    static final String USAGE = String.join("\n",
        "Usage: KafkaMain [--port N] [--controller-port N] [--dir DIR] [--topic NAME[:PARTITIONS]]...",
        "",
        "Runs a single-node Kafka broker (KRaft) on 127.0.0.1 until SIGTERM or Ctrl-C.",
        "  --port N              client port (default " + EmbeddedKafka.DEFAULT_PORT + ")",
        "  --controller-port N   KRaft controller port (default " + EmbeddedKafka.DEFAULT_CONTROLLER_PORT + ")",
        "  --dir DIR             data directory, kept across runs (default: a temporary directory, deleted at exit)",
        "  --topic NAME[:N]      create topic NAME with N partitions (default 1) if missing; repeatable",
        "Prints '" + READY_MARKER + " 127.0.0.1:PORT' on stdout when the broker serves and the topics exist.");

    private KafkaMain() {
    }

    /** The parsed command line. */
    record Options(int port, int controllerPort, Path dir, Map<String, Integer> topics, boolean help) {
    }

    public static void main(String[] args) {
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("kafka: " + e.getMessage() + " (see --help)");
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.println(USAGE);
            return;
        }
        System.exit(serve(options, System.out, System.err));
    }

    private static int serve(Options options, PrintStream out, PrintStream err) {
        for (int port : new int[] {options.port(), options.controllerPort()}) {
            if (!EmbeddedKafka.isPortFree(port)) {
                err.println("kafka: port 127.0.0.1:" + port + " is already in use (another broker running?)");
                return 1;
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
            err.println("kafka: cannot start the broker on " + kafka.bootstrapServers() + ": " + e.getMessage());
            return 1;
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

    static Options parse(String[] args) {
        int port = EmbeddedKafka.DEFAULT_PORT;
        int controllerPort = EmbeddedKafka.DEFAULT_CONTROLLER_PORT;
        Path dir = null;
        Map<String, Integer> topics = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help") || flag.equals("-h")) {
                return new Options(port, controllerPort, dir, topics, true);
            }
            if (!flag.equals("--port") && !flag.equals("--controller-port") && !flag.equals("--dir")
                && !flag.equals("--topic")) {
                throw new IllegalArgumentException(flag.startsWith("--")
                    ? "unknown option " + flag : "unexpected argument '" + flag + "'");
            }
            if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            switch (flag) {
                case "--port" -> port = port(flag, value);
                case "--controller-port" -> controllerPort = port(flag, value);
                case "--dir" -> dir = Path.of(value);
                default -> addTopic(topics, value);
            }
        }
        if (port == controllerPort) {
            throw new IllegalArgumentException("--port and --controller-port must differ");
        }
        return new Options(port, controllerPort, dir, topics, false);
    }

    private static void addTopic(Map<String, Integer> topics, String spec) {
        int colon = spec.lastIndexOf(':');
        String name = colon < 0 ? spec : spec.substring(0, colon);
        int partitions = 1;
        if (colon >= 0) {
            try {
                partitions = Integer.parseInt(spec.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--topic expects NAME[:PARTITIONS], got '" + spec + "'");
            }
        }
        if (name.isEmpty() || partitions < 1) {
            throw new IllegalArgumentException("--topic expects NAME[:PARTITIONS] with PARTITIONS >= 1, got '"
                + spec + "'");
        }
        topics.put(name, partitions);
    }

    private static int port(String flag, String value) {
        try {
            int port = Integer.parseInt(value);
            if (port >= 1 && port <= 65_535) {
                return port;
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be a port number, got '" + value + "'");
        }
        throw new IllegalArgumentException(flag + " must be a port number (1-65535), got '" + value + "'");
    }
}

package dev.bullet.local;

import dev.bullet.BulletException;
import dev.bullet.common.Cli;
import dev.bullet.config.SettingsTable;
import dev.bullet.rest.RestServer;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Entry point of {@code scripts/bullet-local.sh} (SPEC §9): runs a {@link LocalStack} until Ctrl-C, SIGTERM or
 * {@code --seconds}. Prints where to send queries, an example {@code curl}, and then the line
 * {@code BULLET_READY rest=http://127.0.0.1:PORT kafka=127.0.0.1:PORT} that scripts and tests wait for.
 *
 * <p>Stopping: a shutdown hook closes the stack; if that takes longer than {@value #STOP_TIMEOUT_SECONDS} s the JVM
 * halts anyway, so no process is ever left behind. (Storm's local cluster leaves non-daemon threads, which is why
 * this main always ends with an exit.)
 */
public final class LocalMain {
    public static final String READY_MARKER = "BULLET_READY";
    static final int STOP_TIMEOUT_SECONDS = 120; // a multi-process cluster (--cluster) takes a while to stop
    static final double DEFAULT_RATE = 200;
    static final String SEED_QUERY = "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"c39ba8cfe8\"]}],"
                                     + "\"aggregation\":{\"type\":\"LIMIT\",\"size\":10},\"duration\":30000}";
    static final String QUICK_QUERY = "{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":10000}";

    private LocalMain() {
    }

    /** The command line. */
    @Command(name = "bullet-local.sh", sortOptions = false,
             description = {"The local stack in one process: a Kafka broker (KRaft, 127.0.0.1:9092), the Bullet topology in",
                            "Storm local mode, the REST service (127.0.0.1:9999) and a sample data generator. Ctrl-C stops all of it."},
             footer = {"Prints '" + READY_MARKER + " rest=URL kafka=HOST:PORT' once queries can be sent.",
                       "Exit codes: 0 stopped, 1 could not start, 2 bad command line."})
    static final class Options implements Cli.Validated {
        @Option(names = "--bullet-conf", paramLabel = "FILE",
                description = "settings (conf/bullet_settings.yaml shape); Kafka addresses are set by this script")
        private Path bulletConf;
        @Option(names = "--port", paramLabel = "N", description = "REST port (default bullet.rest.port, 9999)")
        private Integer restPort;
        @Option(names = "--rate", paramLabel = "N",
                description = "sample records per second into the firehose topic (default " + (long) DEFAULT_RATE + ")")
        private double rate = DEFAULT_RATE;
        @Option(names = "--no-generator", description = "no sample records (send your own with scripts/generate.sh)")
        private boolean noGenerator;
        @Option(names = "--kafka-port", paramLabel = "N",
                description = "the broker's port (default " + EmbeddedKafka.DEFAULT_PORT + "; its controller uses N+1)")
        private int kafkaPort = EmbeddedKafka.DEFAULT_PORT;
        @Option(names = "--data-dir", paramLabel = "DIR",
                description = "keep the broker's data there (default: a temporary directory, deleted on exit)")
        private Path dataDir;
        @Option(names = "--seconds", paramLabel = "N", description = "stop after N seconds (default: run until Ctrl-C)")
        private Long seconds;
        @Option(names = "--cluster",
                description = {"the topology on a real multi-process Storm cluster (scripts/storm-cluster.sh: ZooKeeper,",
                               "Nimbus, Supervisors, worker JVMs per bullet.topology.workers) instead of Storm's local",
                               "mode; 'storm-cluster.sh workers' lists its workers"})
        private boolean cluster;
        @Option(names = "--supervisors", paramLabel = "N",
                description = "with --cluster: N Supervisors, each with its own slots (default 1)")
        private int supervisors = 1;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        @Override
        public void validate() {
            if (restPort != null) {
                checkRange("--port", restPort, 0, 65_535);
            }
            checkRange("--kafka-port", kafkaPort, 1, 65_534);
            if (seconds != null && seconds < 0) {
                throw new Cli.UsageException("--seconds must not be negative, got " + seconds);
            }
            if (!(rate > 0) || Double.isInfinite(rate)) {
                throw new Cli.UsageException("--rate must be positive (use --no-generator for none), got " + rate);
            }
            if (supervisors < 1 || supervisors > 12) {
                throw new Cli.UsageException("--supervisors must be between 1 and 12, got " + supervisors);
            }
        }

        private static void checkRange(String flag, int port, int min, int max) {
            if (port < min || port > max) {
                throw new Cli.UsageException(flag + " must be a port between " + min + " and " + max + ", got " + port);
            }
        }

        LocalStack.Options stack() {
            return new LocalStack.Options(bulletConf, kafkaPort, dataDir, restPort, noGenerator ? 0 : rate,
                                          cluster ? supervisors : 0);
        }

        /** Seconds to run, or -1 to run until stopped. */
        long seconds() {
            return seconds == null ? -1 : seconds;
        }

        boolean help() {
            return help;
        }
    }

    /** Reads the command line; throws {@link Cli.UsageException} for one that cannot run. */
    static Options parse(String[] args) {
        return Cli.parse(new Options(), args);
    }

    public static void main(String[] args) throws InterruptedException {
        Options options = new Options();
        int early = Cli.parse(options, args, System.out, System.err);
        if (early != Cli.RUN) {
            System.exit(early);
        }
        LocalStack stack;
        try {
            stack = LocalStack.start(options.stack(), System.out);
        } catch (BulletException e) {
            System.exit(Cli.failed(System.err, e.getMessage()));
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(stack, stopped), "bullet-local-shutdown"));
        printBanner(System.out, stack);
        System.out.println(READY_MARKER + " rest=" + stack.restUrl() + " kafka=" + stack.kafkaBootstrapServers());
        System.out.flush();
        if (options.seconds() >= 0) {
            stopped.await(options.seconds(), TimeUnit.SECONDS);
            System.exit(0);
        }
        stopped.await();
    }

    /** Closes the stack; halts the JVM if that does not finish in time. Runs in the shutdown hook. */
    private static void stop(LocalStack stack, CountDownLatch stopped) {
        System.out.println("bullet-local: stopping (the topology, the REST service and Kafka: a few seconds) ...");
        System.out.flush();
        Thread closer = new Thread(stack::close, "bullet-local-close");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(TimeUnit.SECONDS.toMillis(STOP_TIMEOUT_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (closer.isAlive()) {
            System.err.println("bullet-local: could not stop cleanly within " + STOP_TIMEOUT_SECONDS + " s; halting");
            Runtime.getRuntime().halt(1);
        }
        System.out.println("bullet-local: stopped");
        System.out.flush();
        stopped.countDown();
    }

    static void printBanner(PrintStream out, LocalStack stack) {
        String url = stack.restUrl();
        String auth = stack.settings().getString(SettingsTable.REST_AUTH_TYPE).trim();
        boolean tokens = "tokens".equals(auth);
        String curl = "curl -s -X POST " + url + RestServer.HTTP_QUERY + " -H 'Content-Type: application/json' "
                      + (tokens ? "-H \"Authorization: Bearer $TOKEN\" " : "") + "-d ";
        out.println();
        out.println("Bullet is running (Ctrl-C stops everything):");
        out.println("  Console       " + url + "/console   (open it in a browser)");
        out.println("  REST service  " + url + RestServer.API + "   (health: curl -s " + url + RestServer.HEALTH + ")");
        out.println("  Kafka         " + stack.kafkaBootstrapServers() + "   (records topic "
                    + stack.settings().getString(SettingsTable.DATASOURCE_KAFKA_TOPIC) + ")");
        out.println("  Sample data   " + (stack.sampleRate() > 0
                ? String.format(Locale.ROOT, "%.0f records/s", stack.sampleRate()) : "off (--no-generator)"));
        if (!"none".equals(auth)) {
            out.println("  Authentication " + auth + " (bullet.rest.auth.type)" + (tokens
                    ? ": set TOKEN to a token of " + stack.settings().getString(SettingsTable.REST_AUTH_TOKENS_FILE)
                    : ": every /api/bullet/queries request needs credentials"));
        }
        out.println();
        out.println("Try one record of the sample data:");
        out.println("  " + curl + "'" + QUICK_QUERY + "'");
        out.println("The seed's query (ends after 10 matching records or 30 s):");
        out.println("  " + curl + "'" + SEED_QUERY + "'");
        out.println("and, from another terminal, send it a matching record:");
        out.println("  echo '{\"id\":\"c39ba8cfe8\",\"timestamp\":0}' | scripts/generate.sh --bootstrap "
                    + stack.kafkaBootstrapServers() + " --records -");
        out.println("Windows as server-sent events: POST " + url + RestServer.SSE_QUERY + " (curl -N)");
        out.println();
    }
}

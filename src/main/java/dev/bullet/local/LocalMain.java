package dev.bullet.local;

import dev.bullet.BulletException;
import dev.bullet.config.SettingsTable;
import dev.bullet.rest.RestServer;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
    private static final Set<String> VALUE_FLAGS = Set.of("--bullet-conf", "--kafka-port", "--port", "--data-dir",
                                                          "--seconds", "--rate", "--supervisors");
    static final String SEED_QUERY = "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"c39ba8cfe8\"]}],"
                                     + "\"aggregation\":{\"type\":\"LIMIT\",\"size\":10},\"duration\":30000}";
    static final String QUICK_QUERY = "{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":10000}";

    static final String USAGE = String.join("\n",
            "Usage: bullet-local.sh [--bullet-conf FILE] [--port N] [--rate N | --no-generator]",
            "                       [--kafka-port N] [--data-dir DIR] [--seconds N] [--cluster [--supervisors N]] [--help]",
            "",
            "The local stack in one process: a Kafka broker (KRaft, 127.0.0.1:9092), the Bullet topology in Storm",
            "local mode, the REST service (127.0.0.1:9999) and a sample data generator. Ctrl-C stops all of it.",
            "  --bullet-conf FILE   settings (conf/bullet_settings.yaml shape); Kafka addresses are set by this script",
            "  --port N             REST port (default bullet.rest.port, 9999)",
            "  --rate N             sample records per second into the firehose topic (default " + (long) DEFAULT_RATE + ")",
            "  --no-generator       no sample records (send your own with scripts/generate.sh)",
            "  --kafka-port N       the broker's port (default 9092; its controller uses N+1)",
            "  --data-dir DIR       keep the broker's data there (default: a temporary directory, deleted on exit)",
            "  --seconds N          stop after N seconds (default: run until Ctrl-C)",
            "  --cluster            the topology on a real multi-process Storm cluster (scripts/storm-cluster.sh:",
            "                       ZooKeeper, Nimbus, Supervisors, worker JVMs per bullet.topology.workers) instead",
            "                       of Storm's local mode; 'storm-cluster.sh workers' lists its workers",
            "  --supervisors N      with --cluster: N Supervisors, each with its own slots (default 1)",
            "  --help               this text",
            "Prints '" + READY_MARKER + " rest=URL kafka=HOST:PORT' once queries can be sent.",
            "Exit codes: 0 stopped, 1 could not start, 2 bad command line.");

    private LocalMain() {
    }

    /** The parsed command line. */
    record Options(LocalStack.Options stack, long seconds, boolean help) {
    }

    static Options parse(String[] args) {
        Path conf = null;
        Path dataDir = null;
        int kafkaPort = EmbeddedKafka.DEFAULT_PORT;
        Integer restPort = null;
        double rate = DEFAULT_RATE;
        boolean generator = true;
        boolean cluster = false;
        int supervisors = 1;
        long seconds = -1;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--help", "-h" -> {
                    return new Options(null, -1, true);
                }
                case "--no-generator" -> {
                    generator = false;
                    continue;
                }
                case "--cluster" -> {
                    cluster = true;
                    continue;
                }
                default -> {
                    // flags with a value below
                }
            }
            if (!VALUE_FLAGS.contains(a)) {
                throw new IllegalArgumentException("unknown argument '" + a + "'");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            String v = args[++i];
            switch (a) {
                case "--bullet-conf" -> conf = Path.of(v);
                case "--kafka-port" -> kafkaPort = port(a, v, 1, 65_534);
                case "--port" -> restPort = port(a, v, 0, 65_535);
                case "--data-dir" -> dataDir = Path.of(v);
                case "--seconds" -> seconds = number(a, v);
                case "--supervisors" -> {
                    long n = number(a, v);
                    if (n < 1 || n > 12) {
                        throw new IllegalArgumentException("--supervisors must be between 1 and 12, got " + v);
                    }
                    supervisors = (int) n;
                }
                case "--rate" -> {
                    try {
                        rate = Double.parseDouble(v);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--rate needs a number, got '" + v + "'");
                    }
                    if (!(rate > 0) || Double.isInfinite(rate)) {
                        throw new IllegalArgumentException("--rate must be positive (use --no-generator for none), got " + v);
                    }
                }
                default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
            }
        }
        return new Options(new LocalStack.Options(conf, kafkaPort, dataDir, restPort, generator ? rate : 0,
                                                  cluster ? supervisors : 0), seconds, false);
    }

    private static int port(String flag, String value, int min, int max) {
        long n = number(flag, value);
        if (n < min || n > max) {
            throw new IllegalArgumentException(flag + " must be a port between " + min + " and " + max + ", got " + value);
        }
        return (int) n;
    }

    private static long number(String flag, String value) {
        try {
            long n = Long.parseLong(value.trim());
            if (n < 0) {
                throw new IllegalArgumentException(flag + " must not be negative, got " + value);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " needs a whole number, got '" + value + "'");
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.println(USAGE);
            return;
        }
        LocalStack stack;
        try {
            stack = LocalStack.start(options.stack(), System.out);
        } catch (BulletException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(1);
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
        String curl = "curl -s -X POST " + url + RestServer.HTTP_QUERY + " -H 'Content-Type: application/json' -d ";
        out.println();
        out.println("Bullet is running (Ctrl-C stops everything):");
        out.println("  REST service  " + url + RestServer.API + "   (health: curl -s " + url + RestServer.HEALTH + ")");
        out.println("  Kafka         " + stack.kafkaBootstrapServers() + "   (records topic "
                    + stack.settings().getString(SettingsTable.DATASOURCE_KAFKA_TOPIC) + ")");
        out.println("  Sample data   " + (stack.sampleRate() > 0
                ? String.format(Locale.ROOT, "%.0f records/s", stack.sampleRate()) : "off (--no-generator)"));
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

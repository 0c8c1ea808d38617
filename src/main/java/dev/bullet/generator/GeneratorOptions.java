package dev.bullet.generator;

import java.nio.file.Path;
import java.util.Locale;

/**
 * The generator's command line, parsed and validated once (see {@link #USAGE} for the flags).
 *
 * @param bootstrap      Kafka bootstrap servers, {@code HOST:PORT[,HOST:PORT...]}
 * @param topic          the firehose topic
 * @param ratePerSecond  records per second on a fixed schedule; {@code 0} means as fast as possible
 * @param count          records to generate, or {@code -1} when the duration or the records file bounds the run
 * @param durationSeconds seconds to generate for, or {@code 0} when {@code count} bounds the run
 * @param seed           the data set ({@link RecordGenerator})
 * @param out            a file to write JSON lines to instead of Kafka, {@code "-"} for stdout, or null
 * @param records        a JSON-lines file to send instead of generated records ({@code "-"} for stdin), or null
 */
record GeneratorOptions(String bootstrap, String topic, double ratePerSecond, long count, double durationSeconds,
                        long seed, String out, String records, boolean help) {

    static final String DEFAULT_BOOTSTRAP = "127.0.0.1:9092";
    static final String DEFAULT_TOPIC = "bullet.records";
    static final double DEFAULT_RATE = 1_000;
    static final long DEFAULT_COUNT = 1_000;
    static final long DEFAULT_SEED = 42;
    static final String STDIO = "-";

    static final String USAGE = String.join("\n",
        "Usage: generate.sh [options]",
        "",
        "Generates synthetic Bullet records (~1.8 KiB JSON, 92 fields plus id and timestamp) into a Kafka topic,",
        "or into a file, at a fixed rate; or sends the JSON lines of a file once.",
        "",
        "  --bootstrap HOST:PORT  Kafka bootstrap servers (default " + DEFAULT_BOOTSTRAP + ")",
        "  --topic NAME           topic to produce to (default " + DEFAULT_TOPIC + ")",
        "  --rate N|max           records per second, sent on a fixed schedule: record i is due at start + i/N.",
        "                         If sending falls behind, the lag is reported (never hidden).",
        "                         Default " + (long) DEFAULT_RATE + " for generated records, max for --records.",
        "  --count N              generate N records (default " + DEFAULT_COUNT + " when --duration is not given)",
        "  --duration S           generate for S seconds (N = rate x S records at a fixed rate)",
        "  --seed N               data set seed; the same seed gives the same records (default " + DEFAULT_SEED + ")",
        "  --out FILE             write JSON lines to FILE ('-' = stdout) instead of Kafka",
        "  --records FILE         send each non-blank line of FILE ('-' = stdin) as one message, in order,",
        "                         then flush and exit. Lines are sent as they are (a line that is not a JSON",
        "                         object gets a warning).",
        "                         Cannot be combined with --count, --duration or --seed.",
        "  --help                 print this help",
        "",
        "Progress goes to stderr every second; the achieved rate is printed at the end.",
        "Exit codes: 0 done, 1 failed (Kafka unreachable, send or I/O error), 2 bad command line.");

    boolean unthrottled() {
        return ratePerSecond == 0;
    }

    boolean toKafka() {
        return out == null;
    }

    static GeneratorOptions parse(String[] args) throws UsageException {
        String bootstrap = DEFAULT_BOOTSTRAP;
        String topic = DEFAULT_TOPIC;
        Double rate = null;
        Long count = null;
        Double duration = null;
        Long seed = null;
        String out = null;
        String records = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--help") || arg.equals("-h")) {
                return new GeneratorOptions(bootstrap, topic, DEFAULT_RATE, DEFAULT_COUNT, 0, DEFAULT_SEED,
                    null, null, true);
            }
            if (!arg.startsWith("--")) {
                throw new UsageException("unexpected argument '" + arg + "'");
            }
            String flag = arg;
            String value;
            int eq = arg.indexOf('=');
            if (eq > 0) {
                flag = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            } else if (isKnown(flag)) {
                if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
                    throw new UsageException(flag + " needs a value");
                }
                value = args[++i];
            } else {
                throw new UsageException("unknown option " + flag);
            }
            switch (flag) {
                case "--bootstrap" -> bootstrap = bootstrap(value);
                case "--topic" -> topic = nonBlank(flag, value);
                case "--rate" -> rate = rate(value);
                case "--count" -> count = positiveLong(flag, value);
                case "--duration" -> duration = positiveDouble(flag, value);
                case "--seed" -> seed = anyLong(flag, value);
                case "--out" -> out = nonBlank(flag, value);
                case "--records" -> records = nonBlank(flag, value);
                default -> throw new UsageException("unknown option " + flag);
            }
        }
        if (count != null && duration != null) {
            throw new UsageException("give --count or --duration, not both");
        }
        if (records != null && (count != null || duration != null || seed != null)) {
            throw new UsageException("--records sends the file's lines; it cannot be combined with "
                + "--count, --duration or --seed");
        }
        double effectiveRate = rate != null ? rate : records != null ? 0 : DEFAULT_RATE;
        if (duration != null && effectiveRate > 0 && effectiveRate * duration > Long.MAX_VALUE / 2.0) {
            throw new UsageException("--rate x --duration is too large");
        }
        return new GeneratorOptions(bootstrap, topic, effectiveRate,
            records != null || duration != null ? -1 : count != null ? count : DEFAULT_COUNT,
            duration != null ? duration : 0,
            seed != null ? seed : DEFAULT_SEED, out, records, false);
    }

    /** The most records to send: the count, or rate x duration at a fixed rate; -1 for no count bound. */
    long maxRecords() {
        if (count >= 0) {
            return count;
        }
        return durationSeconds > 0 && !unthrottled() ? Math.round(ratePerSecond * durationSeconds) : -1;
    }

    /** How long to send for when only time bounds the run (a duration without a rate), else 0. */
    long durationNanos() {
        return durationSeconds > 0 && unthrottled() ? (long) (durationSeconds * 1e9) : 0;
    }

    Path outPath() {
        return Path.of(out);
    }

    private static boolean isKnown(String flag) {
        return switch (flag) {
            case "--bootstrap", "--topic", "--rate", "--count", "--duration", "--seed", "--out", "--records" -> true;
            default -> false;
        };
    }

    private static String nonBlank(String flag, String value) throws UsageException {
        if (value.isBlank()) {
            throw new UsageException(flag + " needs a non-empty value");
        }
        return value;
    }

    private static String bootstrap(String value) throws UsageException {
        for (String server : value.split(",", -1)) {
            int colon = server.lastIndexOf(':');
            if (colon <= 0 || colon == server.length() - 1) {
                throw new UsageException("--bootstrap must be HOST:PORT[,HOST:PORT...], got '" + value + "'");
            }
            try {
                int port = Integer.parseInt(server.substring(colon + 1));
                if (port < 1 || port > 65_535) {
                    throw new UsageException("--bootstrap port out of range in '" + value + "'");
                }
            } catch (NumberFormatException e) {
                throw new UsageException("--bootstrap port is not a number in '" + value + "'");
            }
        }
        return value;
    }

    private static double rate(String value) throws UsageException {
        if (value.toLowerCase(Locale.ROOT).equals("max")) {
            return 0;
        }
        return positiveDouble("--rate", value);
    }

    private static double positiveDouble(String flag, String value) throws UsageException {
        try {
            double d = Double.parseDouble(value);
            if (!(d > 0) || Double.isInfinite(d)) {
                throw new UsageException(flag + " must be a positive number, got '" + value + "'");
            }
            return d;
        } catch (NumberFormatException e) {
            throw new UsageException(flag + " must be a positive number, got '" + value + "'");
        }
    }

    private static long positiveLong(String flag, String value) throws UsageException {
        long n = anyLong(flag, value);
        if (n < 1) {
            throw new UsageException(flag + " must be at least 1, got '" + value + "'");
        }
        return n;
    }

    private static long anyLong(String flag, String value) throws UsageException {
        try {
            return Long.parseLong(value.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new UsageException(flag + " must be a whole number, got '" + value + "'");
        }
    }
}

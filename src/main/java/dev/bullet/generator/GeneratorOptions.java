package dev.bullet.generator;

import dev.bullet.common.Cli;

import java.nio.file.Path;
import java.util.Locale;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The generator's command line, parsed ({@link Cli}) and validated once. The values after {@link #validate()}:
 * <ul>
 *   <li>{@link #bootstrap()}: Kafka bootstrap servers, {@code HOST:PORT[,HOST:PORT...]}</li>
 *   <li>{@link #topic()}: the firehose topic</li>
 *   <li>{@link #ratePerSecond()}: records per second on a fixed schedule; {@code 0} means as fast as possible</li>
 *   <li>{@link #count()}: records to generate, or {@code -1} when the duration or the records file bounds the run</li>
 *   <li>{@link #durationSeconds()}: seconds to generate for, or {@code 0} when {@code count} bounds the run</li>
 *   <li>{@link #seed()}: the data set ({@link RecordGenerator})</li>
 *   <li>{@link #out()}: a file to write JSON lines to instead of Kafka, {@code "-"} for stdout, or null</li>
 *   <li>{@link #records()}: a JSON-lines file to send instead of generated records ({@code "-"} for stdin), or null</li>
 * </ul>
 */
@Command(name = "generate.sh", sortOptions = false,
         description = {"Generates synthetic Bullet records (~1.8 KiB JSON, 92 fields plus id and timestamp) into a Kafka topic,",
                        "or into a file, at a fixed rate; or sends the JSON lines of a file once."},
         footer = {"Progress goes to stderr every second; the achieved rate is printed at the end.",
                   "Exit codes: 0 done, 1 failed (Kafka unreachable, send or I/O error), 2 bad command line."})
final class GeneratorOptions implements Cli.Validated {
    static final String DEFAULT_BOOTSTRAP = "127.0.0.1:9092";
    static final String DEFAULT_TOPIC = "bullet.records";
    static final double DEFAULT_RATE = 1_000;
    static final long DEFAULT_COUNT = 1_000;
    static final long DEFAULT_SEED = 42;
    static final String STDIO = "-";

    @Option(names = "--bootstrap", paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers (default " + DEFAULT_BOOTSTRAP + ")")
    private String bootstrap = DEFAULT_BOOTSTRAP;
    @Option(names = "--topic", paramLabel = "NAME", description = "topic to produce to (default " + DEFAULT_TOPIC + ")")
    private String topic = DEFAULT_TOPIC;
    @Option(names = "--rate", paramLabel = "N|max",
            description = {"records per second, sent on a fixed schedule: record i is due at start + i/N.",
                           "If sending falls behind, the lag is reported (never hidden).",
                           "Default " + (long) DEFAULT_RATE + " for generated records, max for --records."})
    private String rateFlag;
    @Option(names = "--count", paramLabel = "N",
            description = "generate N records (default " + DEFAULT_COUNT + " when --duration is not given)")
    private String countFlag;
    @Option(names = "--duration", paramLabel = "S",
            description = "generate for S seconds (N = rate x S records at a fixed rate)")
    private String durationFlag;
    @Option(names = "--seed", paramLabel = "N",
            description = "data set seed; the same seed gives the same records (default " + DEFAULT_SEED + ")")
    private String seedFlag;
    @Option(names = "--out", paramLabel = "FILE", description = "write JSON lines to FILE ('-' = stdout) instead of Kafka")
    private String out;
    @Option(names = "--records", paramLabel = "FILE",
            description = {"send each non-blank line of FILE ('-' = stdin) as one message, in order,",
                           "then flush and exit. Lines are sent as they are (a line that is not a JSON",
                           "object gets a warning). Cannot be combined with --count, --duration or --seed."})
    private String records;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
    private boolean help;

    private double ratePerSecond = DEFAULT_RATE;
    private long count = DEFAULT_COUNT;
    private double durationSeconds;
    private long seed = DEFAULT_SEED;

    @Override
    public void validate() {
        bootstrap(bootstrap);
        nonBlank("--topic", topic);
        if (out != null) {
            nonBlank("--out", out);
        }
        if (records != null) {
            nonBlank("--records", records);
        }
        Double rate = rateFlag == null ? null : rate(rateFlag);
        Long givenCount = countFlag == null ? null : positiveLong("--count", countFlag);
        Double duration = durationFlag == null ? null : positiveDouble("--duration", durationFlag);
        Long givenSeed = seedFlag == null ? null : anyLong("--seed", seedFlag);
        if (givenCount != null && duration != null) {
            throw new Cli.UsageException("give --count or --duration, not both");
        }
        if (records != null && (givenCount != null || duration != null || givenSeed != null)) {
            throw new Cli.UsageException("--records sends the file's lines; it cannot be combined with "
                + "--count, --duration or --seed");
        }
        ratePerSecond = rate != null ? rate : records != null ? 0 : DEFAULT_RATE;
        if (duration != null && ratePerSecond > 0 && ratePerSecond * duration > Long.MAX_VALUE / 2.0) {
            throw new Cli.UsageException("--rate x --duration is too large");
        }
        count = records != null || duration != null ? -1 : givenCount != null ? givenCount : DEFAULT_COUNT;
        durationSeconds = duration != null ? duration : 0;
        seed = givenSeed != null ? givenSeed : DEFAULT_SEED;
    }

    String bootstrap() {
        return bootstrap;
    }

    String topic() {
        return topic;
    }

    double ratePerSecond() {
        return ratePerSecond;
    }

    long count() {
        return count;
    }

    double durationSeconds() {
        return durationSeconds;
    }

    long seed() {
        return seed;
    }

    String out() {
        return out;
    }

    String records() {
        return records;
    }

    boolean unthrottled() {
        return ratePerSecond == 0;
    }

    boolean toKafka() {
        return out == null;
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

    private static String nonBlank(String flag, String value) {
        if (value.isBlank()) {
            throw new Cli.UsageException(flag + " needs a non-empty value");
        }
        return value;
    }

    private static String bootstrap(String value) {
        for (String server : value.split(",", -1)) {
            int colon = server.lastIndexOf(':');
            if (colon <= 0 || colon == server.length() - 1) {
                throw new Cli.UsageException("--bootstrap must be HOST:PORT[,HOST:PORT...], got '" + value + "'");
            }
            try {
                int port = Integer.parseInt(server.substring(colon + 1));
                if (port < 1 || port > 65_535) {
                    throw new Cli.UsageException("--bootstrap port out of range in '" + value + "'");
                }
            } catch (NumberFormatException e) {
                throw new Cli.UsageException("--bootstrap port is not a number in '" + value + "'");
            }
        }
        return value;
    }

    private static double rate(String value) {
        if (value.toLowerCase(Locale.ROOT).equals("max")) {
            return 0;
        }
        return positiveDouble("--rate", value);
    }

    private static double positiveDouble(String flag, String value) {
        try {
            double d = Double.parseDouble(value);
            if (!(d > 0) || Double.isInfinite(d)) {
                throw new Cli.UsageException(flag + " must be a positive number, got '" + value + "'");
            }
            return d;
        } catch (NumberFormatException e) {
            throw new Cli.UsageException(flag + " must be a positive number, got '" + value + "'");
        }
    }

    private static long positiveLong(String flag, String value) {
        long n = anyLong(flag, value);
        if (n < 1) {
            throw new Cli.UsageException(flag + " must be at least 1, got '" + value + "'");
        }
        return n;
    }

    private static long anyLong(String flag, String value) {
        try {
            return Long.parseLong(value.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new Cli.UsageException(flag + " must be a whole number, got '" + value + "'");
        }
    }
}

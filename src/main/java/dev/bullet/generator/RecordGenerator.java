package dev.bullet.generator;

import dev.bullet.common.Clock;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * The source of the pipeline's synthetic data: makes the JSON records that {@link GeneratorMain} writes
 * into the Kafka firehose topic (or into a file), modelled on the data of the original Bullet benchmarks.
 *
 * <p>Every record is one UTF-8 JSON object of about 1.8 KiB with 94 top-level fields, always in this order:
 * <ul>
 *   <li>{@code id}: 10 lowercase hex characters, random (40 bits), so effectively unique;</li>
 *   <li>{@code timestamp}: milliseconds from the injected clock;</li>
 *   <li>62 strings {@code s_00}..{@code s_61}. The cardinality of {@code s_NN} is set by {@code NN % 5}:
 *       0 → 10 values, 1 → 100, 2 → 1,000, 3 → 10,000, 4 → a random 6-character token (unique).
 *       {@code s_00} takes the NATO words {@code alpha}..{@code juliett}; the others take words of
 *       {@link Vocabulary} ({@code ba}, {@code be}, ... then four-letter words);</li>
 *   <li>4 longs: {@code l_0} in [0, 1,000), {@code l_1} in [0, 100,000), {@code l_2} in [0, 10),
 *       {@code l_3} in [-500,000, 500,000), uniform;</li>
 *   <li>23 maps of strings {@code m_00}..{@code m_22}; {@code m_NN} has the keys {@code k0}..{@code k(NN % 4)}
 *       (1 to 4 keys), the value of {@code kK} has cardinality 10, 100, 1,000 or 10,000 by {@code (NN + K) % 4};</li>
 *   <li>3 lists of maps {@code lm_0}..{@code lm_2}, each of 1 to 3 maps (random per record) with the keys
 *       {@code k0} and {@code k1}, cardinalities as for the maps.</li>
 * </ul>
 * Drawn words are skewed towards the start of their list (index = ⌊n·u²⌋ for a uniform u), so GROUP BY and
 * TOP K over the low-cardinality fields have clear leaders: {@code alpha} is about 32% of {@code s_00}.
 *
 * <p>The output is a pure function of the seed and the clock's readings: two generators with the same
 * seed and clock produce identical bytes. Not thread-safe; use one per thread.
 */
public final class RecordGenerator {
    public static final String ID_FIELD = "id";
    public static final String TIMESTAMP_FIELD = "timestamp";
    public static final int STRING_FIELDS = 62;
    public static final int LONG_FIELDS = 4;
    public static final int MAP_FIELDS = 23;
    public static final int LIST_FIELDS = 3;
    /** Number of top-level fields of a record: the 92 shaped fields plus {@code id} and {@code timestamp}. */
    public static final int TOTAL_FIELDS = STRING_FIELDS + LONG_FIELDS + MAP_FIELDS + LIST_FIELDS + 2;

    private static final int[] CARDINALITY_BY_TIER = {10, 100, 1_000, 10_000};
    private static final int UNIQUE_TIER = 4;
    private static final int TOKEN_LENGTH = 6;
    private static final byte[] TOKEN_ALPHABET = ascii("0123456789abcdefghijklmnopqrstuvwxyz");
    private static final long[][] LONG_RANGES = {{0, 1_000}, {0, 100_000}, {0, 10}, {-500_000, 500_000}};
    private static final int MAX_LIST_LENGTH = 3;
    private static final int LIST_MAP_KEYS = 2;

    private static final byte[] ID_PREFIX = ascii("{\"id\":\"");
    private static final byte[] TIMESTAMP_PREFIX = ascii("\",\"timestamp\":");
    private static final byte[][] STRING_PREFIXES = prefixes(STRING_FIELDS, i -> stringField(i), ":\"");
    private static final byte[][] LONG_PREFIXES = prefixes(LONG_FIELDS, i -> longField(i), ":");
    private static final byte[][] MAP_PREFIXES = prefixes(MAP_FIELDS, i -> mapField(i), ":{");
    private static final byte[][] LIST_PREFIXES = prefixes(LIST_FIELDS, i -> listField(i), ":[");
    private static final byte[][] KEY_PREFIXES = keyPrefixes(4);

    private final SplittableRandom random;
    private final Clock clock;
    private final AsciiJsonBuffer buffer = new AsciiJsonBuffer(2_560);

    /**
     * @param seed        the data set: equal seeds give equal records
     * @param clock the source of each record's {@code timestamp}, read once per record
     */
    public RecordGenerator(long seed, Clock clock) {
        this.random = new SplittableRandom(seed);
        this.clock = clock;
    }

    public static String stringField(int index) {
        return String.format("s_%02d", index);
    }

    public static String longField(int index) {
        return "l_" + index;
    }

    public static String mapField(int index) {
        return String.format("m_%02d", index);
    }

    public static String listField(int index) {
        return "lm_" + index;
    }

    /** Number of keys of the map field {@code m_NN}. */
    public static int mapKeyCount(int index) {
        return 1 + index % 4;
    }

    /** Returns the next record as UTF-8 JSON (a fresh array the caller owns). */
    public byte[] next() {
        AsciiJsonBuffer out = buffer;
        out.reset();
        out.append(ID_PREFIX).appendHex(random.nextLong(), 10);
        out.append(TIMESTAMP_PREFIX).appendDecimal(clock.now());
        for (int i = 0; i < STRING_FIELDS; i++) {
            out.append(STRING_PREFIXES[i]);
            appendStringValue(out, i);
            out.append((byte) '"');
        }
        for (int i = 0; i < LONG_FIELDS; i++) {
            long[] range = LONG_RANGES[i];
            out.append(LONG_PREFIXES[i]).appendDecimal(random.nextLong(range[0], range[1]));
        }
        for (int i = 0; i < MAP_FIELDS; i++) {
            out.append(MAP_PREFIXES[i]);
            appendMap(out, i, mapKeyCount(i));
        }
        for (int i = 0; i < LIST_FIELDS; i++) {
            out.append(LIST_PREFIXES[i]);
            int maps = 1 + random.nextInt(MAX_LIST_LENGTH);
            for (int m = 0; m < maps; m++) {
                if (m > 0) {
                    out.append((byte) ',');
                }
                out.append((byte) '{');
                appendMap(out, i + m, LIST_MAP_KEYS);
            }
            out.append((byte) ']');
        }
        out.append((byte) '}');
        return out.toByteArray();
    }

    private void appendStringValue(AsciiJsonBuffer out, int field) {
        int tier = field % 5;
        if (tier == UNIQUE_TIER) {
            for (int c = 0; c < TOKEN_LENGTH; c++) {
                out.append(TOKEN_ALPHABET[random.nextInt(TOKEN_ALPHABET.length)]);
            }
        } else if (field == 0) {
            out.append(Vocabulary.nato(skewedIndex(Vocabulary.natoSize())));
        } else {
            out.append(Vocabulary.word(skewedIndex(CARDINALITY_BY_TIER[tier])));
        }
    }

    /** Appends the entries of a string map and its closing brace; the opening brace is already written. */
    private void appendMap(AsciiJsonBuffer out, int salt, int keys) {
        for (int k = 0; k < keys; k++) {
            out.append(KEY_PREFIXES[k]);
            out.append(Vocabulary.word(skewedIndex(CARDINALITY_BY_TIER[(salt + k) % CARDINALITY_BY_TIER.length])));
            out.append((byte) '"');
            if (k + 1 < keys) {
                out.append((byte) ',');
            }
        }
        out.append((byte) '}');
    }

    private int skewedIndex(int n) {
        double u = random.nextDouble();
        return (int) (n * u * u);
    }

    private static byte[][] prefixes(int count, IntFunction<String> name, String suffix) {
        byte[][] out = new byte[count][];
        for (int i = 0; i < count; i++) {
            out[i] = ascii(",\"" + name.apply(i) + "\"" + suffix);
        }
        return out;
    }

    private static byte[][] keyPrefixes(int count) {
        byte[][] out = new byte[count][];
        for (int k = 0; k < count; k++) {
            out[k] = ascii("\"k" + k + "\":\"");
        }
        return out;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}

package dev.bullet.record;

import java.util.Arrays;

/**
 * Whether a JSON object's bytes are exactly what writing its parse gives: {@code JsonCodec.toJson(JsonCodec.parseMap(
 * json))} (gson, compact, nulls written, no HTML escaping). A RAW result can then carry the bytes of its rows as they
 * are, where it would otherwise parse each row into a map and write the map again.
 *
 * <p>It says yes only to a narrow form that is unmistakably canonical: no whitespace outside strings; strings of
 * printable ASCII without an escape (so without a quote, a backslash or a control character); integers of at most 18
 * digits that are not {@code -0} (they read back as a {@code Long} and are written as the same digits); {@code true},
 * {@code false}, {@code null}; objects without a duplicate key; arrays; at most {@link #MAX_DEPTH} levels. Anything
 * else (a decimal, an exponent, an escape, a non-ASCII letter, {@code 1e400}, a key twice) answers no, and the row goes
 * the slow way, which decides what it reads as. Not thread-safe; cheap to make.
 */
public final class CanonicalJson {
    /** Nesting beyond this answers no (records are validated to a lower depth anyway). */
    static final int MAX_DEPTH = 512;
    /** Up to this many keys an object's keys are compared pairwise; beyond, through a hash table. */
    private static final int PAIRWISE = 16;

    /** Rows up to this size are remembered by {@link #isCanonicalRow}. */
    static final int REMEMBERED_ROW_BYTES = 16 * 1024;
    /** How many rows {@link #isCanonicalRow} remembers a thread (a power of two). */
    static final int REMEMBERED_ROWS = 4096;
    private static final ThreadLocal<Remembered> REMEMBERED = ThreadLocal.withInitial(Remembered::new);

    private byte[] b;
    /** The keys of the objects being read, innermost last: start and end (exclusive, after the text) of each. */
    private int[] keys = new int[64];
    private int keyCount;
    private int[] table = new int[64];

    /** The rows a thread checked since it last forgot them, by slot, and what they were found to be. */
    private static final class Remembered {
        final CanonicalJson check = new CanonicalJson();
        final byte[][] rows = new byte[REMEMBERED_ROWS][];
        final boolean[] verdicts = new boolean[REMEMBERED_ROWS];
        /** Whether any slot holds a row. */
        boolean holds;
    }

    /**
     * {@link #isCanonicalObject} of a row that is never written again, remembered by identity until the thread
     * {@link #forgetRows forgets}: inside a worker every RAW query that keeps a record holds the record's own bytes
     * (one array), and a Filter's partials of one batch reach a Join task in one tuple, so a record that a hundred
     * queries keep is checked once, not once per query. A thread holds at most {@link #REMEMBERED_ROWS} rows of at most
     * {@link #REMEMBERED_ROW_BYTES} bytes; a larger row is checked each time.
     */
    public static boolean isCanonicalRow(byte[] json) {
        Remembered remembered = REMEMBERED.get();
        if (json.length > REMEMBERED_ROW_BYTES) {
            return remembered.check.isCanonicalObject(json);
        }
        int slot = System.identityHashCode(json) & (REMEMBERED_ROWS - 1);
        byte[] held = remembered.rows[slot];
        if (held == json) {
            return remembered.verdicts[slot];
        }
        boolean verdict = remembered.check.isCanonicalObject(json);
        remembered.holds = true;
        remembered.rows[slot] = json;
        remembered.verdicts[slot] = verdict;
        return verdict;
    }

    /** Lets go of the rows {@link #isCanonicalRow} remembers on this thread (a Join task: after each tuple). */
    public static void forgetRows() {
        Remembered remembered = REMEMBERED.get();
        if (remembered.holds) {
            Arrays.fill(remembered.rows, null);
            remembered.holds = false;
        }
    }

    /** Whether {@code json}, all of it, is one JSON object in canonical form. */
    public boolean isCanonicalObject(byte[] json) {
        if (json.length < 2 || json[0] != '{') {
            return false;
        }
        b = json;
        keyCount = 0;
        try {
            return value(0, 0) == json.length;
        } finally {
            b = null;
        }
    }

    /** The index after the canonical value at {@code i}, or -1. */
    private int value(int i, int depth) {
        if (i >= b.length) {
            return -1;
        }
        switch (b[i]) {
            case '"':
                return string(i);
            case '{':
                return depth >= MAX_DEPTH ? -1 : object(i, depth + 1);
            case '[':
                return depth >= MAX_DEPTH ? -1 : array(i, depth + 1);
            case 't':
                return JsonScanner.literal(b, i, b.length, "true");
            case 'f':
                return JsonScanner.literal(b, i, b.length, "false");
            case 'n':
                return JsonScanner.literal(b, i, b.length, "null");
            default:
                return integer(i);
        }
    }

    private int string(int i) {
        for (int j = i + 1; j < b.length; j++) {
            byte c = b[j];
            if (c == '"') {
                return j + 1;
            }
            if (c < 0x20 || c > 0x7e || c == '\\') {
                return -1;
            }
        }
        return -1;
    }

    private int integer(int i) {
        int j = i;
        boolean negative = b[j] == '-';
        if (negative) {
            j++;
        }
        int digits = j;
        if (j >= b.length) {
            return -1;
        }
        if (b[j] == '0') {
            if (negative) {
                return -1; // -0 reads as 0
            }
            j++;
        } else if (b[j] >= '1' && b[j] <= '9') {
            while (j < b.length && b[j] >= '0' && b[j] <= '9') {
                j++;
            }
        } else {
            return -1;
        }
        if (j - digits > 18 || j < b.length && (b[j] == '.' || b[j] == 'e' || b[j] == 'E')) {
            return -1;
        }
        return j;
    }

    private int array(int i, int depth) {
        int j = i + 1;
        if (j < b.length && b[j] == ']') {
            return j + 1;
        }
        while (true) {
            j = value(j, depth);
            if (j < 0 || j >= b.length) {
                return -1;
            }
            if (b[j] == ']') {
                return j + 1;
            }
            if (b[j] != ',') {
                return -1;
            }
            j++;
        }
    }

    private int object(int i, int depth) {
        int j = i + 1;
        if (j < b.length && b[j] == '}') {
            return j + 1;
        }
        int base = keyCount;
        try {
            while (true) {
                if (j >= b.length || b[j] != '"') {
                    return -1;
                }
                int keyEnd = string(j);
                if (keyEnd < 0 || keyEnd >= b.length || b[keyEnd] != ':') {
                    return -1;
                }
                pushKey(j + 1, keyEnd - 1);
                j = value(keyEnd + 1, depth);
                if (j < 0 || j >= b.length) {
                    return -1;
                }
                if (b[j] == '}') {
                    return distinctKeys(base) ? j + 1 : -1;
                }
                if (b[j] != ',') {
                    return -1;
                }
                j++;
            }
        } finally {
            keyCount = base;
        }
    }

    private void pushKey(int start, int end) {
        if (keyCount * 2 + 2 > keys.length) {
            keys = Arrays.copyOf(keys, keys.length * 2);
        }
        keys[keyCount * 2] = start;
        keys[keyCount * 2 + 1] = end;
        keyCount++;
    }

    /** Whether the keys from {@code base} on (one object's) are all different. */
    private boolean distinctKeys(int base) {
        int n = keyCount - base;
        if (n <= PAIRWISE) {
            for (int a = base + 1; a < keyCount; a++) {
                for (int c = base; c < a; c++) {
                    if (sameKey(a, c)) {
                        return false;
                    }
                }
            }
            return true;
        }
        int size = Integer.highestOneBit(n * 2 - 1) << 1;
        if (table.length < size) {
            table = new int[size];
        }
        Arrays.fill(table, 0, size, -1);
        int mask = size - 1;
        for (int k = base; k < keyCount; k++) {
            int h = 1;
            for (int p = keys[k * 2], end = keys[k * 2 + 1]; p < end; p++) {
                h = 31 * h + b[p];
            }
            int t = (h ^ (h >>> 16)) & mask;
            while (table[t] >= 0) {
                if (sameKey(table[t], k)) {
                    return false;
                }
                t = (t + 1) & mask;
            }
            table[t] = k;
        }
        return true;
    }

    private boolean sameKey(int x, int y) {
        int xs = keys[x * 2];
        int ys = keys[y * 2];
        int length = keys[x * 2 + 1] - xs;
        return length == keys[y * 2 + 1] - ys && Arrays.equals(b, xs, xs + length, b, ys, ys + length);
    }
}

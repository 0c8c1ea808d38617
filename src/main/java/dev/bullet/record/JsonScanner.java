package dev.bullet.record;

import dev.bullet.common.Swar;

import java.util.Arrays;

/**
 * One fast pass over a raw message ("filter before you parse", SPEC §5): validates that it is one JSON object under
 * RFC 8259 and notes where each top-level key and value lies, without building any value. It is deliberately
 * conservative: anything it does not fully understand (escaped keys, control characters, deep nesting, trailing
 * content) is reported as unsure, and the caller falls back to the full gson decode, which then decides. So a
 * message it accepts is one gson's strict reader accepts too, and values read later equal gson's.
 * Stateless; allocates only the slot table of the record it returns.
 */
final class JsonScanner {
    /** Slot layout per top-level entry: key hash, key start (the key ends at the next quote: keys have no escapes), value start, value end. */
    static final int SLOT = 4;
    private static final int MAX_DEPTH = 200;
    /** Per-thread scratch reused across scans: the slot table (each record gets an exact-size copy) and flags. */
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);
    private static final long QUOTES = Swar.broadcast('"');
    private static final long BACKSLASHES = Swar.broadcast('\\');
    /** Control characters are the bytes below this. */
    private static final long CONTROL = Swar.broadcast(0x20);

    private JsonScanner() {
    }

    /** One thread's scratch state of a scan. */
    private static final class Scratch {
        int[] slots = new int[SLOT * 128];
        /** The OR of the strings' bytes read eight at a time: a high bit set means a byte above 0x7F was seen. */
        long high;
        /** Whether a backslash (an escape) was seen in a string. */
        boolean escaped;
    }

    /** A {@link LazyRecord} over the message, or {@code null} when the scanner is unsure of it. */
    static LazyRecord scan(byte[] b) {
        return scan(b, MAX_DEPTH);
    }

    /**
     * A {@link LazyRecord} over the message, or {@code null} when the scanner is unsure of it, including when it
     * nests deeper than {@code maxDepth} levels (the record object is level 1) or than the scanner's own limit.
     */
    static LazyRecord scan(byte[] b, int maxDepth) {
        int limit = Math.min(MAX_DEPTH, maxDepth - 1);
        int n = b.length;
        int i = skipWs(b, 0, n);
        if (i >= n || b[i] != '{') {
            return null;
        }
        Scratch scratch = SCRATCH.get();
        scratch.high = 0;
        scratch.escaped = false;
        int[] slots = scratch.slots;
        int count = 0;
        i = skipWs(b, i + 1, n);
        boolean keysAscii = true;
        if (i < n && b[i] == '}') {
            i++;
        } else {
            while (true) {
                if (i >= n || b[i] != '"') {
                    return null;
                }
                int keyStart = i + 1;
                int hash = 0;
                int j = keyStart;
                boolean ascii = true;
                while (j < n) {
                    int c = b[j] & 0xff;
                    if (c == '"') {
                        break;
                    }
                    if (c == '\\' || c < 0x20) {
                        return null;
                    }
                    ascii &= c < 0x80;
                    hash = Integer.rotateLeft(hash, 8) ^ c;
                    j++;
                }
                keysAscii &= ascii;
                hash = keyHash(hash, j - keyStart, ascii);
                if (j >= n || !ascii && !wellFormedUtf8(b, keyStart, j)) {
                    // gson reads ill-formed UTF-8 as U+FFFD: such a key is not its raw bytes, let gson decide
                    return null;
                }
                int keyEnd = j;
                i = skipWs(b, j + 1, n);
                if (i >= n || b[i] != ':') {
                    return null;
                }
                int valueStart = skipWs(b, i + 1, n);
                int valueEnd = skipValue(b, valueStart, n, 0, limit, scratch);
                if (valueEnd < 0) {
                    return null;
                }
                if ((count + 1) * SLOT > slots.length) {
                    slots = Arrays.copyOf(slots, slots.length * 2);
                    scratch.slots = slots;
                }
                int s = count * SLOT;
                slots[s] = hash;
                slots[s + 1] = keyStart;
                slots[s + 2] = valueStart;
                slots[s + 3] = valueEnd;
                count++;
                i = skipWs(b, valueEnd, n);
                if (i >= n) {
                    return null;
                }
                if (b[i] == ',') {
                    i = skipWs(b, i + 1, n);
                    continue;
                }
                if (b[i] == '}') {
                    i++;
                    break;
                }
                return null;
            }
        }
        if (skipWs(b, i, n) != n) {
            return null;
        }
        boolean plain = ascii(keysAscii, scratch);
        return new LazyRecord(b, Arrays.copyOf(slots, count * SLOT), count, KeyShape.of(slots, count), plain);
    }

    /** Whether every string of the scanned record, keys included, is ASCII without an escape. */
    private static boolean ascii(boolean keysAscii, Scratch scratch) {
        return keysAscii && !scratch.escaped && !Swar.hasHighByte(scratch.high);
    }

    /**
     * Whether the bytes are well-formed UTF-8 (RFC 3629: shortest form, no surrogates, at most U+10FFFF), i.e.
     * decoding them gives back the same bytes when encoded again.
     */
    static boolean wellFormedUtf8(byte[] b, int from, int to) {
        int i = from;
        while (i < to) {
            int c = b[i] & 0xff;
            if (c < 0x80) {
                i++;
                continue;
            }
            int extra;
            int min;
            if (c >= 0xC2 && c <= 0xDF) {
                extra = 1;
                min = 0x80;
            } else if (c >= 0xE0 && c <= 0xEF) {
                extra = 2;
                min = 0x800;
            } else if (c >= 0xF0 && c <= 0xF4) {
                extra = 3;
                min = 0x10000;
            } else {
                return false;
            }
            if (i + extra >= to) {
                return false;
            }
            int cp = c & (0x3F >> extra);
            for (int k = 1; k <= extra; k++) {
                int d = b[i + k] & 0xff;
                if ((d & 0xC0) != 0x80) {
                    return false;
                }
                cp = (cp << 6) | (d & 0x3F);
            }
            if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                return false;
            }
            i += extra + 1;
        }
        return true;
    }

    /** Keys of at most this many ASCII bytes have an {@linkplain #isExact exact} hash. */
    static final int EXACT_KEY_BYTES = 4;

    /**
     * The hash of a top-level key as the scan writes it in the key's slot (and {@link KeyShape} groups records by):
     * its bytes folded into an int, each shifted in with a rotation by 8 bits, so a key of at most
     * {@value #EXACT_KEY_BYTES} ASCII bytes (no control character: the scan takes no key with one) is its bytes
     * themselves; such a key's hash has the top bit set (no byte is 0, so the length is there too, and no two such
     * keys share a hash), any other key's the top bit clear.
     */
    static int hash(byte[] key) {
        int hash = 0;
        boolean ascii = true;
        for (byte x : key) {
            hash = Integer.rotateLeft(hash, 8) ^ (x & 0xff);
            ascii &= x >= 0x20; // a control character is in no scanned key (and 0 would hide the length)
        }
        return keyHash(hash, key.length, ascii);
    }

    /** Whether a key hash is the key itself: two keys with this hash are the same key. */
    static boolean isExact(int hash) {
        return hash < 0;
    }

    /** {@link #hash} from the key's folded bytes. */
    private static int keyHash(int folded, int length, boolean ascii) {
        return ascii && length <= EXACT_KEY_BYTES ? folded | Integer.MIN_VALUE : folded & Integer.MAX_VALUE;
    }

    /** {@link RawJson#skipSpace} that stops at {@code n}: the bytes here are not validated yet. */
    private static int skipWs(byte[] b, int i, int n) {
        while (i < n && RawJson.isSpace(b[i])) {
            i++;
        }
        return i;
    }

    /** The index after the value starting at {@code i}, or -1 when unsure. */
    private static int skipValue(byte[] b, int i, int n, int depth, int limit, Scratch scratch) {
        if (i >= n) {
            return -1;
        }
        switch (b[i]) {
            case '"':
                return skipString(b, i + 1, n, scratch);
            case '{':
                return depth >= limit ? -1 : skipObject(b, i + 1, n, depth + 1, limit, scratch);
            case '[':
                return depth >= limit ? -1 : skipArray(b, i + 1, n, depth + 1, limit, scratch);
            case 't':
                return literal(b, i, n, "true");
            case 'f':
                return literal(b, i, n, "false");
            case 'n':
                return literal(b, i, n, "null");
            default:
                return skipNumber(b, i, n);
        }
    }

    /**
     * After the opening quote: the index after the closing quote, or -1. Eight bytes at a time (SWAR); notes in the
     * scratch whether the string holds a byte above 0x7F or an escape.
     */
    private static int skipString(byte[] b, int i, int n, Scratch scratch) {
        long high = 0;
        while (true) {
            while (i + 8 <= n) {
                long w = Swar.word(b, i);
                high |= w;
                long special = Swar.lowestZeroByte(w ^ QUOTES) | Swar.lowestZeroByte(w ^ BACKSLASHES)
                    | Swar.lowestByteBelow(w, CONTROL);
                if (special != 0) {
                    i += Swar.firstLane(special);
                    break;
                }
                i += 8;
            }
            if (i >= n) {
                return -1;
            }
            int c = b[i] & 0xff;
            if (c == '"') {
                scratch.high |= high;
                return i + 1;
            }
            if (c < 0x20) {
                return -1;
            }
            high |= c;
            if (c == '\\') {
                scratch.escaped = true;
                if (i + 1 >= n) {
                    return -1;
                }
                switch (b[i + 1]) {
                    case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
                        i += 2;
                        continue;
                    case 'u':
                        if (i + 6 > n) {
                            return -1;
                        }
                        for (int k = i + 2; k < i + 6; k++) {
                            if (Character.digit(b[k], 16) < 0) {
                                return -1;
                            }
                        }
                        i += 6;
                        continue;
                    default:
                        return -1;
                }
            }
            i++;
        }
    }

    private static int skipObject(byte[] b, int i, int n, int depth, int limit, Scratch scratch) {
        i = skipWs(b, i, n);
        if (i < n && b[i] == '}') {
            return i + 1;
        }
        while (true) {
            if (i >= n || b[i] != '"') {
                return -1;
            }
            i = skipString(b, i + 1, n, scratch);
            if (i < 0) {
                return -1;
            }
            i = skipWs(b, i, n);
            if (i >= n || b[i] != ':') {
                return -1;
            }
            i = skipValue(b, skipWs(b, i + 1, n), n, depth, limit, scratch);
            if (i < 0) {
                return -1;
            }
            i = skipWs(b, i, n);
            if (i >= n) {
                return -1;
            }
            if (b[i] == '}') {
                return i + 1;
            }
            if (b[i] != ',') {
                return -1;
            }
            i = skipWs(b, i + 1, n);
        }
    }

    private static int skipArray(byte[] b, int i, int n, int depth, int limit, Scratch scratch) {
        i = skipWs(b, i, n);
        if (i < n && b[i] == ']') {
            return i + 1;
        }
        while (true) {
            i = skipValue(b, i, n, depth, limit, scratch);
            if (i < 0) {
                return -1;
            }
            i = skipWs(b, i, n);
            if (i >= n) {
                return -1;
            }
            if (b[i] == ']') {
                return i + 1;
            }
            if (b[i] != ',') {
                return -1;
            }
            i = skipWs(b, i + 1, n);
        }
    }

    /** The index after {@code word} (a JSON literal) at {@code i}, or -1 when the bytes there are not it. */
    static int literal(byte[] b, int i, int n, String word) {
        int len = word.length();
        if (i + len > n) {
            return -1;
        }
        for (int k = 0; k < len; k++) {
            if (b[i + k] != word.charAt(k)) {
                return -1;
            }
        }
        return i + len;
    }

    /** -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
    private static int skipNumber(byte[] b, int i, int n) {
        if (i < n && b[i] == '-') {
            i++;
        }
        if (i >= n) {
            return -1;
        }
        if (b[i] == '0') {
            i++;
        } else if (b[i] >= '1' && b[i] <= '9') {
            int digits = i;
            while (i < n && b[i] >= '0' && b[i] <= '9') {
                i++;
            }
            if (i - digits >= 18) {
                return -1; // near or past the long range gson's reader has edge cases of its own: let it decide
            }
        } else {
            return -1;
        }
        if (i < n && b[i] == '.') {
            i++;
            int digits = i;
            while (i < n && b[i] >= '0' && b[i] <= '9') {
                i++;
            }
            if (i == digits) {
                return -1;
            }
        }
        if (i < n && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < n && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            int digits = i;
            while (i < n && b[i] >= '0' && b[i] <= '9') {
                i++;
            }
            if (i == digits) {
                return -1;
            }
        }
        return i;
    }
}

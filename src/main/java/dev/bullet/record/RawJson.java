package dev.bullet.record;

import java.nio.charset.StandardCharsets;

/**
 * Reading values straight from bytes that {@link JsonScanner} has already validated: skipping a value is finding its
 * end, and a value without escapes (the caller checks {@link #hasEscape}) is decoded as gson's full decode would give
 * it, containers as the lazy views {@link RawMap} and {@link RawList}. Stateless.
 */
final class RawJson {
    private RawJson() {
    }

    /** Whether a backslash occurs in the range: such a container is decoded eagerly (through gson when unsure). */
    static boolean hasEscape(byte[] data, int start, int end) {
        for (int i = start; i < end; i++) {
            if (data[i] == '\\') {
                return true;
            }
        }
        return false;
    }

    static boolean hasNonAscii(byte[] data, int start, int end) {
        for (int i = start; i < end; i++) {
            if (data[i] < 0) {
                return true;
            }
        }
        return false;
    }

    /** Whether the byte is JSON whitespace (RFC 8259: space, tab, line feed, carriage return): the one definition. */
    static boolean isSpace(byte b) {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }

    /** The index of the first byte at or after {@code i} that is not whitespace, in validated JSON (one follows). */
    static int skipSpace(byte[] data, int i) {
        while (true) {
            byte b = data[i];
            if (b > ' ' || !isSpace(b)) { // most often the first test tells
                return i;
            }
            i++;
        }
    }

    /** The index after the validated, escape-free value starting at {@code i}. */
    static int skipValue(byte[] data, int i) {
        switch (data[i]) {
            case '"':
                return skipString(data, i);
            case '{':
            case '[': {
                int depth = 0;
                while (true) {
                    byte b = data[i];
                    if (b == '"') {
                        i = skipString(data, i);
                        continue;
                    }
                    if (b == '{' || b == '[') {
                        depth++;
                    } else if ((b == '}' || b == ']') && --depth == 0) {
                        return i + 1;
                    }
                    i++;
                }
            }
            case 't':
            case 'n':
                return i + 4;
            case 'f':
                return i + 5;
            default: {
                i++;
                while (i < data.length) {
                    byte b = data[i];
                    if (b >= '0' && b <= '9' || b == '.' || b == 'e' || b == 'E' || b == '-' || b == '+') {
                        i++;
                    } else {
                        break;
                    }
                }
                return i;
            }
        }
    }

    /** At an opening quote of a validated string: the index after the closing one. */
    static int skipString(byte[] data, int i) {
        i++;
        while (true) {
            byte b = data[i];
            if (b == '"') {
                return i + 1;
            }
            i += b == '\\' ? 2 : 1;
        }
    }

    /** The value in {@code [start, end)}, as the full decode gives it; containers as views over the bytes. */
    static Object decode(byte[] data, int start, int end) {
        switch (data[start]) {
            case '"':
                return string(data, start, end);
            case '{':
                return new RawMap(data, start);
            case '[':
                return new RawList(data, start);
            case 't':
                return Boolean.TRUE;
            case 'f':
                return Boolean.FALSE;
            case 'n':
                return null;
            default:
                return number(data, start, end);
        }
    }

    /** The {@link TypeMemo#memberKind} of the value in {@code [start, end)} of a container without escapes. */
    static int kind(byte[] data, int start, int end) {
        switch (data[start]) {
            case '"':
                return TypeMemo.STRING_MEMBER;
            case '{':
            case '[':
                return TypeMemo.CONTAINER_MEMBER;
            case 't':
            case 'f':
                return TypeMemo.BOOLEAN_MEMBER;
            case 'n':
                return TypeMemo.NULL_MEMBER;
            default:
                return integral(data, start, end) != NOT_INTEGRAL || number(data, start, end) instanceof Long
                       ? TypeMemo.LONG_MEMBER : TypeMemo.DOUBLE_MEMBER;
        }
    }

    /** {@link #integral}: the number is not an integer of at most 18 digits. */
    static final long NOT_INTEGRAL = Long.MIN_VALUE;

    /** The validated number in {@code [start, end)} when it is an integer of at most 18 digits, else NOT_INTEGRAL. */
    static long integral(byte[] data, int start, int end) {
        int i = start;
        boolean negative = data[i] == '-';
        if (negative) {
            i++;
        }
        if (end - i > 18) {
            return NOT_INTEGRAL;
        }
        long value = 0;
        for (int k = i; k < end; k++) {
            int digit = data[k] - '0';
            if (digit < 0 || digit > 9) {
                return NOT_INTEGRAL;
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }

    /** The validated number in {@code [start, end)} by the decoder's number rule; integers read without a copy. */
    static Object number(byte[] data, int start, int end) {
        long value = integral(data, start, end);
        if (value != NOT_INTEGRAL) {
            return value;
        }
        return RecordDecoder.toNumber(new String(data, start, end - start, StandardCharsets.ISO_8859_1));
    }

    /**
     * The string value in {@code [start, end)} (with its quotes), or null when it holds an escape (gson decides).
     * ASCII text is copied byte for byte, the cheapest way a {@code String} is made.
     */
    static String string(byte[] data, int start, int end) {
        boolean ascii = true;
        for (int k = start + 1; k < end - 1; k++) {
            byte b = data[k];
            if (b == '\\') {
                return null;
            }
            ascii &= b >= 0;
        }
        return new String(data, start + 1, end - start - 2, ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
    }

    /** Whether the string in {@code [start, end)} (without its quotes) is {@code key}. */
    static boolean sameText(byte[] data, int start, int end, String key) {
        int n = end - start;
        int k = key.length();
        if (n < k) {
            return false; // every char takes at least one byte
        }
        for (int i = 0; i < n; i++) {
            byte b = data[start + i];
            if (b < 0) {
                return new String(data, start, n, StandardCharsets.UTF_8).equals(key);
            }
            if (i >= k || key.charAt(i) != b) {
                return false;
            }
        }
        return n == k;
    }

    /** The same hash for the same key text, whatever its bytes: of the key's chars. */
    static int hash(byte[] data, int start, int end) {
        int h = 0;
        for (int i = start; i < end; i++) {
            byte b = data[i];
            if (b < 0) {
                return new String(data, start, end - start, StandardCharsets.UTF_8).hashCode();
            }
            h = 31 * h + b;
        }
        return h;
    }
}

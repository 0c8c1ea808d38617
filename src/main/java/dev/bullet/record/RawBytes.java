package dev.bullet.record;

/**
 * Reading a value at a {@link LazyRecord#span} straight from the record's bytes, for the index: the same readings
 * as the decoded value gives, without making it. Stateless.
 */
public final class RawBytes {
    private RawBytes() {
    }

    /** The number at {@code [start, end)} (validated JSON), as {@code ((Number) value).doubleValue()} of its decode. */
    public static double toDouble(byte[] data, int start, int end) {
        int i = start;
        boolean negative = data[i] == '-';
        if (negative) {
            i++;
        }
        if (end - i <= 18) {
            long value = 0;
            int k = i;
            while (k < end) {
                int digit = data[k] - '0';
                if (digit < 0 || digit > 9) {
                    break;
                }
                value = value * 10 + digit;
                k++;
            }
            if (k == end) {
                return negative ? -value : value;
            }
        }
        return ((Number) RawJson.number(data, start, end)).doubleValue();
    }

    /** Whether the bytes are well-formed UTF-8, so that the text they decode to is exactly them. */
    public static boolean wellFormedUtf8(byte[] data, int from, int to) {
        return JsonScanner.wellFormedUtf8(data, from, to);
    }
}

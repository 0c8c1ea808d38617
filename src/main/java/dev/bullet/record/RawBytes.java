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
        long value = RawJson.integral(data, start, end);
        return value != RawJson.NOT_INTEGRAL ? value : ((Number) RawJson.number(data, start, end)).doubleValue();
    }

    /**
     * Whether the value at {@code [start, end)} (validated JSON) is an integer of at most 18 digits: its bytes are
     * what writing its decoded {@code Long} gives.
     */
    public static boolean plainInteger(byte[] data, int start, int end) {
        return RawJson.integral(data, start, end) != RawJson.NOT_INTEGRAL;
    }

    /** Whether the bytes are well-formed UTF-8, so that the text they decode to is exactly them. */
    public static boolean wellFormedUtf8(byte[] data, int from, int to) {
        return JsonScanner.wellFormedUtf8(data, from, to);
    }

    /** Receives the members of an object: its key inside the quotes, its value. */
    public interface Members {
        /** Returns whether the walk goes on. */
        boolean member(int keyStart, int keyEnd, int valueStart, int valueEnd);
    }

    /** Receives the elements of an array. */
    public interface Elements {
        /** Returns whether the walk goes on. */
        boolean element(int start, int end);
    }

    /**
     * Walks the members of the validated object at {@code start}, in order (duplicate keys included), until one's
     * visit says stop.
     */
    public static void members(byte[] data, int start, Members visit) {
        int i = RawJson.skipSpace(data, start + 1);
        if (data[i] == '}') {
            return;
        }
        while (true) {
            int keyEnd = RawJson.skipString(data, i) - 1;
            int valueStart = RawJson.skipSpace(data, RawJson.skipSpace(data, keyEnd + 1) + 1);
            int valueEnd = RawJson.skipValue(data, valueStart);
            if (!visit.member(i + 1, keyEnd, valueStart, valueEnd)) {
                return;
            }
            i = RawJson.skipSpace(data, valueEnd);
            if (data[i] == '}') {
                return;
            }
            i = RawJson.skipSpace(data, i + 1);
        }
    }

    /**
     * Walks the elements of the validated array at {@code start}; returns their number, or the number visited when
     * one's visit said stop.
     */
    public static int elements(byte[] data, int start, Elements visit) {
        int i = RawJson.skipSpace(data, start + 1);
        if (data[i] == ']') {
            return 0;
        }
        for (int n = 1; ; n++) {
            int end = RawJson.skipValue(data, i);
            if (!visit.element(i, end)) {
                return n;
            }
            i = RawJson.skipSpace(data, end);
            if (data[i] == ']') {
                return n;
            }
            i = RawJson.skipSpace(data, i + 1);
        }
    }

    /** Whether {@code [from, to)} is ASCII without a backslash: a string's text is exactly these bytes. */
    public static boolean plainAscii(byte[] data, int from, int to) {
        for (int i = from; i < to; i++) {
            byte b = data[i];
            if (b < 0 || b == '\\') {
                return false;
            }
        }
        return true;
    }
}

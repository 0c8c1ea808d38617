package dev.bullet.record;

/**
 * Where a value lies in a record's bytes, packed in one {@code long} so that finding it allocates nothing: the start
 * (inclusive) in the high 32 bits, the end (exclusive) in the low 32 bits. A found span is never negative (a start
 * is below 2^31); the negative values are the sentinels {@link #MISSING} and {@link #UNSURE}. Stateless.
 */
public final class Span {
    /** {@link LazyRecord#span}: the path reads null (absent, or JSON null). */
    public static final long MISSING = -1L;
    /** {@link LazyRecord#span}: the bytes cannot tell; ask {@link Record#get}. */
    public static final long UNSURE = -2L;

    private Span() {
    }

    /** The span of {@code [start, end)}; both non-negative. */
    public static long of(int start, int end) {
        return (long) start << 32 | end;
    }

    /** Where the value starts: the index of its first byte. */
    public static int start(long span) {
        return (int) (span >>> 32);
    }

    /** Where the value ends: the index after its last byte. */
    public static int end(long span) {
        return (int) span;
    }

    /** The number of bytes of the value. */
    public static int length(long span) {
        return (int) span - (int) (span >>> 32);
    }

    /** Whether this is a span of a value, not a sentinel ({@link #MISSING}, {@link #UNSURE}). */
    public static boolean isFound(long span) {
        return span >= 0;
    }
}

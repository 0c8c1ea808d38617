package dev.bullet.common;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * "SIMD within a register": eight bytes read as one little-endian {@code long} and tested at once, one lane per
 * byte (lane 0 is the byte at the lowest index). A lane is "set" when its high bit (0x80) is; the other bits of a
 * result are zero. The word tricks of the byte-level readers (the JSON scanner, the quoted-text search, the key
 * compares) live here, each with its contract. Stateless.
 */
public final class Swar {
    /** 0x01 in every lane. */
    public static final long ONES = 0x0101010101010101L;
    /** 0x80 in every lane: the lane bits of a result. */
    public static final long HIGH_BITS = 0x8080808080808080L;
    /** 0x7F in every lane. */
    public static final long LOW_SEVEN_BITS = 0x7F7F7F7F7F7F7F7FL;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Swar() {
    }

    /** The eight bytes at {@code b[i, i + 8)} as a little-endian word: {@code b[i]} in the lowest byte. */
    public static long word(byte[] b, int i) {
        return (long) LONGS.get(b, i);
    }

    /** Byte {@code b} in every lane: {@code x ^ broadcast(b)} has a zero lane exactly where {@code x} holds b. */
    public static long broadcast(int b) {
        return ONES * (b & 0xFF);
    }

    /** The high bit of exactly the lanes of {@code x} that are zero (no spurious bit above a zero lane). */
    public static long zeroBytes(long x) {
        return ~(((x & LOW_SEVEN_BITS) + LOW_SEVEN_BITS) | x | LOW_SEVEN_BITS);
    }

    /**
     * The high bit of the lowest zero lane of {@code x}, exact; lanes above it may be set spuriously (a borrow).
     * Nonzero exactly when {@code x} has a zero lane. Cheaper than {@link #zeroBytes}: for "is there one, where is
     * the first".
     */
    public static long lowestZeroByte(long x) {
        return (x - ONES) & ~x & HIGH_BITS;
    }

    /**
     * The high bit of the lowest lane of {@code x} below {@code n} (unsigned, {@code limits} = {@code broadcast(n)},
     * n at most 0x80), exact; lanes above it may be set spuriously. Nonzero exactly when some lane is below n.
     */
    public static long lowestByteBelow(long x, long limits) {
        return (x - limits) & ~x & HIGH_BITS;
    }

    /** Whether some lane of {@code x} holds a byte above 0x7F. */
    public static boolean hasHighByte(long x) {
        return (x & HIGH_BITS) != 0;
    }

    /** The index (0 to 7) of the lowest set lane of {@code lanes} (not 0): {@code b[i + firstLane(..)]} is its byte. */
    public static int firstLane(long lanes) {
        return Long.numberOfTrailingZeros(lanes) >>> 3;
    }

    /** The mask of the {@code n} lowest lanes, for n from 1 to 8: a word cut to the first n bytes it read. */
    public static long lowBytes(int n) {
        return -1L >>> (64 - 8 * n);
    }
}

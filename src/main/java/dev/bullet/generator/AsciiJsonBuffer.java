package dev.bullet.generator;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer the {@link RecordGenerator} writes one JSON record into, reused from record to
 * record so generation allocates only the final {@code byte[]}.
 *
 * <p>Contract: callers append only ASCII that needs no JSON escaping (field names, generated words,
 * hex and decimal digits), so bytes are written directly, without a charset encoder. Not thread-safe.
 */
final class AsciiJsonBuffer {
    private byte[] bytes;
    private int length;

    AsciiJsonBuffer(int initialCapacity) {
        bytes = new byte[Math.max(16, initialCapacity)];
    }

    void reset() {
        length = 0;
    }

    int length() {
        return length;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, length);
    }

    AsciiJsonBuffer append(byte b) {
        ensure(1);
        bytes[length++] = b;
        return this;
    }

    AsciiJsonBuffer append(byte[] ascii) {
        ensure(ascii.length);
        System.arraycopy(ascii, 0, bytes, length, ascii.length);
        length += ascii.length;
        return this;
    }

    /** Appends {@code value} in decimal. */
    AsciiJsonBuffer appendDecimal(long value) {
        if (value == Long.MIN_VALUE) {
            return append(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
        }
        ensure(20);
        if (value < 0) {
            bytes[length++] = '-';
            value = -value;
        }
        int digits = 1;
        for (long v = value / 10; v != 0; v /= 10) {
            digits++;
        }
        for (int i = length + digits - 1; i >= length; i--) {
            bytes[i] = (byte) ('0' + (value % 10));
            value /= 10;
        }
        length += digits;
        return this;
    }

    /** Appends the low {@code 4 * digits} bits of {@code value} as lowercase hex, zero-padded. */
    AsciiJsonBuffer appendHex(long value, int digits) {
        ensure(digits);
        for (int i = digits - 1; i >= 0; i--) {
            bytes[length + i] = HEX[(int) (value & 0xF)];
            value >>>= 4;
        }
        length += digits;
        return this;
    }

    private void ensure(int extra) {
        if (length + extra > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + extra));
        }
    }

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
}

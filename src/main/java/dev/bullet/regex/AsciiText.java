package dev.bullet.regex;

import java.nio.charset.StandardCharsets;

/**
 * ASCII bytes of a record read as text in place: the regex prefilter scans a record's string value through this
 * reused view instead of making it a {@code String}. The caller checks the bytes are ASCII without escapes
 * ({@code RawBytes.plainAscii}: then the text is exactly its bytes). Mutable, not thread-safe.
 */
public final class AsciiText implements CharSequence {
    private byte[] data;
    private int from;
    private int length;

    public AsciiText set(byte[] data, int from, int to) {
        this.data = data;
        this.from = from;
        this.length = to - from;
        return this;
    }

    public byte[] data() {
        return data;
    }

    public int from() {
        return from;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        return (char) data[from + index];
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return toString().subSequence(start, end);
    }

    @Override
    public String toString() {
        return new String(data, from, length, StandardCharsets.ISO_8859_1);
    }
}

package dev.bullet.index;

import dev.bullet.common.Swar;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A text as its UTF-8 bytes, the key of the index's text maps: a record's string value is looked up straight from
 * the record's bytes through a reused probe ({@link #set}), so a value no query waits for is never made a
 * {@code String}. Two texts are equal exactly when their UTF-8 bytes are, for well-formed text (the caller decodes
 * anything else first). Comparable, so a {@code HashMap} bin of literals crafted to share a hash becomes a tree, as
 * it does for {@code String} keys. Keys stored in a map are immutable; the probe is not.
 */
final class TextKey implements Comparable<TextKey> {
    private static final long MIX = 0x9E3779B97F4A7C15L;
    private byte[] bytes;
    private int from;
    private int to;
    private int hash;

    private TextKey() {
    }

    /** A key to store. */
    static TextKey of(String text) {
        TextKey key = new TextKey();
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return key.set(b, 0, b.length);
    }

    /** A probe to reuse for lookups. */
    static TextKey probe() {
        return new TextKey();
    }

    /** Points this probe at {@code bytes[from, to)}. */
    TextKey set(byte[] bytes, int from, int to) {
        return set(bytes, from, to, hash(bytes, from, to));
    }

    /** Points this probe at {@code bytes[from, to)} whose {@link #hashCode} the caller worked out as it reads them. */
    TextKey set(byte[] bytes, int from, int to, int hash) {
        this.bytes = bytes;
        this.from = from;
        this.to = to;
        this.hash = hash;
        return this;
    }

    /**
     * The hash of a key's bytes {@code b[from, to)}, read eight at a time: a record's value is hashed as it is looked
     * up, for every indexed path of every record, and most values are a few bytes: up to eight, one read and one
     * multiply (the bytes as a number are distinct for distinct texts of one length, and the multiply is a bijection).
     */
    static int hash(byte[] b, int from, int to) {
        int length = to - from;
        if (length <= 8) { // most values: one read, one multiply
            long w = 0;
            if (length > 0 && from + 8 <= b.length) {
                w = Swar.word(b, from) & Swar.lowBytes(length);
            } else {
                for (int k = length - 1; k >= 0; k--) {
                    w = w << 8 | (b[from + k] & 0xFF);
                }
            }
            long h = (w ^ length) * MIX;
            return (int) (h ^ h >>> 29 ^ h >>> 43);
        }
        long h = length * MIX;
        int i = from;
        for (; i + 8 <= to; i += 8) {
            h = Long.rotateLeft((h ^ Swar.word(b, i)) * MIX, 29);
        }
        int rest = to - i;
        if (rest > 0) {
            long w;
            if (i + 8 <= b.length) {
                w = Swar.word(b, i) & Swar.lowBytes(rest);
            } else {
                w = 0;
                for (int k = rest - 1; k >= 0; k--) {
                    w = w << 8 | (b[i + k] & 0xFF);
                }
            }
            h = Long.rotateLeft((h ^ w) * MIX, 29);
        }
        h *= MIX;
        return (int) (h ^ h >>> 32);
    }

    /** Points this probe at a text. */
    TextKey set(String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return set(b, 0, b.length);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TextKey)) {
            return false;
        }
        TextKey k = (TextKey) o;
        return hash == k.hash && Arrays.equals(bytes, from, to, k.bytes, k.from, k.to);
    }

    @Override
    public int compareTo(TextKey k) {
        return Arrays.compare(bytes, from, to, k.bytes, k.from, k.to);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return new String(bytes, from, to - from, StandardCharsets.UTF_8);
    }
}

package dev.bullet.index;

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
        int h = 1;
        for (int i = from; i < to; i++) {
            h = next(h, bytes[i]);
        }
        return set(bytes, from, to, h);
    }

    /** Points this probe at {@code bytes[from, to)} whose {@link #hashCode} the caller worked out as it reads them. */
    TextKey set(byte[] bytes, int from, int to, int hash) {
        this.bytes = bytes;
        this.from = from;
        this.to = to;
        this.hash = hash;
        return this;
    }

    /** The hash of a key's bytes, one step: {@code h = next(h, b)} from {@code h = 1} over the bytes in order. */
    static int next(int hash, byte b) {
        return 31 * hash + b;
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

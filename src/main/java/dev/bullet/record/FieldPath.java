package dev.bullet.record;

import dev.bullet.common.Swar;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A pre-split dotted path into a record (SPEC §5): {@code a}, {@code a.b} (map key), {@code a.0} (list element),
 * {@code a.0.b}, {@code a.b.c}. Split once when a query is parsed, never per record.
 *
 * <p>A numeric segment indexes a list; on a map it is an ordinary key. A path that does not resolve yields
 * {@code null}. A key that itself contains dots is reachable when the record has it literally at the top level and
 * the path does not resolve through nested maps and lists (the dotted reading wins).
 */
public final class FieldPath {
    private final String text;
    private final String[] segments;
    private final int[] indices;
    private final byte[][] segmentsUtf8;
    private final byte[] headUtf8;
    private final int headHash;
    private final long headWord;
    private final byte[] textUtf8;
    private final int textHash;

    private FieldPath(String text) {
        this.text = text;
        this.segments = text.split("\\.", -1);
        this.indices = new int[segments.length];
        for (int i = 0; i < segments.length; i++) {
            indices[i] = parseIndex(segments[i]);
        }
        this.segmentsUtf8 = new byte[segments.length][];
        for (int i = 0; i < segments.length; i++) {
            segmentsUtf8[i] = segments[i].getBytes(StandardCharsets.UTF_8);
        }
        this.headUtf8 = segmentsUtf8[0];
        this.headHash = JsonScanner.hash(headUtf8);
        this.headWord = keyWord(headUtf8);
        this.textUtf8 = text.getBytes(StandardCharsets.UTF_8);
        this.textHash = JsonScanner.hash(textUtf8);
    }

    byte[] headUtf8() {
        return headUtf8;
    }

    int headHash() {
        return headHash;
    }

    /** {@link #keyWord} of the head. */
    long headWord() {
        return headWord;
    }

    /**
     * A key shorter than 8 bytes as it lies in a message: its bytes and the closing quote, read as one little-endian
     * word (so one masked read compares a key, {@link #keyMask}); 0 for a longer key.
     */
    static long keyWord(byte[] key) {
        if (key.length >= 8) {
            return 0;
        }
        long word = (long) '"' << (8 * key.length);
        for (int k = 0; k < key.length; k++) {
            word |= (long) (key[k] & 0xff) << (8 * k);
        }
        return word;
    }

    /** The mask of a {@link #keyWord}'s bytes, for a key of this length (under 8). */
    static long keyMask(int length) {
        return Swar.lowBytes(length + 1);
    }

    /** The UTF-8 bytes of segment {@code i}. */
    byte[] segmentUtf8(int i) {
        return segmentsUtf8[i];
    }

    /** Segment {@code i} as a list index, or -1 when it is not one. */
    int index(int i) {
        return indices[i];
    }

    byte[] textUtf8() {
        return textUtf8;
    }

    int textHash() {
        return textHash;
    }

    public static FieldPath of(String text) {
        return new FieldPath(Objects.requireNonNull(text, "path"));
    }

    public String text() {
        return text;
    }

    /** The first segment: the top-level field this path reads. */
    public String head() {
        return segments[0];
    }

    public int depth() {
        return segments.length;
    }

    /** Resolves this path against a decoded top-level map. */
    public Object resolve(Map<String, Object> root) {
        if (segments.length == 1) {
            return root.get(text);
        }
        Object nested = resolveFrom(root.get(segments[0]), 1);
        return nested != null ? nested : root.get(text);
    }

    /** Resolves the segments after the head against the head's value. */
    public Object resolveFrom(Object value, int fromSegment) {
        Object current = value;
        for (int i = fromSegment; i < segments.length && current != null; i++) {
            current = step(current, i);
        }
        return current;
    }

    @SuppressWarnings("unchecked")
    private Object step(Object current, int i) {
        if (current instanceof Map) {
            return ((Map<String, Object>) current).get(segments[i]);
        }
        if (current instanceof List) {
            List<Object> list = (List<Object>) current;
            int index = indices[i];
            return index >= 0 && index < list.size() ? list.get(index) : null;
        }
        return null;
    }

    private static int parseIndex(String segment) {
        if (segment.isEmpty() || segment.length() > 9) {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldPath && ((FieldPath) o).text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}

package dev.bullet.querying.aggregations;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One {@code String} per sketch key cut from records' bytes, kept from batch to batch on one thread: a key seen again
 * is handed out as the instance made the first time. A TOP K map then finds its entry by identity ({@code equals}
 * stops at {@code ==} instead of reading both texts) and the key's hash code is computed once, not once per batch;
 * no new key is allocated for a value already seen. A direct-mapped table of {@link #SLOTS} slots by the bytes' hash:
 * two keys sharing a slot take turns, so the table holds at most {@link #SLOTS} keys of at most {@link #MAX_LENGTH}
 * bytes. The text is the bytes whatever the instance, so sketches and partials are the same with or without it.
 * Not thread-safe: one per thread ({@link SketchKeys}).
 */
final class CanonicalKeys {
    static final int SLOTS = 4096;
    /** Longer keys are made afresh each time (a table of long keys would hold on to much for little). */
    static final int MAX_LENGTH = 64;

    private final byte[][] bytes = new byte[SLOTS][];
    private final String[] keys = new String[SLOTS];

    /** The key of {@code key[0, length)} (ISO-8859-1, as {@link SketchKeys} cuts plain ASCII from a record). */
    String of(byte[] key, int length) {
        if (length > MAX_LENGTH) {
            return new String(key, 0, length, StandardCharsets.ISO_8859_1);
        }
        int h = 0;
        for (int i = 0; i < length; i++) {
            h = 31 * h + (key[i] & 0xff);
        }
        int slot = (h ^ h >>> 12 ^ h >>> 24) & (SLOTS - 1);
        byte[] known = bytes[slot];
        if (known != null && Arrays.equals(known, 0, known.length, key, 0, length)) {
            return keys[slot];
        }
        byte[] copy = Arrays.copyOf(key, length);
        String made = new String(copy, StandardCharsets.ISO_8859_1);
        bytes[slot] = copy;
        keys[slot] = made;
        return made;
    }
}

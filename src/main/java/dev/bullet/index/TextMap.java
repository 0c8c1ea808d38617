package dev.bullet.index;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The queries of an index waiting for each text, with a summary of the texts in front: one of 256 bits per key's
 * hash is set, counted per bit so that keys can leave. Most values a record holds are none of the literals their path
 * waits for; a clear bit says so from this object's own fields, without a trip to the map's table. A set bit proves
 * nothing: the map is asked. Not thread-safe.
 *
 * @param <Q> the per-query object the index hands out
 */
final class TextMap<Q> {
    private final Map<TextKey, List<Q>> map = new HashMap<>();
    /** The summary: bit {@link #bit} of every key's hash is set. */
    private final long[] bits = new long[SUMMARY_BITS / 64];
    private final int[] users = new int[SUMMARY_BITS];
    static final int SUMMARY_BITS = 256;

    /** The summary bit of a hash: its top bits after a multiplicative mix. */
    private static int bit(int hash) {
        return (hash * 0x9E3779B9) >>> 24;
    }

    /** Puts the query under the text; false when it was there already. */
    boolean add(TextKey key, Q query) {
        List<Q> list = map.get(key);
        if (list == null) {
            list = new ArrayList<>(1);
            map.put(key, list);
            int bit = bit(key.hashCode());
            users[bit]++;
            bits[bit >>> 6] |= 1L << bit;
        } else if (list.contains(query)) {
            return false;
        }
        list.add(query);
        return true;
    }

    /** Takes the query from under the text; the text leaves with its last query. */
    void remove(TextKey key, Q query) {
        List<Q> list = map.get(key);
        if (list == null || !list.remove(query) || !list.isEmpty()) {
            return;
        }
        map.remove(key);
        int bit = bit(key.hashCode());
        if (--users[bit] == 0) {
            bits[bit >>> 6] &= ~(1L << bit);
        }
    }

    /** The queries waiting for the text (a probe may be passed), or null. */
    List<Q> get(TextKey key) {
        return map.isEmpty() ? null : map.get(key);
    }

    /**
     * The queries waiting for the text whose bytes are {@code data[from, to)} (plain: no escape, well-formed UTF-8)
     * and whose {@link TextKey} hash the caller worked out as it read them, or null; {@code probe} is pointed there
     * only when the summary lets the text through.
     */
    List<Q> get(byte[] data, int from, int to, int hash, TextKey probe) {
        int bit = bit(hash);
        return (bits[bit >>> 6] & 1L << bit) == 0 ? null : map.get(probe.set(data, from, to, hash));
    }

    boolean isEmpty() {
        return map.isEmpty();
    }

    /** The texts queries wait for (a view). */
    Set<TextKey> keys() {
        return map.keySet();
    }
}

package dev.bullet.index;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The queries of an index waiting for each text, with a one-word summary of the texts in front: bit
 * {@code hash & 63} of every key is set, counted per bit so that keys can leave. Most values a record holds are none
 * of the literals their path waits for; a clear bit says so from this object's own fields, without a trip to the
 * map's table. A set bit proves nothing: the map is asked. Not thread-safe.
 *
 * @param <Q> the per-query object the index hands out
 */
final class TextMap<Q> {
    private final Map<TextKey, List<Q>> map = new HashMap<>();
    private long bits;
    private final int[] users = new int[64];

    /** Puts the query under the text; false when it was there already. */
    boolean add(TextKey key, Q query) {
        List<Q> list = map.get(key);
        if (list == null) {
            list = new ArrayList<>(1);
            map.put(key, list);
            int bit = key.hashCode() & 63;
            users[bit]++;
            bits |= 1L << bit;
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
        int bit = key.hashCode() & 63;
        if (--users[bit] == 0) {
            bits &= ~(1L << bit);
        }
    }

    /** The queries waiting for the text (a probe may be passed), or null. */
    List<Q> get(TextKey key) {
        return bits == 0 ? null : map.get(key);
    }

    /**
     * The queries waiting for the text whose bytes are {@code data[from, to)} (plain: no escape, well-formed UTF-8)
     * and whose {@link TextKey} hash the caller worked out as it read them, or null; {@code probe} is pointed there
     * only when the summary lets the text through.
     */
    List<Q> get(byte[] data, int from, int to, int hash, TextKey probe) {
        return (bits & 1L << (hash & 63)) == 0 ? null : map.get(probe.set(data, from, to, hash));
    }

    boolean isEmpty() {
        return bits == 0;
    }
}

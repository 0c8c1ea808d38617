package dev.bullet.index;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The queries of an index waiting for each text, with a summary of the texts in front: one bit per key's hash is set,
 * counted per bit so that keys can leave, in a summary of at least {@value #MIN_SUMMARY_BITS} bits grown with the
 * keys to sixteen bits a key (at most {@value #MAX_SUMMARY_BITS}). Most values a record holds are none of the literals
 * their path waits for; a clear bit says so without a trip to the map's table (about one value in sixteen gets
 * through for nothing). A set bit proves nothing: the map is asked. Not thread-safe.
 *
 * @param <Q> the per-query object the index hands out
 */
final class TextMap<Q> {
    static final int MIN_SUMMARY_BITS = 256;
    static final int MAX_SUMMARY_BITS = 1 << 14;
    private static final int BITS_PER_KEY = 16;
    private final Map<TextKey, List<Q>> map = new HashMap<>();
    /** The summary: bit {@link #bit} of every key's hash is set. */
    private long[] bits = new long[MIN_SUMMARY_BITS / 64];
    private int[] users = new int[MIN_SUMMARY_BITS];
    /** 32 less the log of the summary's bits: a hash's bit is the top bits of its multiplicative mix. */
    private int shift = 32 - Integer.numberOfTrailingZeros(MIN_SUMMARY_BITS);

    /** The summary bit of a hash: its top bits after a multiplicative mix. */
    private int bit(int hash) {
        return (hash * 0x9E3779B9) >>> shift;
    }

    /** Puts the query under the text; false when it was there already. */
    boolean add(TextKey key, Q query) {
        List<Q> list = map.get(key);
        if (list == null) {
            list = new ArrayList<>(1);
            map.put(key, list);
            if ((long) map.size() * BITS_PER_KEY > users.length && users.length < MAX_SUMMARY_BITS) {
                resummarise(users.length * 2);
            } else {
                int bit = bit(key.hashCode());
                users[bit]++;
                bits[bit >>> 6] |= 1L << bit;
            }
        } else if (list.contains(query)) {
            return false;
        }
        list.add(query);
        return true;
    }

    /** Sets the summary up again at {@code size} bits from the keys the map holds. */
    private void resummarise(int size) {
        bits = new long[size / 64];
        users = new int[size];
        shift = 32 - Integer.numberOfTrailingZeros(size);
        for (TextKey k : map.keySet()) {
            int bit = bit(k.hashCode());
            users[bit]++;
            bits[bit >>> 6] |= 1L << bit;
        }
    }

    /** The bits of the summary now (it grows with the keys). */
    int summaryBits() {
        return users.length;
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
        return summaryLets(hash) ? map.get(probe.set(data, from, to, hash)) : null;
    }

    /** Whether the summary lets a text of this hash through to the map. */
    boolean summaryLets(int hash) {
        int bit = bit(hash);
        return (bits[bit >>> 6] & 1L << bit) != 0;
    }

    boolean isEmpty() {
        return map.isEmpty();
    }

    /** The texts queries wait for (a view). */
    Set<TextKey> keys() {
        return map.keySet();
    }
}

package dev.bullet.index;

/**
 * A one-word summary of the texts a map of an index holds: bit {@code hash & 63} of each {@link TextKey} is set,
 * counted per bit so that keys can leave. Most values a record holds are none of the literals its path waits for; a
 * clear bit says so from a field next to the map, without a trip to the map's table. A set bit proves nothing: look
 * the key up. Not thread-safe.
 */
final class TextBits {
    private long bits;
    private final int[] users = new int[64];

    /** A key entered the map. */
    void add(TextKey key) {
        int bit = key.hashCode() & 63;
        users[bit]++;
        bits |= 1L << bit;
    }

    /** A key left the map. */
    void remove(TextKey key) {
        int bit = key.hashCode() & 63;
        if (--users[bit] == 0) {
            bits &= ~(1L << bit);
        }
    }

    /** Whether a key with this hash may be in the map. */
    boolean mayHold(int hash) {
        return (bits & 1L << (hash & 63)) != 0;
    }

    /** Whether the map is empty. */
    boolean isEmpty() {
        return bits == 0;
    }
}

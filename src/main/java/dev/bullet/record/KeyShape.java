package dev.bullet.record;

import java.util.Arrays;

/**
 * The layout of a record's top-level keys, shared by every record with the same sequence of key hashes: records of
 * one producer nearly always have their keys in the same order, so the table that finds a key's slot in O(1) is
 * built once and reused, and a lookup costs one probe instead of a walk over all the record's keys.
 *
 * <p>The table maps a key hash to the one slot with that hash. When two slots of the layout share a hash (a
 * duplicate key, or two keys that collide) the hash is marked {@link #AMBIGUOUS} and the reader walks the keys
 * itself, so the last of duplicate keys still wins. A hash the table does not hold belongs to no key of the record:
 * equal keys have equal hashes. The caller still compares the key bytes of the slot it gets. Immutable.
 */
final class KeyShape {
    /** No top-level key has this hash. */
    static final int ABSENT = -1;
    /** Several top-level keys have this hash: walk them. */
    static final int AMBIGUOUS = -2;
    /** Recent shapes per scanning thread, most recent first. */
    private static final int RECENT = 4;
    private static final ThreadLocal<KeyShape[]> RECENT_SHAPES = ThreadLocal.withInitial(() -> new KeyShape[RECENT]);

    private final int[] hashes;
    private final int[] tableHash;
    private final int[] tableSlot;
    private final int mask;

    private KeyShape(int[] slots, int count) {
        hashes = new int[count];
        int capacity = Integer.highestOneBit(Math.max(8, count * 2 - 1)) << 1;
        tableHash = new int[capacity];
        tableSlot = new int[capacity];
        Arrays.fill(tableSlot, ABSENT);
        mask = capacity - 1;
        for (int i = 0; i < count; i++) {
            int hash = slots[i * JsonScanner.SLOT];
            hashes[i] = hash;
            int t = mix(hash) & mask;
            while (tableSlot[t] != ABSENT && tableHash[t] != hash) {
                t = (t + 1) & mask;
            }
            tableSlot[t] = tableSlot[t] == ABSENT ? i : AMBIGUOUS;
            tableHash[t] = hash;
        }
    }

    /** The shape of a scanned record's slots: one of the thread's recent shapes when the key hashes are the same. */
    static KeyShape of(int[] slots, int count) {
        KeyShape[] recent = RECENT_SHAPES.get();
        for (int r = 0; r < RECENT; r++) {
            KeyShape shape = recent[r];
            if (shape != null && shape.matches(slots, count)) {
                if (r > 0) {
                    System.arraycopy(recent, 0, recent, 1, r);
                    recent[0] = shape;
                }
                return shape;
            }
        }
        KeyShape shape = new KeyShape(slots, count);
        System.arraycopy(recent, 0, recent, 1, RECENT - 1);
        recent[0] = shape;
        return shape;
    }

    private boolean matches(int[] slots, int count) {
        if (hashes.length != count) {
            return false;
        }
        for (int i = 0; i < count; i++) {
            if (hashes[i] != slots[i * JsonScanner.SLOT]) {
                return false;
            }
        }
        return true;
    }

    /** The slot of the one key with this hash, or {@link #ABSENT}, or {@link #AMBIGUOUS}. */
    int slotOf(int hash) {
        int t = mix(hash) & mask;
        while (true) {
            int slot = tableSlot[t];
            if (slot == ABSENT || tableHash[t] == hash) {
                return slot;
            }
            t = (t + 1) & mask;
        }
    }

    private static int mix(int hash) {
        int h = hash * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}

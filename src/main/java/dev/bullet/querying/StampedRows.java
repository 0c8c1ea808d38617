package dev.bullet.querying;

import dev.bullet.record.JsonCodec;

import java.util.Arrays;

/**
 * RAW rows with the Filter's timestamp injected ({@code bullet.record.inject.timestamp.enable}), one array for every
 * query that keeps a row in one batch: the queries of a Filter task meet a batch's records one after another with the
 * same time, so a record that a hundred queries keep is copied once, not a hundred times, and the Join, which
 * remembers its check of a row by the array ({@code CanonicalJson.isCanonicalRow}), checks it once. Remembered per
 * thread: at most {@link #SLOTS} rows of at most {@link #MAX_BYTES} bytes, with their stamped copies.
 */
final class StampedRows {
    /** How many rows a thread remembers (a power of two): a batch of the index's 64 records, with room to spare. */
    static final int SLOTS = 256;
    /** Larger rows are stamped each time they are kept (a large record is copied anyway). */
    static final int MAX_BYTES = 16 * 1024;
    private static final ThreadLocal<StampedRows> RECENT = ThreadLocal.withInitial(StampedRows::new);

    private final byte[][] rows = new byte[SLOTS][];
    private final byte[][] members = new byte[SLOTS][];
    private final long[] times = new long[SLOTS];
    private final byte[][] stamped = new byte[SLOTS][];

    private StampedRows() {
    }

    /**
     * {@link JsonCodec#withMember}{@code (row, member, time)}: the same array as the last call with this very row
     * (never written after), an equal member and the same time on this thread, else a new one. Do not modify it.
     */
    static byte[] of(byte[] row, byte[] member, long time) {
        if (row.length > MAX_BYTES) {
            return JsonCodec.withMember(row, member, time);
        }
        StampedRows recent = RECENT.get();
        int slot = System.identityHashCode(row) & (SLOTS - 1);
        if (recent.rows[slot] == row && recent.times[slot] == time && Arrays.equals(recent.members[slot], member)) {
            return recent.stamped[slot];
        }
        byte[] out = JsonCodec.withMember(row, member, time);
        recent.rows[slot] = row;
        recent.members[slot] = member;
        recent.times[slot] = time;
        recent.stamped[slot] = out;
        return out;
    }
}

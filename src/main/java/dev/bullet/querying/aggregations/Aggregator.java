package dev.bullet.querying.aggregations;

import dev.bullet.record.Record;

import java.util.List;
import java.util.Map;

/**
 * The splittable state of one aggregation (SPEC §6.4). A Filter task {@link #consume}s matching records and ships
 * {@link #serialize()}d partials; the Join {@link #combine}s partials from every Filter task and reads
 * {@link #records()}. Merging partials in any grouping gives the same result as one pass (exact types), or stays
 * within the sketch's bounds (sketch types). Not thread-safe.
 */
public interface Aggregator {
    void consume(Record record);

    /**
     * Consumes the records of {@code records} at {@code from + i} for each bit {@code i} set in {@code mask}, in that
     * order: what {@link #consume} of each would give, byte for byte. A batch of up to 64 records at once, so the
     * aggregation's state stays near while it is updated, the keys of the batch's records are cut once for all the
     * queries over the same fields, and a sketch is updated once per distinct key ({@link BatchKeys}).
     */
    default void consumeBatch(List<? extends Record> records, int from, long mask) {
        for (long m = mask; m != 0; m &= m - 1) {
            consume(records.get(from + Long.numberOfTrailingZeros(m)));
        }
    }

    void combine(byte[] partial);

    /** The state consumed or combined since the last {@link #reset()}, as a partial. */
    byte[] serialize();

    /** The result rows of the current state. */
    List<Map<String, Object>> records();

    /** Sketch metadata (SPEC §6.8 {@code meta.sketches}) keyed by concept name; empty for exact aggregations. */
    Map<String, Object> sketchMetadata();

    void reset();

    /** Whether nothing was consumed or combined since the last reset. */
    boolean isEmpty();

    /**
     * Whether the state is as a reset leaves it: what {@link #isEmpty()} says, but for an aggregation that can be empty
     * and still hold something a later partial shows (TOP K's frequent-items map emptied by a purge keeps the weight
     * of the stream and the purges' error; a partial is taken only from a state that is not empty, so that state lasts).
     */
    default boolean isFresh() {
        return isEmpty();
    }

    /**
     * What the aggregation carries from one partial to the next besides its state: a GROUP's count of the groups its
     * sketches made, which numbers their arrival in its partials ({@code GroupMetrics} arrival); 0 for the others.
     */
    default long history() {
        return 0;
    }

    /** Sets {@link #history()}: a fresh aggregation then gives the partials of one that has that history. */
    default void history(long history) {
    }

    /**
     * An estimate of the heap the state holds, bytes ({@link HeapEstimate}): cheap to call (a counter, or a sketch's
     * own size), kept up to date where rows or entries are added, and back to a small constant on {@link #reset()}.
     */
    long heldBytes();
}

package dev.bullet.querying;

import dev.bullet.record.Record;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * The matches of one index batch (up to 64 records) for the queriers fed a batch at a time
 * ({@link FilterQuerier#batchable()}, {@code IndexFeature.BATCH}): while the index reads the batch, a candidate of such
 * a querier is one bit — decided by the index, or to be tested — instead of a (record, query) pair to visit; after
 * the pass each querier tests its undecided bits and hands its aggregation the batch's matches at once, in record
 * order. A querier's partial is the one record-by-record consumption gives: its aggregation meets the same records
 * in the same order. Reused from batch to batch. Not thread-safe.
 */
final class BatchedMatches {
    private FilterQuerier[] queued = new FilterQuerier[64];
    private int size;
    private final AgreeingFilters agreeing;

    BatchedMatches(AgreeingFilters agreeing) {
        this.agreeing = agreeing;
    }

    /** The index decided that {@code querier} matches the batch's record at {@code position}. */
    void decided(int position, FilterQuerier querier) {
        queue(querier);
        querier.decidedBits |= 1L << position;
    }

    /** {@code querier} may match the batch's record at {@code position}: its filter is tested at {@link #flush}. */
    void candidate(int position, FilterQuerier querier) {
        queue(querier);
        querier.testBits |= 1L << position;
    }

    /** The index decided that {@code querier} matches the batch's records at the bits of {@code positions}. */
    void decided(long positions, FilterQuerier querier) {
        if (positions != 0) {
            queue(querier);
            querier.decidedBits |= positions;
        }
    }

    /** {@code querier} may match the batch's records at the bits of {@code positions}. */
    void candidates(long positions, FilterQuerier querier) {
        if (positions != 0) {
            queue(querier);
            querier.testBits |= positions;
        }
    }

    private void queue(FilterQuerier querier) {
        if ((querier.decidedBits | querier.testBits) != 0) {
            return;
        }
        if (size == queued.length) {
            queued = Arrays.copyOf(queued, size * 2);
        }
        queued[size++] = querier;
    }

    /**
     * Tests each queued querier's undecided candidates among {@code records[from ..]}, then its expression filters at
     * {@code now} on its matches, and aggregates those that pass; {@code took} gets each querier that took a record. A
     * querier that ended before {@code readTime} (the records' read time) takes none. Then forgets the batch.
     */
    void flush(List<? extends Record> records, int from, int to, long now, long readTime, Consumer<FilterQuerier> took) {
        long all = to - from == 64 ? -1L : (1L << (to - from)) - 1;
        long batch = agreeing.startBatch(to - from);
        int q = 0;
        try {
            for (; q < size; q++) {
                if (readTime >= queued[q].readUntil) {
                    queued[q].decidedBits = 0;
                    queued[q].testBits = 0;
                } else {
                    flush(queued[q], records, from, now, took, all, batch);
                }
                queued[q] = null;
            }
        } finally {
            // a failure leaves no querier queued with bits of this batch: the next batch starts clean
            for (; q < size; q++) {
                queued[q].decidedBits = 0;
                queued[q].testBits = 0;
                queued[q] = null;
            }
            size = 0;
        }
    }

    private void flush(FilterQuerier querier, List<? extends Record> records, int from, long now,
                       Consumer<FilterQuerier> took, long all, long batch) {
        long decided = querier.decidedBits;
        long matches = decided;
        long tests = querier.testBits & ~matches;
        querier.decidedBits = 0;
        querier.testBits = 0;
        if (tests != 0) {
            querier.tested += Long.bitCount(tests);
            for (long m = tests; m != 0; m &= m - 1) {
                int position = Long.numberOfTrailingZeros(m);
                if (querier.test(records.get(from + position))) {
                    matches |= 1L << position;
                    querier.passed++;
                }
            }
        }
        if (matches != 0) {
            // what the index decided needs no expression filter when it follows from the decision
            long checked = querier.whereFollowsDecision ? matches & ~decided : matches;
            matches = matches & ~checked | (checked != 0 ? querier.passing(records, from, checked, now) : 0);
        }
        if (matches != 0) {
            if (querier.riding) {
                if (matches == all) { // its pool's aggregation takes the batch once for every rider
                    querier.taken += Long.bitCount(all);
                    querier.rodeBatch = batch;
                    took.accept(querier);
                    return;
                }
                agreeing.leave(querier);
            }
            if (querier.pool != null) {
                querier.taken += Long.bitCount(matches);
            }
            querier.consumeBatch(records, from, matches);
            took.accept(querier);
        }
    }
}

package dev.bullet.index;

import java.util.function.Consumer;

/**
 * Where the indexes hand out the candidates of a batch of records ({@link QueryIndex#candidates(java.util.List, int,
 * int, Candidates)}). The indexes read a batch path by path, each path's structures once for all its records, so the
 * candidates of one record arrive spread out over the pass: each comes with its record's position in the batch.
 *
 * @param <Q> the per-query object the index hands out
 */
public abstract class Candidates<Q> {
    /** The position in the batch of the record the indexes are visiting for; set before each record's visits. */
    int record;
    /** {@link #visit(int, Object)} for the current record, for index code written against a consumer. */
    final Consumer<Q> visit = query -> visit(record, query);
    /** {@link #matched(int, Object)} for the current record. */
    final Consumer<Q> matched = query -> matched(record, query);

    /** A query that may match the record at {@code record} (0: the batch's first); possibly more than once. */
    protected abstract void visit(int record, Q query);

    /** A query the index knows matches the record at {@code record}: its whole filter is decided, no test needed. */
    protected abstract void matched(int record, Q query);

    /**
     * {@link #visit(int, Object)} for each record of a word of the batch: record {@code 64 * word + b} for each bit
     * {@code b} of {@code records}. Unless overridden, one call a record, in record order.
     */
    protected void visitAll(int word, long records, Q query) {
        for (long m = records; m != 0; m &= m - 1) {
            visit((word << 6) + Long.numberOfTrailingZeros(m), query);
        }
    }

    /** {@link #matched(int, Object)} for each record of a word of the batch, as {@link #visitAll}. */
    protected void matchedAll(int word, long records, Q query) {
        for (long m = records; m != 0; m &= m - 1) {
            matched((word << 6) + Long.numberOfTrailingZeros(m), query);
        }
    }
}

package dev.bullet.index;

import dev.bullet.query.Clause;
import dev.bullet.record.Record;

import java.util.function.Consumer;

/**
 * One kind of secondary index under {@link QueryIndex}: it takes the queries whose filter it can serve and hands out,
 * for a record, every one of them that may match it (it may widen, never narrow). Not thread-safe.
 *
 * @param <Q> the per-query object the index hands out
 */
interface ClauseIndex<Q> {
    /** Takes the query if this index can serve its (validated) filter; returns whether it did. */
    boolean add(Q query, Clause filter);

    /** Removes a query this index took; returns whether it had it. */
    boolean remove(Q query);

    /**
     * Calls {@code visit} for every query of this index that may match the record (possibly more than once), or
     * {@code matched} instead for a query the index knows matches it (its whole filter decided, no test needed).
     */
    void candidates(Record record, Consumer<Q> visit, Consumer<Q> matched);
}

package dev.bullet.index;

import dev.bullet.query.Clause;
import dev.bullet.query.FilterValue;
import dev.bullet.query.Operation;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One kind of secondary index under {@link QueryIndex}: it takes the queries whose filter it can serve and hands out,
 * for a record, every one of them that may match it (it may widen, never narrow). Not thread-safe.
 *
 * @param <Q> the per-query object the index hands out
 */
interface ClauseIndex<Q> {
    /** Takes the query if this index can serve its (validated) filter; returns whether it did. */
    default boolean add(Q query, Clause filter) {
        return add(query, filter, true);
    }

    /**
     * {@link #add(Object, Clause)}; with {@code mayDecide} false the index never hands the query out as matched
     * (its filter is a branch of an OR inside an AND: deciding the branch does not decide the query). A query may be
     * added more than once (once per branch of an OR); {@link #remove} takes out every placement.
     */
    boolean add(Q query, Clause filter, boolean mayDecide);

    /** Removes a query this index took; returns whether it had it. */
    boolean remove(Q query);

    /**
     * Hands {@code out} every query of this index that may match each record of the batch (possibly more than once),
     * or as matched a query the index knows matches it (its whole filter decided, no test needed). The batch is read
     * path by path: {@link PathSpans#column} gives a path's spans in all its records.
     */
    void candidates(PathSpans batch, Candidates<Q> out);

    /**
     * The clause a filter requires that an index can take: the filter itself, or else the first conjunct of a
     * top-level AND (nested ANDs too) for which {@code takes} answers a relational clause; null when there is none.
     */
    static Clause.Relational required(Clause filter, Function<Clause, Clause.Relational> takes) {
        Clause.Relational taken = takes.apply(filter);
        if (taken != null) {
            return taken;
        }
        if (filter instanceof Clause.Logical && filter.operation() == Operation.AND) {
            for (Clause c : ((Clause.Logical) filter).clauses()) {
                Clause.Relational r = required(c, takes);
                if (r != null) {
                    return r;
                }
            }
        }
        return null;
    }

    /** Whether every value of the clause is a plain literal: no null, no FIELD, no explicit type. */
    static boolean plainLiterals(Clause.Relational r) {
        for (FilterValue v : r.values()) {
            if (v.kind() != FilterValue.Kind.VALUE || v.value() == null || v.type() != null) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the clause is the whole filter: the filter itself, or the one clause of a logical filter around it (an
     * AND of one, or the NOT a negation index serves). Only then may an index that decides the clause decide the query.
     */
    static boolean isWhole(Clause filter, Clause clause) {
        return filter == clause || filter instanceof Clause.Logical && ((Clause.Logical) filter).clauses().size() == 1
                                   && ((Clause.Logical) filter).clauses().get(0) == clause;
    }

    /** Visits every query of a list that may be null. */
    static <Q> void visitAll(List<Q> queries, Consumer<Q> visit) {
        if (queries != null) {
            for (int i = 0, n = queries.size(); i < n; i++) {
                visit.accept(queries.get(i));
            }
        }
    }
}

package dev.bullet.index;

import dev.bullet.query.Clause;
import dev.bullet.record.Record;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Queries whose only indexable requirement is an expression filter {@code E = literal} or {@code E IN (literals)}
 * ({@link ComputedEquality}) wait under their literals' keys, per expression: a record's {@code E} is evaluated once
 * for all the queries over it and its value's key looked up, so such a query meets only the records where {@code E}
 * may equal one of its literals, instead of every record. Never decides: the querier tests its whole filter. Takes no
 * clause ({@link #add(Object, Clause, boolean)} is false): {@link QueryIndex} places a query here only when its
 * clauses have no place. Not thread-safe.
 *
 * @param <Q> the per-query object the index hands out
 */
final class ComputedIndex<Q> implements ClauseIndex<Q> {
    private static final class Expression<Q> {
        final Object key;
        final Function<Record, Object> evaluate;
        final Map<Object, List<Q>> byValue = new HashMap<>();
        int queries;

        Expression(Object key, Function<Record, Object> evaluate) {
            this.key = key;
            this.evaluate = evaluate;
        }
    }

    private record Placement<Q>(Expression<Q> expression, List<Object> keys) {
    }

    private final List<Expression<Q>> expressions = new ArrayList<>();
    private final Map<Object, Expression<Q>> byKey = new HashMap<>();
    private final Map<Q, Placement<Q>> placements = new IdentityHashMap<>();

    @Override
    public boolean add(Q query, Clause filter, boolean mayDecide) {
        return false;
    }

    /** Puts the query under its literals' keys, under its expression. */
    void add(Q query, ComputedEquality equality) {
        if (placements.containsKey(query)) {
            throw new IllegalArgumentException("already in the index: " + query);
        }
        Expression<Q> expression = byKey.get(equality.expression());
        if (expression == null) {
            expression = new Expression<>(equality.expression(), equality.evaluate());
            byKey.put(expression.key, expression);
            expressions.add(expression);
        }
        List<Object> keys = new ArrayList<>(equality.literals().size());
        for (Object literal : equality.literals()) {
            Object key = ComputedEquality.key(literal);
            if (key == null) {
                continue;
            }
            List<Q> list = expression.byValue.computeIfAbsent(key, k -> new ArrayList<>(1));
            if (!list.contains(query)) {
                list.add(query);
                keys.add(key);
            }
        }
        expression.queries++;
        placements.put(query, new Placement<>(expression, keys));
    }

    @Override
    public boolean remove(Q query) {
        Placement<Q> placement = placements.remove(query);
        if (placement == null) {
            return false;
        }
        Expression<Q> expression = placement.expression();
        for (Object key : placement.keys()) {
            List<Q> list = expression.byValue.get(key);
            list.remove(query);
            if (list.isEmpty()) {
                expression.byValue.remove(key);
            }
        }
        if (--expression.queries == 0) {
            expressions.remove(expression);
            byKey.remove(expression.key);
        }
        return true;
    }

    @Override
    public void candidates(PathSpans batch, Candidates<Q> out) {
        int count = batch.count();
        for (int e = 0, ne = expressions.size(); e < ne; e++) {
            Expression<Q> expression = expressions.get(e);
            for (int r = 0; r < count; r++) {
                Object key = ComputedEquality.key(expression.evaluate.apply(batch.record(r)));
                List<Q> hits = key == null ? null : expression.byValue.get(key);
                if (hits != null) {
                    out.record = r;
                    ClauseIndex.visitAll(hits, out.visit);
                }
            }
        }
    }
}

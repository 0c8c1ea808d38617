package dev.bullet.index;

import dev.bullet.query.Clause;
import dev.bullet.query.FilterValue;
import dev.bullet.query.Operation;
import dev.bullet.query.Values;
import dev.bullet.record.FieldPath;

import java.util.List;

/**
 * Where a range query waits: on the above list (thresholds at or below the value) or the below list, with an
 * optional far bound ({@code limit}) that lets a numeric value past it skip the query, whether a missing
 * value must visit it too (a negated range), and whether a value at the threshold fails it ({@code strict}:
 * {@code >}, {@code <}, or only NaN literals).
 */
record RangeSpec(FieldPath path, boolean above, double threshold, double limit, boolean whenMissing,
                 boolean strict) {
    /**
     * The numeric range a filter requires, if the index can use it: a range ({@code > >= < <=} with plain numeric
     * literals or typed numbers) or a negated one ({@code NOT x < c} is {@code x >= c}, or a value that is missing or not a number),
     * itself or as a conjunct of a top-level AND; two conjuncts bounding one path from both sides make an interval.
     */
    static RangeSpec of(Clause filter) {
        if (filter instanceof Clause.Relational) {
            return plainRange((Clause.Relational) filter, false);
        }
        if (filter instanceof Clause.Logical && filter.operation() == Operation.NOT) {
            List<Clause> inner = ((Clause.Logical) filter).clauses();
            return inner.size() == 1 && inner.get(0) instanceof Clause.Relational
                    ? plainRange((Clause.Relational) inner.get(0), true) : null;
        }
        if (filter instanceof Clause.Logical && filter.operation() == Operation.AND) {
            List<Clause> clauses = ((Clause.Logical) filter).clauses();
            RangeSpec first = null;
            for (Clause c : clauses) {
                RangeSpec r = of(c);
                if (r == null) {
                    continue;
                }
                if (first == null) {
                    first = r;
                    continue;
                }
                if (!first.whenMissing() && !r.whenMissing() && first.path().equals(r.path()) && first.above() != r.above()
                    && !Double.isInfinite(first.threshold()) && !Double.isInfinite(r.threshold())) {
                    RangeSpec lower = first.above() ? first : r;
                    RangeSpec upper = first.above() ? r : first;
                    return new RangeSpec(lower.path(), true, lower.threshold(), upper.threshold(), false, false);
                }
            }
            return first;
        }
        return null;
    }

    /**
     * A range clause with plain or typed numeric literals as a spec; negated: the opposite side, a missing value
     * visits it, and any NaN literal (which compares with nothing, so its negation holds for every value) makes it
     * unindexable.
     */
    private static RangeSpec plainRange(Clause.Relational r, boolean negated) {
        if (!r.operation().isRange() || r.values().isEmpty()) {
            return null;
        }
        boolean above = r.operation() == Operation.GREATER_THAN || r.operation() == Operation.GREATER_EQUALS;
        // x > any literal: above the smallest; NOT x > any literal (x <= every one): below the smallest; and the
        // other way round for < and NOT <
        boolean smallest = above;
        double threshold = Double.NaN;
        if (!ClauseIndex.plainOrNumeric(r)) {
            return null;
        }
        for (FilterValue v : r.values()) {
            double d;
            if (ClauseIndex.typedNumeric(v)) {
                // a typed number meets a number value as the plain literal of its number does; one that casts to
                // nothing compares with nothing, as NaN (a string value is never decided here: it meets every range)
                Number n = ClauseIndex.typedNumber(v);
                d = n == null ? Double.NaN : n.doubleValue();
            } else {
                Object n = Values.asNumber(v.value());
                if (n == null) {
                    return null;
                }
                d = ((Number) n).doubleValue();
            }
            if (Double.isNaN(d)) {
                if (negated) {
                    return null;
                }
                continue; // a NaN literal lets no number through and must not become a threshold (NaN sorts last)
            }
            threshold = Double.isNaN(threshold) ? d : (smallest ? Math.min(threshold, d) : Math.max(threshold, d));
        }
        boolean side = negated != above;
        boolean onlyNaN = Double.isNaN(threshold);
        if (onlyNaN) { // only NaN literals: only an infinite value may still be visited
            threshold = side ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        }
        // a value at the threshold passes >= and <=, not > and < (nor a NaN, which compares with nothing)
        boolean strict = !negated && (onlyNaN || r.operation() == Operation.GREATER_THAN
                                      || r.operation() == Operation.LESS_THAN);
        return new RangeSpec(r.field(), side, threshold, side ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY,
                             negated, strict);
    }
}

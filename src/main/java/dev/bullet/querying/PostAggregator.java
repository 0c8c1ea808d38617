package dev.bullet.querying;

import dev.bullet.common.Clock;
import dev.bullet.common.Limits;
import dev.bullet.query.Values;
import dev.bullet.query.Expression;
import dev.bullet.query.FilterValue;
import dev.bullet.query.PostAggregation;
import dev.bullet.query.ValueType;
import dev.bullet.record.FieldPath;
import dev.bullet.record.MapRecord;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.LongBinaryOperator;

/**
 * Applies post-aggregations (SPEC §6.5), in order, to the rows of each emitted result. The original Bullet's forms:
 * ORDERBY of fields (stable; nulls and values of other types first in ASC, last in DESC), COMPUTATION of arithmetic
 * (numbers; a missing or non-numeric operand or a division by zero gives null; + - * of two whole numbers stays whole)
 * and HAVING (a §6.2 clause on each row). bullet-core 1.5.2's forms over expressions ({@link ExpressionSteps}):
 * ORDERBY of sort items, COMPUTATION of named columns, HAVING of a condition, and CULLING.
 *
 * <p>An expression's UNIXTIMESTAMP() reads the time of the result being built ({@link #apply(List, long)}).
 */
public final class PostAggregator {
    private final List<Step> steps = new ArrayList<>();
    private long evaluationTime;

    /**
     * A post-aggregation that cannot run on a result's rows (bullet-core's strategy throws): the result then has no
     * rows and says why in its metadata's warnings, and the query goes on.
     */
    public static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final String resolution;

        Failure(String message, String resolution) {
            super(message);
            this.resolution = resolution;
        }

        public String resolution() {
            return resolution;
        }
    }

    interface Step {
        List<Map<String, Object>> apply(List<Map<String, Object>> rows);
    }

    /** Post-aggregations with the default limits (expressions nest up to the default query depth). */
    public PostAggregator(List<PostAggregation> postAggregations) {
        this(postAggregations, Limits.defaults());
    }

    public PostAggregator(List<PostAggregation> postAggregations, Limits limits) {
        ExpressionSteps expressions = new ExpressionSteps(() -> evaluationTime, limits);
        for (PostAggregation p : postAggregations) {
            if (p instanceof PostAggregation.OrderBy) {
                steps.add(orderBy((PostAggregation.OrderBy) p));
            } else if (p instanceof PostAggregation.Computation) {
                steps.add(computation((PostAggregation.Computation) p));
            } else if (!(p instanceof PostAggregation.Having)) {
                steps.add(expressions.step(p));
            } else {
                RecordPredicate predicate = Predicates.compile(((PostAggregation.Having) p).filter());
                steps.add(rows -> {
                    List<Map<String, Object>> kept = new ArrayList<>();
                    for (Map<String, Object> row : rows) {
                        if (predicate.test(new MapRecord(row))) {
                            kept.add(row);
                        }
                    }
                    return kept;
                });
            }
        }
    }

    /** The rows after every step, for a result built now (the clock's time). */
    public List<Map<String, Object>> apply(List<Map<String, Object>> rows) {
        return apply(rows, Clock.SYSTEM.now());
    }

    /** The rows after every step, for a result built at {@code now} (what UNIXTIMESTAMP() gives). */
    public List<Map<String, Object>> apply(List<Map<String, Object>> rows, long now) {
        evaluationTime = now;
        List<Map<String, Object>> current = rows;
        for (Step step : steps) {
            current = step.apply(current);
        }
        return current;
    }

    private static Step orderBy(PostAggregation.OrderBy orderBy) {
        List<FieldPath> paths = orderBy.fields().stream().map(FieldPath::of).toList();
        Comparator<Map<String, Object>> comparator = (a, b) -> {
            for (FieldPath path : paths) {
                int c = compareForSort(path.resolve(a), path.resolve(b));
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
        Comparator<Map<String, Object>> ordered = orderBy.descending() ? comparator.reversed() : comparator;
        return rows -> {
            List<Map<String, Object>> sorted = new ArrayList<>(rows);
            sorted.sort(ordered);
            return sorted;
        };
    }

    /** Total order for sorting: null &lt; booleans &lt; numbers &lt; strings &lt; anything else. */
    static int compareForSort(Object a, Object b) {
        int ra = rank(a);
        int rb = rank(b);
        if (ra != rb) {
            return Integer.compare(ra, rb);
        }
        if (ra == 0 || ra == 4) {
            return 0;
        }
        int c = Values.compare(a, b);
        return c == Values.INCOMPARABLE ? 0 : c;
    }

    private static int rank(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof Boolean) {
            return 1;
        }
        if (v instanceof Number) {
            return Double.isNaN(((Number) v).doubleValue()) ? 0 : 2;
        }
        return v instanceof String ? 3 : 4;
    }

    private static Step computation(PostAggregation.Computation computation) {
        Expression expression = computation.expression();
        String name = computation.newName();
        return rows -> {
            for (Map<String, Object> row : rows) {
                row.put(name, evaluate(expression, row));
            }
            return rows;
        };
    }

    static Object evaluate(Expression expression, Map<String, Object> row) {
        if (expression instanceof Expression.Leaf) {
            Expression.Leaf leaf = (Expression.Leaf) expression;
            Object raw = leaf.kind() == FilterValue.Kind.FIELD ? leaf.field().resolve(row) : leaf.value();
            if (raw == null) {
                return null;
            }
            ValueType type = leaf.type();
            if (type == null) {
                return raw instanceof Number ? raw : raw instanceof String ? Values.asNumber((String) raw) : null;
            }
            Object cast = Values.cast(raw, type);
            return cast instanceof Number ? cast : null;
        }
        Expression.Binary binary = (Expression.Binary) expression;
        Object left = evaluate(binary.left(), row);
        Object right = evaluate(binary.right(), row);
        if (!(left instanceof Number) || !(right instanceof Number)) {
            return null;
        }
        Number a = (Number) left;
        Number b = (Number) right;
        boolean whole = a instanceof Long && b instanceof Long;
        switch (binary.operator()) {
            case '+':
                return whole ? exact(Math::addExact, a, b, a.doubleValue() + b.doubleValue()) : a.doubleValue() + b.doubleValue();
            case '-':
                return whole ? exact(Math::subtractExact, a, b, a.doubleValue() - b.doubleValue()) : a.doubleValue() - b.doubleValue();
            case '*':
                return whole ? exact(Math::multiplyExact, a, b, a.doubleValue() * b.doubleValue()) : a.doubleValue() * b.doubleValue();
            default:
                return b.doubleValue() == 0.0 ? null : a.doubleValue() / b.doubleValue();
        }
    }

    private static Object exact(LongBinaryOperator op, Number a, Number b, double fallback) {
        try {
            return op.applyAsLong(a.longValue(), b.longValue());
        } catch (ArithmeticException overflow) {
            return fallback;
        }
    }
}

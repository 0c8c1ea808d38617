package dev.bullet.querying;

import dev.bullet.common.Clock;
import dev.bullet.common.Limits;
import dev.bullet.query.ComputedField;
import dev.bullet.query.PostAggregation;
import dev.bullet.query.expr.Expr;
import dev.bullet.querying.eval.Evaluator;
import dev.bullet.querying.eval.Evaluators;
import dev.bullet.record.MapRecord;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * bullet-core 1.5.2's post-aggregations over expressions, as {@link PostAggregator} steps:
 * <ul>
 *   <li>ORDERBY ({@code OrderByStrategy}): a stable sort by each item in turn; a null or failed value comes first in
 *       ASC and last in DESC; numbers of different types compare as doubles; values of one type compare naturally.
 *       bullet-core throws on two values it cannot compare (a string and a number, a list): here they are ordered
 *       by kind (booleans, numbers, strings, then the rest) so the sort stays total.</li>
 *   <li>COMPUTATION ({@code ComputationStrategy}): every column evaluated on the row as it is, then each value that
 *       is not null and did not fail written under its name (a column already there keeps its value otherwise).</li>
 *   <li>HAVING ({@code HavingStrategy}): a row is kept when its condition is TRUE once forced to a boolean.</li>
 *   <li>CULLING ({@code CullingStrategy}): the named columns removed.</li>
 * </ul>
 */
final class ExpressionSteps {
    private final Clock clock;
    private final Limits limits;

    ExpressionSteps(Clock clock, Limits limits) {
        this.clock = clock;
        this.limits = limits;
    }

    PostAggregator.Step step(PostAggregation p) {
        if (p instanceof PostAggregation.Sort sort) {
            return sort(sort);
        }
        if (p instanceof PostAggregation.Compute compute) {
            return compute(compute);
        }
        if (p instanceof PostAggregation.Filter filter) {
            Evaluator condition = compile(filter.expression());
            return rows -> {
                List<Map<String, Object>> kept = new ArrayList<>(rows.size());
                for (Map<String, Object> row : rows) {
                    if (Evaluators.matches(condition.evaluate(new MapRecord(row)))) {
                        kept.add(row);
                    }
                }
                return kept;
            };
        }
        List<String> culled = ((PostAggregation.Culling) p).fields();
        return rows -> {
            for (Map<String, Object> row : rows) {
                culled.forEach(row::remove);
            }
            return rows;
        };
    }

    private Evaluator compile(Expr expr) {
        return Evaluators.compile(expr, clock, limits);
    }

    private PostAggregator.Step compute(PostAggregation.Compute compute) {
        List<ComputedField> fields = compute.fields();
        Evaluator[] evaluators = fields.stream().map(f -> compile(f.expression())).toArray(Evaluator[]::new);
        return rows -> {
            for (Map<String, Object> row : rows) {
                MapRecord record = new MapRecord(row);
                Map<String, Object> values = new LinkedHashMap<>();
                for (int i = 0; i < evaluators.length; i++) {
                    Object value = Evaluators.projected(evaluators[i].evaluate(record));
                    if (value != null) {
                        values.put(fields.get(i).name(), value);
                    }
                }
                row.putAll(values);
            }
            return rows;
        };
    }

    /** A row and its sort keys, each evaluated once (null for a null or failed value). */
    private record Keyed(Map<String, Object> row, Object[] keys) {
    }

    private PostAggregator.Step sort(PostAggregation.Sort sort) {
        List<PostAggregation.SortItem> items = sort.items();
        Evaluator[] evaluators = items.stream().map(i -> compile(i.expression())).toArray(Evaluator[]::new);
        Comparator<Keyed> comparator = (a, b) -> {
            for (int i = 0; i < evaluators.length; i++) {
                int c = items.get(i).descending() ? compareNullsFirst(b.keys[i], a.keys[i])
                        : compareNullsFirst(a.keys[i], b.keys[i]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
        return rows -> {
            List<Keyed> keyed = new ArrayList<>(rows.size());
            for (Map<String, Object> row : rows) {
                MapRecord record = new MapRecord(row);
                Object[] keys = new Object[evaluators.length];
                for (int i = 0; i < evaluators.length; i++) {
                    keys[i] = Evaluators.projected(evaluators[i].evaluate(record));
                }
                keyed.add(new Keyed(row, keys));
            }
            keyed.sort(comparator);
            checkComparable(keyed, items.size());
            List<Map<String, Object>> sorted = new ArrayList<>(rows.size());
            keyed.forEach(k -> sorted.add(k.row()));
            return sorted;
        };
    }

    /**
     * Fails as bullet-core's sort does: it throws when it compares two values it cannot compare, and a sort compares
     * every two rows that end up next to each other. So it fails exactly when, among the rows that tie on the keys
     * before, the values of a key that are not null are of two kinds that do not compare (numbers, strings,
     * booleans; each list or map is a kind of its own).
     */
    private static void checkComparable(List<Keyed> sorted, int keys) {
        for (int key = 0; key < keys; key++) {
            int start = 0;
            while (start < sorted.size()) {
                int end = start + 1;
                while (end < sorted.size() && tiedBefore(sorted.get(start), sorted.get(end), key)) {
                    end++;
                }
                Object first = null;
                for (int i = start; i < end; i++) {
                    Object value = sorted.get(i).keys()[key];
                    if (value == null) {
                        continue;
                    }
                    if (first != null && Evaluators.compare(first, value) == Evaluators.INCOMPARABLE) {
                        throw new PostAggregator.Failure("ORDER BY cannot compare " + first + " with " + value
                                + " (bullet-core's sort fails on them and gives no records)",
                                "Order by values of one kind: numbers, strings or booleans (CAST them)");
                    }
                    first = first == null ? value : first;
                }
                start = end;
            }
        }
    }

    private static boolean tiedBefore(Keyed a, Keyed b, int key) {
        for (int i = 0; i < key; i++) {
            if (compareNullsFirst(a.keys()[i], b.keys()[i]) != 0) {
                return false;
            }
        }
        return true;
    }

    /** bullet-core's {@code TypedObject.nullsFirst()}, total over values it cannot compare (ordered by kind). */
    static int compareNullsFirst(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        int c = Evaluators.compare(a, b);
        if (c != Evaluators.INCOMPARABLE) {
            return c;
        }
        return Integer.compare(kind(a), kind(b));
    }

    private static int kind(Object v) {
        return v instanceof Boolean ? 0 : v instanceof Number ? 1 : v instanceof String ? 2 : 3;
    }
}

package dev.bullet.query;

import dev.bullet.query.expr.Expr;

import java.util.List;

/**
 * A step applied, in order, to every emitted result (SPEC §6.5). {@link OrderBy}, {@link Computation} and
 * {@link Having} are the original Bullet's forms; {@link Sort}, {@link Compute}, {@link Filter} and {@link Culling}
 * are bullet-core 1.5.2's, over expressions ({@code dev.bullet.query.expr}).
 */
public sealed interface PostAggregation {
    record OrderBy(List<String> fields, boolean descending) implements PostAggregation {
        public OrderBy {
            fields = List.copyOf(fields);
        }
    }

    record Computation(Expression expression, String newName) implements PostAggregation {
    }

    record Having(Clause filter) implements PostAggregation {
    }

    /** One key of a {@link Sort}: an expression over the row and its direction. */
    record SortItem(Expr expression, boolean descending) {
    }

    /** bullet-core's ORDERBY: rows sorted by the first item, ties by the next, and so on (stable). */
    record Sort(List<SortItem> items) implements PostAggregation {
        public Sort {
            items = List.copyOf(items);
        }
    }

    /**
     * bullet-core's COMPUTATION: every column's expression evaluated on the row as it is, then the values written
     * under their names (a null or failed value writes nothing).
     */
    record Compute(List<ComputedField> fields) implements PostAggregation {
        public Compute {
            fields = List.copyOf(fields);
        }
    }

    /** bullet-core's HAVING: a row is kept when the expression is TRUE (null, FALSE or a failure drop it). */
    record Filter(Expr expression) implements PostAggregation {
    }

    /** bullet-core's CULLING: the named columns removed from every row. */
    record Culling(List<String> fields) implements PostAggregation {
        public Culling {
            fields = List.copyOf(fields);
        }
    }
}

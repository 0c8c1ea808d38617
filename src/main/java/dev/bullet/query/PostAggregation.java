package dev.bullet.query;

import java.util.List;

/** A step applied, in order, to every emitted result (SPEC §6.5). */
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
}

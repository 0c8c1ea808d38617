package dev.bullet.query;

import dev.bullet.record.FieldPath;

import java.util.List;

/** A filter clause (SPEC §6.2): relational on one field, or logical over sub-clauses. Immutable. */
public sealed interface Clause {
    Operation operation();

    /** {@code field op values}: true when the field compared with any value is true ({@code !=}: equals none). */
    record Relational(FieldPath field, Operation operation, List<FilterValue> values) implements Clause {
        public Relational {
            values = List.copyOf(values);
        }
    }

    /** AND / OR over the clauses; NOT of exactly one. */
    record Logical(Operation operation, List<Clause> clauses) implements Clause {
        public Logical {
            clauses = List.copyOf(clauses);
        }
    }
}

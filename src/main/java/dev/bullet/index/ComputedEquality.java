package dev.bullet.index;

import dev.bullet.record.Record;

import java.util.List;
import java.util.function.Function;

/**
 * What an expression filter {@code E = literal} or {@code E IN (literals)} requires, for an expression {@code E} of the
 * record that reads the clock nowhere: {@code E}'s value compares equal to one of the literals. Queries whose
 * expressions are equal ({@code expression}) share one evaluation a record.
 *
 * @param expression the expression, as a key: equal expressions are one
 * @param evaluate   the expression compiled, applied to a record
 * @param literals   the literals (strings, booleans, numbers; at least one)
 */
public record ComputedEquality(Object expression, Function<Record, Object> evaluate, List<Object> literals) {
    public ComputedEquality {
        literals = List.copyOf(literals);
        if (literals.isEmpty()) {
            throw new IllegalArgumentException("no literal");
        }
    }

    /**
     * A value's key: values that compare equal as the expression filter compares them share it — numbers by their
     * double (two numbers of different types compare as doubles; equal ones of one type have equal doubles), strings
     * and booleans as they are. Null for a value that equals no literal (null, a list, a map, a failure).
     */
    static Object key(Object value) {
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        return value instanceof String || value instanceof Boolean ? value : null;
    }
}

package dev.bullet.query;

import dev.bullet.record.FieldPath;

/** An arithmetic expression of a COMPUTATION post-aggregation (SPEC §6.5). */
public sealed interface Expression {
    /** {@code left op right} with op one of {@code + - * /}. */
    record Binary(char operator, Expression left, Expression right) implements Expression {
    }

    /** A field of the result row, or a literal cast to {@code type} (number by default). */
    record Leaf(FilterValue.Kind kind, String value, ValueType type, FieldPath field) implements Expression {
    }
}

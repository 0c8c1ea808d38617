package dev.bullet.query.expr;

import java.util.Objects;

/**
 * A literal (bullet-core's {@code ValueExpression}): a {@link String}, {@link Boolean}, {@link Integer}, {@link Long},
 * {@link Float} or {@link Double}, or null; its type is the value's ({@link ExprType#NULL} for null).
 */
public final class ValueExpr extends Expr {
    private final Object value;

    private ValueExpr(Object value) {
        super(ExprType.of(value), 1);
        if (!type().isPrimitive() && type() != ExprType.NULL) {
            throw new IllegalArgumentException("a value is a primitive or null: " + value);
        }
        this.value = value;
    }

    public static ValueExpr of(Object value) {
        return new ValueExpr(value);
    }

    public Object value() {
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ValueExpr v && Objects.equals(value, v.value) && type() == v.type();
    }

    @Override
    public int hashCode() {
        return Objects.hash(value, type());
    }
}

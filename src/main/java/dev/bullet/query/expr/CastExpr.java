package dev.bullet.query.expr;

import java.util.Objects;

/**
 * A forced cast (bullet-core's {@code CastExpression}) to any type but {@link ExprType#NULL} and {@link ExprType#UNKNOWN}.
 */
public final class CastExpr extends Expr {
    private final Expr value;

    private CastExpr(Expr value, ExprType castType) {
        super(castType, value.depth() + 1);
        if (castType == ExprType.NULL || castType == ExprType.UNKNOWN) {
            throw new IllegalArgumentException("cannot cast to " + castType);
        }
        this.value = value;
    }

    public static CastExpr of(Expr value, ExprType castType) {
        return new CastExpr(Objects.requireNonNull(value), Objects.requireNonNull(castType));
    }

    public Expr value() {
        return value;
    }

    /** The type cast to (also the static {@link #type()}). */
    public ExprType castType() {
        return type();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CastExpr c && type() == c.type() && value.equals(c.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(value, type());
    }
}

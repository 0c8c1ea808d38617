package dev.bullet.query.expr;

import java.util.Objects;

/** An operation on one operand (bullet-core's {@code UnaryExpression}): NOT, SIZEOF, IS NULL, TRIM, ABS, HASH, ... */
public final class UnaryExpr extends Expr {
    private final Op op;
    private final Expr operand;

    private UnaryExpr(Op op, Expr operand) {
        super(ExprTypes.unary(op, operand), operand.depth() + 1);
        if (!op.isUnary()) {
            throw new IllegalArgumentException(op + " is not a unary operation");
        }
        this.op = op;
        this.operand = operand;
    }

    public static UnaryExpr of(Op op, Expr operand) {
        return new UnaryExpr(Objects.requireNonNull(op), Objects.requireNonNull(operand));
    }

    public Op op() {
        return op;
    }

    public Expr operand() {
        return operand;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UnaryExpr u && op == u.op && operand.equals(u.operand);
    }

    @Override
    public int hashCode() {
        return Objects.hash(op, operand);
    }
}

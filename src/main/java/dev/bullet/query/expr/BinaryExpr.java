package dev.bullet.query.expr;

import java.util.Objects;

/**
 * An operation on two operands (bullet-core's {@code BinaryExpression}): arithmetic, comparisons (with ANY/ALL over a
 * list on the right), RLIKE, SIZEIS, CONTAINSKEY, CONTAINSVALUE, IN, AND, OR, XOR, FILTER.
 */
public final class BinaryExpr extends Expr {
    private final Op op;
    private final Expr left;
    private final Expr right;

    private BinaryExpr(Op op, Expr left, Expr right) {
        super(ExprTypes.binary(op, left, right), Math.max(left.depth(), right.depth()) + 1);
        if (!op.isBinary()) {
            throw new IllegalArgumentException(op + " is not a binary operation");
        }
        this.op = op;
        this.left = left;
        this.right = right;
    }

    public static BinaryExpr of(Op op, Expr left, Expr right) {
        return new BinaryExpr(Objects.requireNonNull(op), Objects.requireNonNull(left), Objects.requireNonNull(right));
    }

    public Op op() {
        return op;
    }

    public Expr left() {
        return left;
    }

    public Expr right() {
        return right;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BinaryExpr b && op == b.op && left.equals(b.left) && right.equals(b.right);
    }

    @Override
    public int hashCode() {
        return Objects.hash(op, left, right);
    }
}

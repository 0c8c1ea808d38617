package dev.bullet.query.expr;

import java.util.List;
import java.util.Objects;

/**
 * An operation on a list of operands (bullet-core's {@code NAryExpression}): AND, OR, IF (condition, then, else; with
 * fewer, a missing branch fails when taken), BETWEEN and NOT BETWEEN (value, lower, upper), SUBSTRING (2 or 3),
 * UNIXTIMESTAMP (0 to 2).
 */
public final class NAryExpr extends Expr {
    private final Op op;
    private final List<Expr> operands;

    private NAryExpr(Op op, List<Expr> operands) {
        super(ExprTypes.nAry(op, operands), depthOf(operands));
        if (!op.isNAry()) {
            throw new IllegalArgumentException(op + " is not an n-ary operation");
        }
        int[] counts = op.operandCounts();
        if (operands.size() < counts[0] || operands.size() > counts[1]) {
            throw new IllegalArgumentException(op + " takes " + counts[0] + " to " + counts[1] + " operands");
        }
        this.op = op;
        this.operands = operands;
    }

    public static NAryExpr of(Op op, List<Expr> operands) {
        return new NAryExpr(Objects.requireNonNull(op), List.copyOf(operands));
    }

    public Op op() {
        return op;
    }

    public List<Expr> operands() {
        return operands;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NAryExpr n && op == n.op && operands.equals(n.operands);
    }

    @Override
    public int hashCode() {
        return Objects.hash(op, operands);
    }
}

package dev.bullet.query.expr;

import java.util.List;

/**
 * A list of expressions (bullet-core's {@code ListExpression}), evaluated to a list of their values. Its static type is
 * the list of its members' one primitive type when they all have it, else {@link ExprType#UNKNOWN}.
 */
public final class ListExpr extends Expr {
    private final List<Expr> values;

    private ListExpr(List<Expr> values) {
        super(ExprTypes.list(values), depthOf(values));
        this.values = values;
    }

    public static ListExpr of(List<Expr> values) {
        return new ListExpr(List.copyOf(values));
    }

    public List<Expr> values() {
        return values;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ListExpr l && values.equals(l.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }
}

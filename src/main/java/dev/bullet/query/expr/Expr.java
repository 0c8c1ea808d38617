package dev.bullet.query.expr;

/**
 * An immutable expression (bullet-core 1.5.2's {@code Expression}): {@link FieldExpr}, {@link ValueExpr},
 * {@link ListExpr}, {@link UnaryExpr}, {@link BinaryExpr}, {@link NAryExpr} or {@link CastExpr}. Every node knows its
 * static {@link #type()} ({@link ExprType#UNKNOWN} when only a record can tell) and its {@link #depth()} (a leaf is 1),
 * both computed once when it is built, so nothing walks the tree to learn them.
 */
public abstract sealed class Expr permits FieldExpr, ValueExpr, ListExpr, UnaryExpr, BinaryExpr, NAryExpr, CastExpr {
    private final ExprType type;
    private final int depth;

    Expr(ExprType type, int depth) {
        this.type = type;
        this.depth = depth;
    }

    /** The static type: what every evaluation gives (or null), {@link ExprType#UNKNOWN} when it depends on the record. */
    public ExprType type() {
        return type;
    }

    /** How deep the tree under this node is (a field or a value is 1). */
    public int depth() {
        return depth;
    }

    /** The JSON form (see the package documentation). */
    @Override
    public String toString() {
        return ExprJson.write(this);
    }

    static int depthOf(Iterable<Expr> children) {
        int max = 0;
        for (Expr child : children) {
            max = Math.max(max, child.depth());
        }
        return max + 1;
    }
}

package dev.bullet.querying;

import dev.bullet.index.FoldedEquality;
import dev.bullet.query.expr.Expr;
import dev.bullet.query.expr.FieldExpr;
import dev.bullet.query.expr.Op;
import dev.bullet.query.expr.UnaryExpr;
import dev.bullet.record.FieldPath;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@link FoldedEquality} a query's expression filters require, for the index: a conjunct {@code LOWER(f) = 'x'}
 * or {@code UPPER(f) = 'X'} (either side), or {@code LOWER(f) IN ('x', 'y')}, over a top-level field. Such a conjunct
 * is true only when the field holds a string whose folded value compares equal to a string literal (bullet-core's
 * LOWER and UPPER fail on anything else, and a string equals no other kind of value), so its string literals are all
 * the folded values it can be true for.
 */
final class FoldedEqualities {
    private FoldedEqualities() {
    }

    /** The first conjunct's folded equality; null when none is one. */
    static FoldedEquality of(List<Expr> where) {
        return ComputedEqualities.first(where, FoldedEqualities::folded);
    }

    /**
     * {@code LOWER(field)} or {@code UPPER(field)} of a top-level field, with the string literals it must fold to (its
     * other literals never equal a string); null for any other side, or no string literal.
     */
    private static FoldedEquality folded(Expr side, List<Object> literals) {
        if (!(side instanceof UnaryExpr unary) || unary.op() != Op.LOWER && unary.op() != Op.UPPER
            || !(unary.operand() instanceof FieldExpr field) || field.key() != null) {
            return null;
        }
        List<String> texts = new ArrayList<>();
        for (Object literal : literals) {
            if (literal instanceof String s) {
                texts.add(s);
            }
        }
        return texts.isEmpty() ? null : new FoldedEquality(unary.op() == Op.UPPER, FieldPath.of(field.field()), texts);
    }
}

package dev.bullet.querying;

import dev.bullet.index.FoldedEquality;
import dev.bullet.query.expr.BinaryExpr;
import dev.bullet.query.expr.Expr;
import dev.bullet.query.expr.FieldExpr;
import dev.bullet.query.expr.ListExpr;
import dev.bullet.query.expr.Op;
import dev.bullet.query.expr.UnaryExpr;
import dev.bullet.query.expr.ValueExpr;
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
        for (Expr conjunct : where) {
            FoldedEquality equality = of(conjunct);
            if (equality != null) {
                return equality;
            }
        }
        return null;
    }

    private static FoldedEquality of(Expr conjunct) {
        if (!(conjunct instanceof BinaryExpr binary)) {
            return null;
        }
        if (binary.op() == Op.EQUALS) {
            FoldedEquality equality = folded(binary.left(), literal(binary.right()));
            return equality != null ? equality : folded(binary.right(), literal(binary.left()));
        }
        return binary.op() == Op.IN ? folded(binary.left(), literals(binary.right())) : null;
    }

    /** {@code LOWER(field)} or {@code UPPER(field)} of a top-level field, with the texts it must fold to. */
    private static FoldedEquality folded(Expr side, List<String> texts) {
        if (texts == null || texts.isEmpty() || !(side instanceof UnaryExpr unary)
            || unary.op() != Op.LOWER && unary.op() != Op.UPPER
            || !(unary.operand() instanceof FieldExpr field) || field.key() != null) {
            return null;
        }
        return new FoldedEquality(unary.op() == Op.UPPER, FieldPath.of(field.field()), texts);
    }

    private static List<String> literal(Expr e) {
        return e instanceof ValueExpr v && v.value() instanceof String s ? List.of(s) : null;
    }

    /**
     * A list of literals' strings (its other literals never equal a string); null when a member is no literal (a field's
     * value could equal anything).
     */
    private static List<String> literals(Expr e) {
        if (!(e instanceof ListExpr list)) {
            return null;
        }
        List<String> texts = new ArrayList<>();
        for (Expr member : list.values()) {
            if (!(member instanceof ValueExpr v)) {
                return null;
            }
            if (v.value() instanceof String s) {
                texts.add(s);
            }
        }
        return texts;
    }
}

package dev.bullet.bql;

import static dev.bullet.bql.BqlNames.name;
import static dev.bullet.bql.BqlNames.strip;

import dev.bullet.bql.BqlAst.Aggregate;
import dev.bullet.bql.BqlAst.Binary;
import dev.bullet.bql.BqlAst.CountDistinct;
import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.Field;
import dev.bullet.bql.BqlAst.ListExpr;
import dev.bullet.bql.BqlAst.Literal;
import dev.bullet.bql.BqlAst.SelectItem;

import java.util.Locale;
import java.util.Set;

/**
 * bullet-bql 1.3.2's type check of a HAVING condition (its {@code TypeChecker.validateBinaryType}): a comparison is
 * checked when the types of both operands are known, and a record field's type is never known (there is no schema),
 * so only aggregates of a known type ({@code COUNT(*)} and {@code COUNT(DISTINCT ...)} are LONG, {@code AVG} is
 * DOUBLE; {@code SUM}, {@code MIN}, {@code MAX} take their field's unknown type), their aliases, and literals are.
 * {@code HAVING COUNT(*) >= '5'} is rejected there, so here too.
 */
final class HavingTypes {
    private static final Set<String> NUMERIC = Set.of("INTEGER", "LONG", "FLOAT", "DOUBLE");
    private static final Set<String> PRIMITIVE = Set.of("INTEGER", "LONG", "FLOAT", "DOUBLE", "BOOLEAN", "STRING");

    private HavingTypes() {
    }

    /** Why bullet-bql rejects the condition, or null when it does not (or cannot tell). */
    static String mismatch(Binary b, BqlAst.Query q) {
        String left = typeOf(b.left(), q);
        String right = typeOf(b.right(), q);
        if (left == null || right == null) {
            return null;
        }
        String sub = right.endsWith("_LIST") ? right.substring(0, right.length() - 5) : null;
        boolean ordering = Set.of("<", "<=", ">", ">=").contains(b.op());
        String problem = null;
        if (b.op().equals("RLIKE")) {
            problem = left.equals("STRING") && right.equals(b.modifier() == null ? "STRING" : "STRING_LIST") ? null
                    : "must be STRING" + (b.modifier() == null ? "" : " and a list of STRING");
        } else if (b.op().equals("IN")) {
            problem = sub != null && PRIMITIVE.contains(left) && (sub.equals(left) || NUMERIC.contains(left) && NUMERIC.contains(sub))
                    ? null : "must be a value and a list of values of the same type (or both numeric)";
        } else if (b.modifier() != null) {
            boolean ok = sub != null && (ordering ? comparable(left, sub) : canCompare(left, sub));
            problem = ok ? null : "must be a value and a list of values that can be compared with " + b.op();
        } else if (ordering) {
            problem = comparable(left, right) ? null : "must either both be numeric or both be STRING";
        } else if (b.op().equals("=") || b.op().equals("!=")) {
            problem = canCompare(left, right) ? null : "must be comparable";
        }
        return problem == null ? null : "the operands of " + name(b) + " " + problem + " (bullet-bql rejects it); types given: "
                                        + left + ", " + right;
    }

    /** The type bullet-bql knows an expression of HAVING to have, or null when unknown. */
    static String typeOf(Expr e, BqlAst.Query q) {
        e = strip(e);
        if (e instanceof Literal l) {
            Object v = l.value();
            return v == null ? "NULL" : v instanceof String ? "STRING" : v instanceof Boolean ? "BOOLEAN"
                    : v.getClass().getSimpleName().toUpperCase(Locale.ROOT);
        }
        if (e instanceof Aggregate a) {
            return a.operand() == null ? "LONG" : a.op().equals("AVG") ? "DOUBLE" : null;
        }
        if (e instanceof CountDistinct) {
            return "LONG";
        }
        if (e instanceof ListExpr list && !list.items().isEmpty()) {
            String first = typeOf(list.items().get(0), q);
            boolean same = first != null && PRIMITIVE.contains(first)
                           && list.items().stream().allMatch(i -> first.equals(typeOf(i, q)));
            return same ? first + "_LIST" : null;
        }
        if (e instanceof Field f) {
            for (SelectItem item : q.select()) {
                if (f.name().equals(item.alias()) && item.expr() != null && !(strip(item.expr()) instanceof Field)) {
                    return typeOf(item.expr(), q);
                }
            }
        }
        return null;
    }

    private static boolean canCompare(String a, String b) {
        return PRIMITIVE.contains(a) && PRIMITIVE.contains(b) && (a.equals(b) || NUMERIC.contains(a) && NUMERIC.contains(b));
    }

    private static boolean comparable(String a, String b) {
        return NUMERIC.contains(a) && NUMERIC.contains(b) || a.equals("STRING") && b.equals("STRING");
    }
}

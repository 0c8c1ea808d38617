package dev.bullet.bql;

import dev.bullet.bql.BqlAst.Aggregate;
import dev.bullet.bql.BqlAst.Between;
import dev.bullet.bql.BqlAst.Binary;
import dev.bullet.bql.BqlAst.Call;
import dev.bullet.bql.BqlAst.Cast;
import dev.bullet.bql.BqlAst.CountDistinct;
import dev.bullet.bql.BqlAst.Distribution;
import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.Field;
import dev.bullet.bql.BqlAst.IsNull;
import dev.bullet.bql.BqlAst.ListExpr;
import dev.bullet.bql.BqlAst.Literal;
import dev.bullet.bql.BqlAst.Parens;
import dev.bullet.bql.BqlAst.SelectItem;
import dev.bullet.bql.BqlAst.TopK;
import dev.bullet.bql.BqlAst.Unary;
import dev.bullet.bql.BqlAst.Unsupported;

import java.util.stream.Collectors;

/**
 * The names bullet-bql gives expressions and result columns, which every clause translator must reproduce exactly:
 * they are the column names of the results.
 */
final class BqlNames {
    /** The column bullet-bql gives TOP(k, ...) without an alias. */
    static final String TOP_K_DEFAULT_NAME = "Count";

    private BqlNames() {
    }

    /** The column name bullet-bql gives an expression (its ExpressionFormatter without quoting). */
    static String name(Expr e) {
        if (e instanceof Field f) {
            return f.name();
        }
        if (e instanceof Literal l) {
            Object v = l.value();
            if (v == null) {
                return "NULL";
            }
            if (v instanceof String s) {
                return "'" + s + "'";
            }
            return v instanceof Long ? v + "L" : v instanceof Float ? v + "f" : v.toString();
        }
        if (e instanceof ListExpr l) {
            String items = l.items().stream().map(BqlNames::name).collect(Collectors.joining(", "));
            return l.parenthesized() ? "(" + items + ")" : "[" + items + "]";
        }
        if (e instanceof Binary b) {
            String op = (b.not() ? "NOT " : "") + b.op() + (b.modifier() == null ? "" : " " + b.modifier());
            return name(b.left()) + " " + op + " " + name(b.right());
        }
        if (e instanceof Unary u) {
            return u.parenthesized() ? u.op() + "(" + name(u.operand()) + ")" : u.op() + " " + name(u.operand());
        }
        if (e instanceof IsNull n) {
            return name(n.operand()) + (n.not() ? " IS NOT NULL" : " IS NULL");
        }
        if (e instanceof Call c) {
            return c.function() + "(" + c.args().stream().map(BqlNames::name).collect(Collectors.joining(", ")) + ")";
        }
        if (e instanceof Between b) {
            return name(b.value()) + (b.not() ? " NOT BETWEEN (" : " BETWEEN (") + name(b.lower()) + ", " + name(b.upper()) + ")";
        }
        if (e instanceof Cast c) {
            return "CAST(" + name(c.operand()) + " AS " + c.type() + ")";
        }
        if (e instanceof Aggregate a) {
            return a.operand() == null ? "COUNT(*)" : a.op() + "(" + name(a.operand()) + ")";
        }
        if (e instanceof CountDistinct c) {
            return "COUNT(DISTINCT " + c.operands().stream().map(BqlNames::name).collect(Collectors.joining(", ")) + ")";
        }
        if (e instanceof TopK t) {
            return "TOP(" + t.size() + ", " + (t.threshold() == null ? "" : t.threshold() + ", ")
                   + t.operands().stream().map(BqlNames::name).collect(Collectors.joining(", ")) + ")";
        }
        if (e instanceof Distribution d) {
            return d.type() + "(" + name(d.operand()) + ", " + d.mode() + ", "
                   + d.numbers().stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")";
        }
        if (e instanceof Parens p) {
            return "(" + name(p.inner()) + ")";
        }
        return ((Unsupported) e).what();
    }

    static String outputName(SelectItem item) {
        return item.alias() != null ? item.alias() : item.expr() instanceof TopK ? TOP_K_DEFAULT_NAME : name(item.expr());
    }

    static Expr strip(Expr e) {
        while (e instanceof Parens p) {
            e = p.inner();
        }
        return e;
    }
}

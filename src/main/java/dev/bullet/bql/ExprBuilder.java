package dev.bullet.bql;

import static dev.bullet.bql.BqlNames.name;

import dev.bullet.bql.BqlAst.Between;
import dev.bullet.bql.BqlAst.Binary;
import dev.bullet.bql.BqlAst.Call;
import dev.bullet.bql.BqlAst.Cast;
import dev.bullet.bql.BqlAst.Field;
import dev.bullet.bql.BqlAst.IsNull;
import dev.bullet.bql.BqlAst.Literal;
import dev.bullet.bql.BqlAst.Parens;
import dev.bullet.bql.BqlAst.Unary;
import dev.bullet.bql.BqlAst.Unsupported;
import dev.bullet.query.expr.BinaryExpr;
import dev.bullet.query.expr.CastExpr;
import dev.bullet.query.expr.Expr;
import dev.bullet.query.expr.ExprType;
import dev.bullet.query.expr.FieldExpr;
import dev.bullet.query.expr.ListExpr;
import dev.bullet.query.expr.NAryExpr;
import dev.bullet.query.expr.Op;
import dev.bullet.query.expr.UnaryExpr;
import dev.bullet.query.expr.ValueExpr;

import java.util.ArrayList;
import java.util.List;

/**
 * A BQL expression as the expression model ({@code dev.bullet.query.expr}), node for node the bullet-core
 * {@code Expression} that bullet-bql 1.3.2's ExpressionVisitor builds: a literal keeps its type ({@code 5} INTEGER,
 * {@code 5L} LONG, {@code 5.0} DOUBLE, {@code 5.0f} FLOAT, {@code -5} the negative literal), parentheses vanish, an
 * {@code IN (a, b)} list is a list, {@code NOT RLIKE ANY} and {@code > ALL} are single operations, {@code a[0].b} is one
 * field with a key and a sub-key, and {@code SUBSTR} is SUBSTRING.
 *
 * <p>One deliberate difference: a chain {@code a AND b AND c AND d} is read balanced ({@code (a AND b) AND (c AND d)})
 * where bullet-bql nests it to the left, so that long chains stay within the query depth. AND, OR and XOR are
 * associative, also under bullet-core's null handling, and both forms evaluate the operands from left to right and
 * stop at the same operand, so the result is the same.
 *
 * <p>What cannot be an expression (an aggregate, a construct the grammar has but the model lacks) is an error in the
 * shared context, and {@link #build} gives null.
 */
final class ExprBuilder {
    private final TranslationContext ctx;
    private final String where;
    private final Scope scope;

    /** {@code where} names the clause for error messages, e.g. "WHERE" or "the SELECT list". */
    ExprBuilder(TranslationContext ctx, String where) {
        this(ctx, where, null);
    }

    /**
     * An expression over the columns of a result: a part whose BQL name is a column of {@code scope} (or an aliased
     * name) reads that column, as bullet-bql's ExpressionVisitor reads its LayeredSchema; so does a field whose top
     * name is one ({@code a[0]} of a column a).
     */
    ExprBuilder(TranslationContext ctx, String where, Scope scope) {
        this.ctx = ctx;
        this.where = where;
        this.scope = scope;
    }

    /** The expression, or null when some part of it cannot be one (the errors are in the context). */
    Expr build(BqlAst.Expr e) {
        int mark = ctx.mark();
        Expr built = convert(e);
        return ctx.mark() == mark ? built : null;
    }

    private Expr convert(BqlAst.Expr e) {
        if (scope != null && !(e instanceof Field f && f.hint() != null)) {
            String column = scope.find(name(e));
            if (column != null) {
                return FieldExpr.of(column);
            }
        }
        if (e instanceof Parens p) {
            return convert(p.inner());
        }
        if (e instanceof Literal l) {
            return ValueExpr.of(l.value());
        }
        if (e instanceof Field f) {
            return field(f);
        }
        if (e instanceof BqlAst.ListExpr l) {
            return ListExpr.of(all(l.items()));
        }
        if (e instanceof Binary b) {
            return binary(b);
        }
        if (e instanceof Unary u) {
            return unary(Op.named(u.op()), convert(u.operand()), u.pos());
        }
        if (e instanceof IsNull n) {
            return unary(n.not() ? Op.IS_NOT_NULL : Op.IS_NULL, convert(n.operand()), n.pos());
        }
        if (e instanceof Call c) {
            return call(c);
        }
        if (e instanceof Between b) {
            List<Expr> operands = all(List.of(b.value(), b.lower(), b.upper()));
            return nAry(b.not() ? Op.NOT_BETWEEN : Op.BETWEEN, operands, b.pos(), name(b));
        }
        if (e instanceof Cast c) {
            Expr operand = convert(c.operand());
            return operand == null ? null : CastExpr.of(operand, ExprType.named(c.type()));
        }
        if (e instanceof Unsupported u) {
            ctx.error(u.pos(), u.what() + " is not supported", u.resolution());
            return null;
        }
        ctx.error(e.pos(), "the aggregate " + name(e) + " cannot be used in " + where,
                  "Use aggregates in the SELECT list of a query with GROUP BY, or in HAVING and ORDER BY");
        return null;
    }

    private List<Expr> all(List<BqlAst.Expr> items) {
        List<Expr> out = new ArrayList<>();
        for (BqlAst.Expr item : items) {
            out.add(convert(item));
        }
        return out.contains(null) ? null : out;
    }

    /** {@code a}, {@code a.b} / {@code a['k']} / {@code a[0]} (a key), {@code a[0].b} (a key and a sub-key). */
    private Expr field(Field f) {
        List<Object> keys = new ArrayList<>();
        for (Object segment : f.segments().subList(1, f.segments().size())) {
            Object key = segment instanceof BqlAst.Expr k ? convert(k) : segment;
            if (key == null) {
                return null;
            }
            keys.add(key);
        }
        String top = (String) f.segments().get(0);
        if (scope != null && f.hint() == null) {
            String column = scope.find(top);
            if (column == null && !scope.readsRecord()) {
                ctx.error(f.pos(), "the field " + top + " in " + where + " is no column of the result (bullet-bql rejects it)",
                          "Name a column of the result: a selected, grouped or aggregated one, or its alias");
                return null;
            }
            ExprType type = column == null ? null : scope.type(column);
            if (type != null && !keys.isEmpty() && !type.isList() && !type.isMap()) {
                ctx.error(f.pos(), "the subfield " + f.name() + " is invalid since the column " + column + " has type "
                                   + type + " (bullet-bql rejects it)", "Take a key or index only of a list or map");
                return null;
            }
            top = column == null ? top : column;
        }
        return keys.isEmpty() ? FieldExpr.of(top)
                : FieldExpr.of(top, keys.get(0), keys.size() > 1 ? keys.get(1) : null);
    }

    private Expr binary(Binary b) {
        Expr left = convert(b.left());
        Expr right = convert(b.right());
        String symbol = switch (b.op()) {
            case "RLIKE" -> (b.not() ? "NOT " : "") + "RLIKE" + (b.modifier() == null ? "" : " ANY");
            case "IN" -> b.not() ? "NOT IN" : "IN";
            default -> b.op() + (b.modifier() == null ? "" : " " + b.modifier());
        };
        Op op = Op.named(symbol);
        if (op == null) {
            ctx.error(b.pos(), symbol + " is not an operation of BQL", "Use one of + - * / % = != < <= > >= (with ANY or "
                      + "ALL), RLIKE, IN, AND, OR, XOR");
            return null;
        }
        return left == null || right == null ? null : BinaryExpr.of(op, left, right);
    }

    private Expr unary(Op op, Expr operand, BqlAst.Pos pos) {
        if (op == null) {
            ctx.error(pos, "an unknown function", "Use NOT, SIZEOF, ABS, TRIM, LOWER, UPPER or HASH");
            return null;
        }
        return operand == null ? null : UnaryExpr.of(op, operand);
    }

    /** SIZEIS, CONTAINSKEY, CONTAINSVALUE, FILTER (two operands); IF, BETWEEN, SUBSTRING, UNIXTIMESTAMP. */
    private Expr call(Call c) {
        List<Expr> args = all(c.args());
        Op op = Op.named(c.function());
        if (op == null) {
            ctx.error(c.pos(), "the function " + c.function() + " is not supported", "Use a function of BQL");
            return null;
        }
        if (op.isBinary()) {
            return args == null ? null : BinaryExpr.of(op, args.get(0), args.get(1));
        }
        return nAry(op, args, c.pos(), name(c));
    }

    private Expr nAry(Op op, List<Expr> operands, BqlAst.Pos pos, String name) {
        int[] counts = op.operandCounts();
        int given = operands == null ? counts[0] : operands.size();
        if (given < counts[0] || given > counts[1]) {
            String expected = counts[0] == counts[1] ? String.valueOf(counts[0]) : counts[0] + " to " + counts[1];
            ctx.error(pos, op.symbol() + " takes " + expected + " arguments, got " + given + " in " + name,
                      op == Op.IF ? "Write IF(condition, then, else)"
                              : op == Op.SUBSTRING ? "Write SUBSTRING(s, start) or SUBSTRING(s, start, length)"
                              : op == Op.UNIX_TIMESTAMP ? "Write UNIXTIMESTAMP(), UNIXTIMESTAMP(t) or UNIXTIMESTAMP(t, 'pattern')"
                              : "Write BETWEEN(value, lower, upper)");
            return null;
        }
        return operands == null ? null : NAryExpr.of(op, operands);
    }
}

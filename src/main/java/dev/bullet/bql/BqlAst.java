package dev.bullet.bql;

import dev.bullet.query.expr.ExprType;

import java.util.List;

/**
 * The parsed form of a BQL statement, before it is mapped onto the JSON query model. Every node knows where it
 * started (1-based line and column) for error messages.
 */
final class BqlAst {
    private BqlAst() {
    }

    /** A position in the text. */
    record Pos(int line, int column) {
        @Override
        public String toString() {
            return "line " + line + ", column " + column;
        }
    }

    sealed interface Expr permits Field, Literal, ListExpr, Binary, Unary, IsNull, Call, Between, Cast, Aggregate,
            CountDistinct, Distribution, TopK, Parens, Unsupported {
        Pos pos();
    }

    /**
     * A field: {@code a}, {@code a.b}, {@code a[0]}, {@code a['k']}, {@code a[0].b}, {@code a[b]}, {@code a[0][1]}.
     *
     * @param segments map keys (String), list indices (Integer) and keys computed by an expression ({@link Expr}: the
     *                 grammar's {@code field[expression]}, and an index after a key, {@code a[0][1]}), from the top
     * @param name     how bullet-bql names the column, e.g. {@code a['k']}
     * @param hint     the type of a type hint ({@code a : STRING}), or null: it types the field for bullet-bql's type
     *                 checks ({@link BqlTypeChecker}) and is not a cast
     */
    record Field(List<Object> segments, String name, Pos pos, ExprType hint) implements Expr {
        Field(List<Object> segments, String name, Pos pos) {
            this(segments, name, pos, null);
        }

        /** Whether a key is computed by an expression: then the field has no plain path. */
        boolean computed() {
            return segments.stream().anyMatch(s -> s instanceof Expr);
        }
    }

    /** A literal: String, Integer, Long, Float, Double, Boolean, or null. */
    record Literal(Object value, Pos pos) implements Expr {
    }

    /** {@code [a, b]} or {@code (a, b)} after IN. */
    record ListExpr(List<Expr> items, boolean parenthesized, Pos pos) implements Expr {
    }

    /**
     * An infix operation.
     *
     * @param op       {@code + - * / % = != < <= > >= RLIKE IN AND OR XOR}
     * @param modifier {@code ANY}, {@code ALL} or null
     * @param not      a leading NOT ({@code NOT IN}, {@code NOT RLIKE})
     */
    record Binary(String op, String modifier, boolean not, Expr left, Expr right, Pos pos) implements Expr {
    }

    /** {@code NOT x}, {@code SIZEOF(x)}, {@code -x} and the other one-argument functions. */
    record Unary(String op, Expr operand, boolean parenthesized, Pos pos) implements Expr {
    }

    record IsNull(Expr operand, boolean not, Pos pos) implements Expr {
    }

    /** A function of several arguments: SIZEIS, CONTAINSKEY, CONTAINSVALUE and those the model cannot run. */
    record Call(String function, List<Expr> args, Pos pos) implements Expr {
    }

    /** {@code value [NOT] BETWEEN (lower, upper)}. */
    record Between(Expr value, Expr lower, Expr upper, boolean not, Pos pos) implements Expr {
    }

    /** {@code CAST(operand AS type)}; {@code type} one of INTEGER, LONG, FLOAT, DOUBLE, BOOLEAN, STRING. */
    record Cast(Expr operand, String type, Pos pos) implements Expr {
    }

    /** {@code COUNT(*)} (operand null), {@code SUM(x)}, {@code AVG(x)}, {@code MIN(x)}, {@code MAX(x)}. */
    record Aggregate(String op, Expr operand, Pos pos) implements Expr {
    }

    record CountDistinct(List<Expr> operands, Pos pos) implements Expr {
    }

    /**
     * {@code QUANTILE|FREQ|CUMFREQ(x, LINEAR, n | REGION, start, end, increment | MANUAL, p, ...)}.
     *
     * @param numbers the numbers after the mode
     */
    record Distribution(String type, Expr operand, String mode, List<Double> numbers, Pos pos) implements Expr {
    }

    record TopK(long size, Long threshold, List<Expr> operands, Pos pos) implements Expr {
    }

    record Parens(Expr inner, Pos pos) implements Expr {
    }

    /** A construct the grammar accepts but the model cannot express; {@code what} names it. */
    record Unsupported(String what, String resolution, Pos pos) implements Expr {
    }

    /** One item of the SELECT list: {@code expr} (null for {@code *}) and its alias (or null). */
    record SelectItem(Expr expr, String alias, Pos pos) {
    }

    /** {@code [OUTER] EXPLODE(field) AS keyAlias} or {@code AS (keyAlias, valueAlias)} (valueAlias null for a list). */
    record TableFn(boolean outer, Expr field, String keyAlias, String valueAlias, Pos pos) {
    }

    record SortItem(Expr expr, boolean descending) {
    }

    /** {@code WINDOWING EVERY(...)} or {@code TUMBLING(...)}; {@code includeUnit} null for TUMBLING. */
    record Window(long every, String emitUnit, String includeUnit, Long first, Pos pos) {
    }

    /**
     * A whole statement.
     *
     * @param duration the STREAM duration in ms, {@link Long#MAX_VALUE} for MAX, or null for {@code STREAM()}
     * @param lateralViews the table functions of {@code LATERAL VIEW ... [LATERAL VIEW ...]}, in order; empty if none
     * @param selectTableFunctions the table functions of the SELECT list (bullet-bql allows one), in order
     * @param subquery the inner query of {@code FROM (subquery)}, this query being its outer query; or null
     */
    record Query(boolean distinct, List<SelectItem> select, Long duration, Expr where, List<Expr> groupBy, Expr having,
                 List<SortItem> orderBy, Window window, Long limit, Pos limitPos, List<TableFn> lateralViews,
                 List<TableFn> selectTableFunctions, Query subquery) {
        /** This query without its subquery: the outer query of {@code FROM (subquery)}. */
        Query outer() {
            return new Query(distinct, select, duration, where, groupBy, having, orderBy, window, limit, limitPos,
                             lateralViews, selectTableFunctions, null);
        }
    }
}

/**
 * Stage 2, beside {@code query}: the expression model of bullet-core 1.5.2 (computed columns, expression filters),
 * immutable and validated once. Uses only {@code dev.bullet}, {@code common} and {@code record}; the evaluators that
 * run it live in {@code querying.eval}.
 *
 * <p>Nodes ({@link dev.bullet.query.expr.Expr}): {@link dev.bullet.query.expr.FieldExpr},
 * {@link dev.bullet.query.expr.ValueExpr}, {@link dev.bullet.query.expr.ListExpr},
 * {@link dev.bullet.query.expr.UnaryExpr}, {@link dev.bullet.query.expr.BinaryExpr},
 * {@link dev.bullet.query.expr.NAryExpr}, {@link dev.bullet.query.expr.CastExpr}; operations
 * ({@link dev.bullet.query.expr.Op}) and types ({@link dev.bullet.query.expr.ExprType}) are bullet-core's.
 *
 * <p>The JSON form, one object per node ({@link dev.bullet.query.expr.ExprJson} writes it,
 * {@link dev.bullet.query.expr.ExprParser} reads it and lists every problem with a resolution):
 * <table>
 * <caption>expression JSON</caption>
 * <tr><td>field</td><td>{@code {"field":"a"}}; a map key {@code {"field":"m","key":"k"}}; a list index
 *     {@code {"field":"l","key":0}}; a key and sub-key {@code {"field":"l","key":0,"subKey":"k"}}; a key computed by an
 *     expression {@code {"field":"m","key":{"field":"k"}}}; an optional declared type {@code "type":"LONG"}</td></tr>
 * <tr><td>value</td><td>{@code {"value":5,"type":"INTEGER"}}, {@code {"value":"x","type":"STRING"}},
 *     {@code {"value":null,"type":"NULL"}}, {@code {"value":"NaN","type":"DOUBLE"}} (NaN and the infinities are
 *     strings); without {@code "type"} a whole number that fits an int is INTEGER, else LONG, else DOUBLE</td></tr>
 * <tr><td>list</td><td>{@code {"list":[{"value":1,"type":"INTEGER"},{"field":"b"}]}}</td></tr>
 * <tr><td>unary</td><td>{@code {"op":"SIZEOF","operand":{"field":"a"}}} (NOT, SIZEOF, IS NULL, IS NOT NULL, TRIM, ABS,
 *     LOWER, UPPER, HASH)</td></tr>
 * <tr><td>binary</td><td>{@code {"op":"+","left":{"field":"a"},"right":{"value":5,"type":"INTEGER"}}} (+ - * / %,
 *     = != &gt; &lt; &gt;= &lt;= and each with " ANY" / " ALL", RLIKE, RLIKE ANY, NOT RLIKE, NOT RLIKE ANY, SIZEIS,
 *     CONTAINSKEY, CONTAINSVALUE, IN, NOT IN, AND, OR, XOR, FILTER)</td></tr>
 * <tr><td>n-ary</td><td>{@code {"op":"IF","operands":[c, then, else]}} (a missing branch fails when taken; AND, OR,
 *     IF, BETWEEN, NOT BETWEEN: value,
 *     lower, upper; SUBSTRING: string, start[, length]; UNIXTIMESTAMP: [date[, pattern]])</td></tr>
 * <tr><td>cast</td><td>{@code {"cast":{"field":"a"},"type":"DOUBLE"}} (any type but NULL and UNKNOWN)</td></tr>
 * </table>
 * An op is spelled as in BQL ({@code "= ANY"}, {@code "IS NULL"}) or by its constant name ({@code "EQUALS_ANY"}).
 * Unknown keys, wrong operand counts, values that do not fit their type and literal RLIKE patterns RE2/J cannot
 * compile are errors.
 */
package dev.bullet.query.expr;

package dev.bullet.bql;

import static dev.bullet.bql.BqlNames.name;
import static dev.bullet.bql.BqlNames.strip;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import dev.bullet.bql.BqlAst.Between;
import dev.bullet.bql.BqlAst.Binary;
import dev.bullet.bql.BqlAst.Call;
import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.Field;
import dev.bullet.bql.BqlAst.IsNull;
import dev.bullet.bql.BqlAst.ListExpr;
import dev.bullet.bql.BqlAst.Literal;
import dev.bullet.bql.BqlAst.SelectItem;
import dev.bullet.bql.BqlAst.Unary;
import dev.bullet.bql.BqlAst.Unsupported;
import dev.bullet.query.expr.ExprJson;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * WHERE and HAVING: a condition as the model's filter clauses, under BQL's three-valued logic. A comparison with a
 * missing field is neither true nor false, so {@code NOT} is pushed down to the leaves in a null-safe form. WHERE
 * tests record fields; HAVING tests the result columns of a GROUP BY.
 *
 * <p>WHERE is split into its top-level AND conjuncts. Each conjunct the clauses express exactly stays a clause (the
 * index serves those); any other (arithmetic, functions, CAST, XOR, BETWEEN, a value left of ANY/ALL, a computed key,
 * an OR mixing such a condition with a comparison, ...) becomes an expression filter, built by {@link ExprBuilder}.
 * Only when it cannot be an expression either does it stay an error.
 */
final class FilterTranslator extends ClauseTranslator {
    FilterTranslator(TranslationContext ctx) {
        super(ctx);
    }

    /** How deep in NOT, AND and OR a typed comparison gets the exact expression filter beside its clause. */
    static final int EXACT_CHECK_DEPTH = 8;

    JsonArray filters() {
        if (q.where() == null) {
            return null;
        }
        JsonArray filters = new JsonArray();
        List<Expr> conjuncts = new ArrayList<>();
        flattenAnd(q.where(), conjuncts);
        ExprBuilder expressions = new ExprBuilder(ctx, "WHERE");
        for (Expr e : conjuncts) {
            if (interval(e, expressions, filters)) {
                continue;
            }
            if (comparesWithZero(e, EXACT_CHECK_DEPTH) && expressionOnly(e, expressions, filters)) {
                continue;
            }
            int mark = ctx.mark();
            JsonObject c = clause(e, false, null, "WHERE");
            if (ctx.mark() != mark) {
                ctx.rollBack(mark);
                List<Expr> aggregates = new ArrayList<>();
                BqlTranslator.collectAggregates(e, aggregates);
                if (aggregates.isEmpty()) {
                    expressionFilter(e, expressions, filters);
                } else {
                    clause(e, false, null, "WHERE");
                }
            } else {
                if (c != null && c.has("clauses") && c.get("operation").getAsString().equals("AND")) {
                    c.getAsJsonArray("clauses").forEach(filters::add);
                } else if (c != null) {
                    filters.add(c);
                }
                if (c != null && needsExactCheck(e, EXACT_CHECK_DEPTH)) {
                    exactCheck(e, expressions, filters);
                }
            }
        }
        return filters;
    }

    /**
     * Whether the clauses of a condition may keep a record bullet-core drops, so that the conjunct keeps its clause
     * (which the index serves, and which holds for every record bullet-core keeps) and gets the exact expression
     * filter as well:
     * <ul>
     * <li>a comparison with a number or a boolean: the clauses compare a numeric string with a number by its value
     *     ({@code "70" > 65}), where bullet-core cannot compare a STRING with a LONG and drops the record;</li>
     * <li>a comparison of two fields: bullet-core drops a record where one is missing or of another type;</li>
     * <li>a negation ({@code NOT}, {@code !=}, {@code NOT IN}, {@code NOT RLIKE}): bullet-core's comparison of values
     *     it cannot compare (a boolean with a string, a map with a string) is no answer, and its negation no answer
     *     either, where the clauses' false becomes true;</li>
     * <li>RLIKE, SIZEIS, CONTAINSKEY and CONTAINSVALUE: bullet-core drops a value of another kind (a number under
     *     RLIKE, a boolean or a number sought in a list of strings, a map of maps of mixed values);</li>
     * <li>a list element ({@code l[2]}): bullet-core drops a record whose list is shorter.</li>
     * </ul>
     * What is left, comparisons of fields with strings, keeps the model's reading (a string cast to a numeric field's
     * type, docs/DECISIONS.md). Not a condition nested deeper than {@link #EXACT_CHECK_DEPTH} NOT, AND and OR: its
     * expression could pass the query's bound on nesting where its clause, NOT pushed down, does not.
     */
    private static boolean needsExactCheck(Expr e, int depth) {
        e = strip(e);
        if (depth == 0) {
            return false;
        }
        if (e instanceof Unary u) {
            return u.op().equals("NOT") ? shallow(u.operand(), depth - 1) : needsExactCheck(u.operand(), depth - 1);
        }
        if (e instanceof Call) {
            return true;
        }
        if (e instanceof IsNull n) {
            return listElement(n.operand());
        }
        if (!(e instanceof Binary b)) {
            return false;
        }
        if (b.op().equals("AND") || b.op().equals("OR")) {
            return needsExactCheck(b.left(), depth - 1) || needsExactCheck(b.right(), depth - 1);
        }
        if (b.not() || b.op().equals("!=") || b.op().equals("RLIKE")) {
            return true;
        }
        if (!Set.of("=", "<", "<=", ">", ">=", "IN").contains(b.op())) {
            return false;
        }
        return typedOperand(b.left()) || typedOperand(b.right()) || listElement(b.left()) || listElement(b.right())
               || strip(b.left()) instanceof Field && strip(b.right()) instanceof Field;
    }

    /** Whether a condition nests fewer than {@code depth} NOT, AND and OR. */
    private static boolean shallow(Expr e, int depth) {
        e = strip(e);
        if (depth == 0) {
            return false;
        }
        if (e instanceof Unary u) {
            return shallow(u.operand(), depth - 1);
        }
        if (e instanceof Binary b && (b.op().equals("AND") || b.op().equals("OR"))) {
            return shallow(b.left(), depth - 1) && shallow(b.right(), depth - 1);
        }
        return true;
    }

    /** A field reached through a list element ({@code l[2]}, {@code lm[0].k}). */
    private static boolean listElement(Expr e) {
        return strip(e) instanceof Field f && f.segments().stream().anyMatch(s -> s instanceof Integer);
    }

    /**
     * Whether a condition compares with a numeric zero where the clause could drop a record bullet-core keeps:
     * bullet-core orders {@code -0.0} below {@code 0} (as {@code Double.compareTo} does), where the clauses compare
     * numbers by value. {@code d < 0}, {@code d > -0.0} and {@code d != 0} (and any zero under a NOT, which the clauses
     * push down) answer false for a zero of the other sign, bullet-core true; {@code =}, {@code IN}, {@code <=} and
     * {@code >=} keep a superset, which the exact expression beside them narrows. Such a conjunct is an expression
     * filter alone.
     */
    private static boolean comparesWithZero(Expr e, int depth) {
        return comparesWithZero(e, depth, false);
    }

    private static boolean comparesWithZero(Expr e, int depth, boolean negated) {
        e = strip(e);
        if (depth == 0) {
            return false;
        }
        if (e instanceof Unary u) {
            return comparesWithZero(u.operand(), depth - 1, negated || u.op().equals("NOT"));
        }
        if (!(e instanceof Binary b)) {
            return false;
        }
        if (b.op().equals("AND") || b.op().equals("OR")) {
            return comparesWithZero(b.left(), depth - 1, negated) || comparesWithZero(b.right(), depth - 1, negated);
        }
        boolean unsafe = negated || b.not() || Set.of("<", ">", "!=").contains(b.op());
        return unsafe && (zero(b.left()) || zero(b.right()));
    }

    /** A numeric zero literal, or a list holding one. */
    private static boolean zero(Expr e) {
        e = strip(e);
        if (e instanceof ListExpr l) {
            return l.items().stream().anyMatch(FilterTranslator::zero);
        }
        return e instanceof Literal l && l.value() instanceof Number n && n.doubleValue() == 0;
    }

    /** Adds a conjunct as an expression filter alone; false, with nothing added, when it is no expression. */
    private boolean expressionOnly(Expr e, ExprBuilder expressions, JsonArray filters) {
        int mark = ctx.mark();
        var built = expressions.build(e);
        if (ctx.mark() != mark || built == null) {
            ctx.rollBack(mark);
            return false;
        }
        JsonObject filter = new JsonObject();
        filter.add("expression", ExprJson.toJson(built));
        filters.add(filter);
        return true;
    }

    private static boolean typedOperand(Expr e) {
        e = strip(e);
        if (e instanceof ListExpr l) {
            return l.items().stream().anyMatch(FilterTranslator::typedOperand);
        }
        return e instanceof Literal l && l.value() != null && !(l.value() instanceof String);
    }

    /** Whole-number bounds of BETWEEN that a double holds exactly, so the interval and BETWEEN agree on every value. */
    private static final long EXACT_BOUND = 1L << 53;

    /**
     * {@code field BETWEEN (lower, upper)} with whole-number bounds below 2^53 in magnitude: the clauses
     * {@code field >= lower} and {@code field <= upper}, which the index serves as one interval, and the exact BETWEEN
     * beside them as an expression filter (it drops what bullet-core cannot compare: a string, a missing value). False,
     * with nothing added, for any other conjunct: NOT BETWEEN and other BETWEENs are expression filters alone.
     */
    private boolean interval(Expr e, ExprBuilder expressions, JsonArray filters) {
        Expr s = strip(e);
        List<Expr> operands = s instanceof Between b && !b.not() ? List.of(b.value(), b.lower(), b.upper())
                : s instanceof Call c && c.function().equals("BETWEEN") && c.args().size() == 3 ? c.args() : null;
        if (operands == null || !(strip(operands.get(0)) instanceof Field)
            || !wholeBound(operands.get(1)) || !wholeBound(operands.get(2))) {
            return false;
        }
        int mark = ctx.mark();
        var built = expressions.build(e);
        JsonObject lower = comparison(new Binary(">=", null, false, operands.get(0), operands.get(1), s.pos()), false,
                                      null, "WHERE");
        JsonObject upper = comparison(new Binary("<=", null, false, operands.get(0), operands.get(2), s.pos()), false,
                                      null, "WHERE");
        if (ctx.mark() != mark || built == null || lower == null || upper == null) {
            ctx.rollBack(mark);
            return false;
        }
        filters.add(lower);
        filters.add(upper);
        JsonObject filter = new JsonObject();
        filter.add("expression", ExprJson.toJson(built));
        filters.add(filter);
        return true;
    }

    private static boolean wholeBound(Expr e) {
        if (!(strip(e) instanceof Literal l) || !(l.value() instanceof Integer || l.value() instanceof Long)) {
            return false;
        }
        long bound = ((Number) l.value()).longValue();
        return bound > -EXACT_BOUND && bound < EXACT_BOUND;
    }

    /** Adds the exact expression filter of a conjunct the clauses also test; nothing when it is no expression. */
    private void exactCheck(Expr e, ExprBuilder expressions, JsonArray filters) {
        int mark = ctx.mark();
        var built = expressions.build(e);
        if (ctx.mark() != mark || built == null) {
            ctx.rollBack(mark);
            return;
        }
        JsonObject filter = new JsonObject();
        filter.add("expression", ExprJson.toJson(built));
        filters.add(filter);
    }

    /**
     * Adds a conjunct the clauses cannot express exactly as an expression filter ({@code {"expression": ...}}, kept
     * when TRUE, as bullet-core's filter keeps a record), or records why it cannot be an expression either. (A
     * conjunct with an aggregate is left to the clauses' error: the query's check names the aggregate.)
     */
    private void expressionFilter(Expr e, ExprBuilder expressions, JsonArray filters) {
        var built = expressions.build(e);
        if (built != null) {
            JsonObject filter = new JsonObject();
            filter.add("expression", ExprJson.toJson(built));
            filters.add(filter);
        }
    }

    private static void flattenAnd(Expr e, List<Expr> out) {
        Expr s = strip(e);
        if (s instanceof Binary b && b.op().equals("AND")) {
            flattenAnd(b.left(), out);
            flattenAnd(b.right(), out);
        } else {
            out.add(s);
        }
    }

    /**
     * The clause for a condition, negated when {@code negate}. {@code columns} maps usable names to result columns
     * (HAVING), or is null for record fields (WHERE). Null when it cannot be expressed (an error is recorded).
     */
    JsonObject clause(Expr e, boolean negate, Map<String, String> columns, String where) {
        e = strip(e);
        if (e instanceof Binary b && (b.op().equals("AND") || b.op().equals("OR"))) {
            return junction(b, negate, columns, where);
        }
        if (e instanceof Unary u && u.op().equals("NOT")) {
            return clause(u.operand(), !negate, columns, where);
        }
        if (e instanceof IsNull n) {
            String field = operandField(n.operand(), columns, where);
            if (field == null) {
                return null;
            }
            return relational(field, n.not() != negate ? "!=" : "==", nullValues());
        }
        if (columns != null && e instanceof Binary b && HavingTypes.mismatch(b, q) != null) {
            error(b.pos(), HavingTypes.mismatch(b, q), "Compare with a literal of the column's type, e.g. HAVING COUNT(*) >= 5");
            return null;
        }
        if (e instanceof Binary b && Set.of("=", "!=", "<", "<=", ">", ">=").contains(b.op())) {
            return comparison(b, negate, columns, where);
        }
        if (e instanceof Binary b && b.op().equals("IN")) {
            String field = operandField(b.left(), columns, where);
            JsonArray values = literalList(b.right(), where, "IN");
            if (field == null || values == null) {
                return null;
            }
            return relational(field, b.not() != negate ? "!=" : "==", values);
        }
        if (e instanceof Binary b && b.op().equals("RLIKE")) {
            return rlike(b, negate, columns, where);
        }
        if (e instanceof Call c && Set.of("SIZEIS", "CONTAINSKEY", "CONTAINSVALUE").contains(c.function())) {
            return collectionTest(c, negate, columns, where);
        }
        return unsupportedCondition(e, where);
    }

    /** AND or OR of two conditions; under {@code negate}, the other one of them over the negated conditions. */
    private JsonObject junction(Binary b, boolean negate, Map<String, String> columns, String where) {
        boolean and = b.op().equals("AND") != negate;
        JsonObject left = clause(b.left(), negate, columns, where);
        JsonObject right = clause(b.right(), negate, columns, where);
        if (left == null || right == null) {
            return null;
        }
        JsonArray clauses = new JsonArray();
        clauses.add(left);
        clauses.add(right);
        JsonObject o = new JsonObject();
        o.addProperty("operation", and ? "AND" : "OR");
        o.add("clauses", clauses);
        return o;
    }

    /** {@code field RLIKE 'pattern'} and {@code field RLIKE ANY ('p1', 'p2')}. */
    private JsonObject rlike(Binary b, boolean negate, Map<String, String> columns, String where) {
        String field = operandField(b.left(), columns, where);
        Expr right = strip(b.right());
        JsonArray values = b.modifier() != null ? literalList(right, where, "RLIKE ANY")
                : right instanceof Literal l && l.value() instanceof String ? single(l.value().toString()) : null;
        if (values == null && b.modifier() == null) {
            error(b.right().pos(), "RLIKE takes a pattern in single quotes, got " + name(b.right()),
                  "Write field RLIKE '.*text.*'");
        }
        if (field == null || values == null) {
            return null;
        }
        return negatable(field, relational(field, "RLIKE", values), b.not() != negate);
    }

    /** {@code SIZEIS(field, n)}, {@code CONTAINSKEY(field, 'k')}, {@code CONTAINSVALUE(field, v)}. */
    private JsonObject collectionTest(Call c, boolean negate, Map<String, String> columns, String where) {
        String field = operandField(c.args().get(0), columns, where);
        Expr arg = strip(c.args().get(1));
        if (!(arg instanceof Literal l) || l.value() == null) {
            error(arg.pos(), c.function() + " takes a literal as its second argument, got " + name(arg),
                  "Write " + c.function() + "(field, " + (c.function().equals("SIZEIS") ? "3" : "'key'") + ")");
            return null;
        }
        if (field == null) {
            return null;
        }
        return negatable(field, relational(field, c.function(), single(literalText(l))), negate);
    }

    /** Null, with the error for a condition the model has no clause for. */
    private JsonObject unsupportedCondition(Expr e, String where) {
        if (e instanceof Unsupported u) {
            error(u.pos(), u.what() + " is not supported", u.resolution());
            return null;
        }
        if (e instanceof Binary b && b.op().equals("XOR")) {
            error(b.pos(), "XOR is not supported", "Write (a AND NOT b) OR (NOT a AND b)");
            return null;
        }
        error(e.pos(), "the condition " + name(e) + " in " + where + " is not supported",
              "Compare a field with a literal or another field (=, !=, <, <=, >, >=), or use IN, RLIKE, IS NULL, "
              + "SIZEOF(field) = n, CONTAINSKEY(field, 'k'), CONTAINSVALUE(field, v), combined with AND, OR, NOT");
        return null;
    }

    /** A comparison ({@code = != < <= > >=}, optionally with ANY/ALL), the literal moved to the right. */
    private JsonObject comparison(Binary b, boolean negate, Map<String, String> columns, String where) {
        Expr left = strip(b.left());
        Expr right = strip(b.right());
        String op = b.op();
        if (left instanceof Literal && b.modifier() != null) {
            error(b.pos(), "a value on the left of " + op + " " + b.modifier() + " (" + name(b) + ") is not supported: it "
                           + "tests the elements of a list field, which the model cannot compare with " + op,
                  "Put the field on the left and the values in a list on the right (n " + op + " " + b.modifier()
                  + " [1, 2]), or test an element by index: " + name(right) + "[0] " + mirror(op) + " " + name(left));
            return null;
        }
        if (left instanceof Literal && !(right instanceof Literal)) {
            Expr t = left;
            left = right;
            right = t;
            op = mirror(op);
        }
        if (left instanceof Unary u && u.op().equals("SIZEOF")) {
            return sizeOf(b, u, right, op, negate, columns, where);
        }
        String field = operandField(left, columns, where);
        if (field == null) {
            return null;
        }
        if (b.modifier() != null) {
            return quantified(b, field, right, op, negate, where);
        }
        JsonArray values = comparedValue(left, right, columns, where);
        if (values == null) {
            return null;
        }
        if (negate) {
            op = switch (op) {
                case "=" -> "!=";
                case "!=" -> "=";
                case "<" -> ">=";
                case "<=" -> ">";
                case ">" -> "<=";
                default -> "<";
            };
        }
        return relational(field, op.equals("=") ? "==" : op, values);
    }

    /** The operator with its operands swapped: {@code 5 > n} is {@code n < 5}. */
    private static String mirror(String op) {
        return switch (op) {
            case "<" -> ">";
            case "<=" -> ">=";
            case ">" -> "<";
            case ">=" -> "<=";
            default -> op;
        };
    }

    /** {@code SIZEOF(field) = n} and {@code != n} as SIZEIS; any other comparison of SIZEOF is an error. */
    private JsonObject sizeOf(Binary b, Unary u, Expr right, String op, boolean negate, Map<String, String> columns,
                              String where) {
        if ((op.equals("=") || op.equals("!=")) && b.modifier() == null) {
            String field = operandField(u.operand(), columns, where);
            if (!(right instanceof Literal l) || !(l.value() instanceof Integer || l.value() instanceof Long)) {
                error(right.pos(), "SIZEOF compares with a whole number, got " + name(right), "Write SIZEOF(field) = 3");
                return null;
            }
            if (field == null) {
                return null;
            }
            return negatable(field, relational(field, "SIZEIS", single(l.value().toString())), op.equals("!=") != negate);
        }
        error(b.pos(), "SIZEOF(...) " + op + " is not supported, only SIZEOF(field) = n and != n",
              "Write SIZEOF(field) = 3, or combine several with OR");
        return null;
    }

    /** {@code field op ANY (...)} (true when one value compares true) and {@code field != ALL (...)}. */
    private JsonObject quantified(Binary b, String field, Expr right, String op, boolean negate, String where) {
        boolean any = b.modifier().equals("ANY");
        if (!(any && !op.equals("!=") || !any && op.equals("!="))) {
            error(b.pos(), op + " " + b.modifier() + " is not supported",
                  "Use = ANY, <, <=, >, >= ANY (true when one value compares true), or != ALL (equal to none)");
            return null;
        }
        JsonArray values = literalList(right, where, op + " " + b.modifier());
        if (values == null) {
            return null;
        }
        if (negate) {
            if (!op.equals("=") && !op.equals("!=")) {
                error(b.pos(), "NOT of " + op + " " + b.modifier() + " is not supported", "Write the opposite comparison with ALL/ANY");
                return null;
            }
            op = op.equals("=") ? "!=" : "=";
        }
        return relational(field, op.equals("=") ? "==" : op, values);
    }

    /** The right side of a plain comparison: a typed literal, or another field or result column; null with an error. */
    private JsonArray comparedValue(Expr left, Expr right, Map<String, String> columns, String where) {
        JsonArray values = new JsonArray();
        if (right instanceof Literal l) {
            if (l.value() == null) {
                error(right.pos(), "comparing with NULL is never true in BQL", "Write " + name(left) + " IS NULL or IS NOT NULL");
                return null;
            }
            values.add(typedValue(l));
        } else if (right instanceof Field || columns != null) {
            String other = operandField(right, columns, where);
            if (other == null) {
                return null;
            }
            JsonObject value = new JsonObject();
            value.addProperty("kind", "FIELD");
            value.addProperty("value", other);
            values.add(value);
        } else {
            error(right.pos(), "comparing with " + name(right) + " in " + where + " is not supported",
                  "Compare with a literal ('text', 5, 2.5, true) or another field");
            return null;
        }
        return values;
    }

    /** A record field (WHERE) or a result column (HAVING) used as a clause's field, or null with an error. */
    private String operandField(Expr e, Map<String, String> columns, String where) {
        e = strip(e);
        if (columns != null) {
            String column = aggregateColumns(columns).get(name(e));
            if (column == null) {
                for (SelectItem item : q.select()) {
                    if (item.alias() != null && item.alias().equals(name(e)) && columns.containsKey(item.alias())) {
                        column = item.alias();
                    }
                }
            }
            if (column == null) {
                error(e.pos(), name(e) + " in " + where + " is not a grouped field or an aggregate of the query",
                      "Use a GROUP BY field or an aggregate, e.g. HAVING COUNT(*) > 10");
            }
            return column;
        }
        if (e instanceof Field f) {
            return path(f);
        }
        if (e instanceof Unsupported u) {
            error(u.pos(), u.what() + " is not supported", u.resolution());
            return null;
        }
        error(e.pos(), name(e) + " in " + where + " is not a field: the model compares fields with values",
              "Compare a field (a, a.b, a[0], a['k']) with a literal or another field; arithmetic is not supported in "
              + where);
        return null;
    }

    private JsonArray literalList(Expr e, String where, String what) {
        e = strip(e);
        List<Expr> items = e instanceof ListExpr l ? l.items() : e instanceof Literal ? List.of(e) : null;
        if (items == null || items.isEmpty()) {
            error(e.pos(), what + " needs a list of literals, got " + name(e), "Write " + what + " ('a', 'b') or [1, 2]");
            return null;
        }
        JsonArray values = new JsonArray();
        for (Expr item : items) {
            Expr s = strip(item);
            if (!(s instanceof Literal l) || l.value() == null) {
                error(item.pos(), what + " takes literals other than NULL, got " + name(item),
                      "List literal values; test for null with IS NULL");
                return null;
            }
            values.add(typedValue(l));
        }
        return values;
    }

    /**
     * A literal as a filter value: a string stays a plain value (cast to the field's type, SPEC §6.2); a number or
     * boolean carries its type, so that, as in BQL, {@code id > 5} is not true of {@code id = "a"} by comparing
     * strings.
     */
    private static JsonElement typedValue(Literal l) {
        Object v = l.value();
        if (v instanceof String s) {
            return new JsonPrimitive(s);
        }
        JsonObject value = new JsonObject();
        value.addProperty("kind", "VALUE");
        value.addProperty("value", v.toString());
        value.addProperty("type", v instanceof Boolean ? "BOOLEAN" : v instanceof Integer || v instanceof Long ? "LONG" : "DOUBLE");
        return value;
    }

    private static String literalText(Literal l) {
        return l.value().toString();
    }

    private static JsonArray single(String value) {
        JsonArray a = new JsonArray();
        a.add(value);
        return a;
    }

    private static JsonArray nullValues() {
        JsonArray a = new JsonArray();
        a.add(JsonNull.INSTANCE);
        return a;
    }

    private static JsonObject relational(String field, String op, JsonArray values) {
        JsonObject o = new JsonObject();
        o.addProperty("field", field);
        o.addProperty("operation", op);
        o.add("values", values);
        return o;
    }

    /**
     * A clause, or its null-safe negation: in BQL the test of a missing or null field is unknown, and so is its
     * NOT; the model's NOT would make it true, so the negation also requires the field to be present.
     */
    private static JsonObject negatable(String field, JsonObject clause, boolean negate) {
        if (!negate) {
            return clause;
        }
        JsonObject not = new JsonObject();
        not.addProperty("operation", "NOT");
        JsonArray inner = new JsonArray();
        inner.add(clause);
        not.add("clauses", inner);
        JsonArray both = new JsonArray();
        both.add(relational(field, "!=", nullValues()));
        both.add(not);
        JsonObject and = new JsonObject();
        and.addProperty("operation", "AND");
        and.add("clauses", both);
        return and;
    }

    /** Columns that HAVING may use: output names, reachable by BQL name or by alias. */
    private static Map<String, String> aggregateColumns(Map<String, String> columns) {
        Map<String, String> byName = new LinkedHashMap<>();
        columns.forEach((out, bqlName) -> {
            byName.put(out, out);
            byName.putIfAbsent(bqlName, out);
        });
        return byName;
    }
}

package dev.bullet.query;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.bullet.common.Limits;
import dev.bullet.query.expr.Expr;
import dev.bullet.query.expr.ExprParser;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static dev.bullet.query.JsonShapes.*;

/**
 * Post-aggregations (SPEC §6.5): ORDERBY, COMPUTATION and HAVING in the original Bullet's forms (field names, an
 * arithmetic expression, a clause) and in bullet-core 1.5.2's over expressions (sort items, named columns, a
 * condition), and CULLING.
 */
final class PostAggregationParser {
    /** Where a post-aggregation sits: the query (1), postAggregations (2), the step (3). */
    private static final int STEP_DEPTH = 3;

    private final Problems problems;
    private final FilterParser filters;
    private final Limits limits;

    PostAggregationParser(Problems problems, FilterParser filters, Limits limits) {
        this.problems = problems;
        this.filters = filters;
        this.limits = limits;
    }

    List<PostAggregation> parse(JsonElement e) {
        if (absent(e)) {
            return List.of();
        }
        if (!e.isJsonArray()) {
            problems.error("\"postAggregations\" must be a list, got " + describe(e),
                  "Write \"postAggregations\": [{\"type\": \"ORDERBY\", \"fields\": [\"COUNT\"], \"direction\": \"DESC\"}]");
            return List.of();
        }
        List<PostAggregation> result = new ArrayList<>();
        JsonArray array = e.getAsJsonArray();
        for (int i = 0; i < array.size(); i++) {
            PostAggregation p = postAggregation(array.get(i), "postAggregations[" + i + "]");
            if (p != null) {
                result.add(p);
            }
        }
        return result;
    }

    private PostAggregation postAggregation(JsonElement e, String where) {
        if (e == null || !e.isJsonObject()) {
            problems.error(where + ": a post-aggregation must be an object, got " + describe(e),
                  "Write {\"type\": \"ORDERBY\" | \"COMPUTATION\" | \"HAVING\" | \"CULLING\", ...}");
            return null;
        }
        JsonObject o = e.getAsJsonObject();
        JsonElement t = o.get("type");
        String type = isString(t) ? t.getAsString().trim().toUpperCase(Locale.ROOT) : "";
        switch (type) {
            case "ORDERBY":
                return orderBy(o, where);
            case "COMPUTATION":
                return computation(o, where);
            case "HAVING":
                return having(o, where);
            case "CULLING":
                return culling(o, where);
            default:
                problems.error(where + ": unknown post-aggregation type " + describe(t),
                               "Use one of: ORDERBY, COMPUTATION, HAVING, CULLING");
                return null;
        }
    }

    private PostAggregation having(JsonObject o, String where) {
        JsonElement filter = o.get("filter");
        JsonElement expression = o.get("expression");
        if (!absent(expression)) {
            if (!absent(filter)) {
                problems.error(where + ": HAVING has both a \"filter\" and an \"expression\"", "Keep one of them");
                return null;
            }
            Expr condition = expr(expression, where + ".expression", STEP_DEPTH + 1);
            return condition == null ? null : new PostAggregation.Filter(condition);
        }
        if (absent(filter)) {
            problems.error(where + ": HAVING needs a \"filter\" clause or an \"expression\"",
                  "Add \"filter\": {\"field\": \"COUNT\", \"operation\": \">\", \"values\": [\"10\"]}, or \"expression\": "
                  + "{\"op\": \">\", \"left\": {\"field\": \"COUNT\"}, \"right\": {\"value\": 10, \"type\": \"LONG\"}}");
            return null;
        }
        Clause clause = filters.parseClause(filter, where + ".filter");
        return clause == null ? null : new PostAggregation.Having(clause);
    }

    private PostAggregation culling(JsonObject o, String where) {
        JsonElement f = o.get("fields");
        List<String> fields = new ArrayList<>();
        if (f != null && f.isJsonArray()) {
            for (JsonElement x : f.getAsJsonArray()) {
                if (!isString(x) || x.getAsString().isEmpty()) {
                    problems.error(where + ": CULLING fields must be non-empty strings, got " + describe(x),
                                   "List the names of the columns to remove");
                    return null;
                }
                fields.add(x.getAsString());
            }
        }
        if (fields.isEmpty()) {
            problems.error(where + ": CULLING needs a non-empty list of \"fields\"", "Write \"fields\": [\"a\"]");
            return null;
        }
        return new PostAggregation.Culling(fields);
    }

    private Expr expr(JsonElement e, String where, int depth) {
        ExprParser.Result result = ExprParser.parse(e, where, depth, limits);
        result.errors().forEach(problems::error);
        return result.ok() ? result.expr() : null;
    }

    private PostAggregation orderBy(JsonObject o, String where) {
        JsonElement f = o.get("fields");
        if (f != null && f.isJsonArray() && !f.getAsJsonArray().isEmpty() && f.getAsJsonArray().get(0).isJsonObject()) {
            return sort(f.getAsJsonArray(), o, where);
        }
        List<String> fields = new ArrayList<>();
        if (f != null && f.isJsonArray()) {
            for (JsonElement x : f.getAsJsonArray()) {
                if (isString(x) && !x.getAsString().isEmpty()) {
                    fields.add(x.getAsString());
                } else {
                    problems.error(where + ": ORDERBY fields must be non-empty strings, got " + describe(x), "List the column names to sort by");
                    return null;
                }
            }
        }
        if (fields.isEmpty()) {
            problems.error(where + ": ORDERBY needs a non-empty list of \"fields\"", "Write \"fields\": [\"COUNT\"]");
            return null;
        }
        boolean descending = false;
        JsonElement d = o.get("direction");
        if (!absent(d)) {
            String dir = isString(d) ? d.getAsString().trim().toUpperCase(Locale.ROOT) : "";
            if (dir.equals("DESC")) {
                descending = true;
            } else if (!dir.equals("ASC")) {
                problems.error(where + ": ORDERBY direction must be ASC or DESC, got " + describe(d), "Use \"ASC\" or \"DESC\"");
                return null;
            }
        }
        return new PostAggregation.OrderBy(fields, descending);
    }

    /** bullet-core's ORDERBY: {@code "fields": [{"expression": E, "direction": "ASC" | "DESC"}, ...]}. */
    private PostAggregation sort(JsonArray fields, JsonObject o, String where) {
        if (!absent(o.get("direction"))) {
            problems.error(where + ": an ORDERBY of expressions gives each its own \"direction\"",
                           "Move \"direction\" into each {\"expression\": ..., \"direction\": \"DESC\"}");
            return null;
        }
        List<PostAggregation.SortItem> items = new ArrayList<>();
        boolean ok = true;
        for (int i = 0; i < fields.size(); i++) {
            String at = where + ".fields[" + i + "]";
            JsonElement item = fields.get(i);
            if (!item.isJsonObject() || absent(item.getAsJsonObject().get("expression"))) {
                problems.error(at + ": a sort item must be {\"expression\": <expression>, \"direction\": \"ASC\" | \"DESC\"}, got "
                               + describe(item), "Write {\"expression\": {\"field\": \"COUNT\"}, \"direction\": \"DESC\"}");
                ok = false;
                continue;
            }
            JsonObject sortItem = item.getAsJsonObject();
            Boolean descending = direction(sortItem.get("direction"), at);
            Expr expression = expr(sortItem.get("expression"), at + ".expression", STEP_DEPTH + 3);
            if (descending == null || expression == null) {
                ok = false;
            } else {
                items.add(new PostAggregation.SortItem(expression, descending));
            }
        }
        return ok ? new PostAggregation.Sort(items) : null;
    }

    /** Whether a direction is DESC (absent: ASC); null with an error for anything else. */
    private Boolean direction(JsonElement d, String where) {
        if (absent(d)) {
            return false;
        }
        String dir = isString(d) ? d.getAsString().trim().toUpperCase(Locale.ROOT) : "";
        if (!dir.equals("ASC") && !dir.equals("DESC")) {
            problems.error(where + ": the direction must be ASC or DESC, got " + describe(d), "Use \"ASC\" or \"DESC\"");
            return null;
        }
        return dir.equals("DESC");
    }

    private PostAggregation computation(JsonObject o, String where) {
        JsonElement columns = o.get("fields");
        if (!absent(columns)) {
            return compute(columns, o, where);
        }
        JsonElement n = o.get("newName");
        if (!isString(n) || n.getAsString().isEmpty()) {
            problems.error(where + ": COMPUTATION needs a \"newName\"", "Add \"newName\": \"<output column>\"");
        }
        Expression expression = expression(o.get("expression"), where + ".expression");
        if (expression == null || !isString(n) || n.getAsString().isEmpty()) {
            return null;
        }
        return new PostAggregation.Computation(expression, n.getAsString());
    }

    /** bullet-core's COMPUTATION: {@code "fields": {"name": E, ...}}. */
    private PostAggregation compute(JsonElement columns, JsonObject o, String where) {
        if (!absent(o.get("expression")) || !absent(o.get("newName"))) {
            problems.error(where + ": a COMPUTATION has either \"fields\" or \"expression\" with \"newName\"", "Keep one form");
            return null;
        }
        if (!columns.isJsonObject() || columns.getAsJsonObject().size() == 0) {
            problems.error(where + ": COMPUTATION \"fields\" must be a non-empty object of named expressions, got "
                           + describe(columns), "Write \"fields\": {\"total\": {\"op\": \"+\", \"left\": ..., \"right\": ...}}");
            return null;
        }
        List<ComputedField> fields = new ArrayList<>();
        boolean ok = true;
        for (Map.Entry<String, JsonElement> column : columns.getAsJsonObject().entrySet()) {
            if (column.getKey().isEmpty()) {
                problems.error(where + ".fields: a column's name is empty", "Give each computed column a name");
                ok = false;
                continue;
            }
            Expr expression = expr(column.getValue(), where + ".fields." + column.getKey(), STEP_DEPTH + 2);
            if (expression == null) {
                ok = false;
            } else {
                fields.add(new ComputedField(column.getKey(), expression));
            }
        }
        return ok ? new PostAggregation.Compute(fields) : null;
    }

    private Expression expression(JsonElement e, String where) {
        if (e == null || !e.isJsonObject()) {
            problems.error(where + ": an expression must be an object, got " + describe(e),
                  "Write {\"operation\": \"+\", \"left\": <expr>, \"right\": <expr>} or {\"value\": {\"kind\": \"FIELD\", \"value\": \"x\"}}");
            return null;
        }
        JsonObject o = e.getAsJsonObject();
        if (o.has("value")) {
            JsonElement v = o.get("value");
            if (v == null || !v.isJsonObject()) {
                problems.error(where + ".value must be {\"kind\", \"value\", \"type\"}, got " + describe(v),
                      "Write \"value\": {\"kind\": \"VALUE\", \"value\": \"2\", \"type\": \"LONG\"}");
                return null;
            }
            FilterValue fv = filters.parseTypedValue(v.getAsJsonObject(), where + ".value", false);
            if (fv == null) {
                return null;
            }
            if (fv.kind() == FilterValue.Kind.VALUE && fv.type() != ValueType.STRING && fv.type() != ValueType.BOOLEAN
                && ValueType.DOUBLE.cast(fv.value()) == null) {
                problems.error(where + ": \"" + fv.value() + "\" is not a number", "Give a numeric literal, e.g. \"2\"");
                return null;
            }
            return new Expression.Leaf(fv.kind(), fv.value(), fv.type(), fv.field());
        }
        JsonElement op = o.get("operation");
        String operator = isString(op) ? op.getAsString().trim() : "";
        if (!Set.of("+", "-", "*", "/").contains(operator)) {
            problems.error(where + ": unknown arithmetic operation " + describe(op), "Use one of: +, -, *, /");
            return null;
        }
        Expression left = expression(o.get("left"), where + ".left");
        Expression right = expression(o.get("right"), where + ".right");
        return left == null || right == null ? null : new Expression.Binary(operator.charAt(0), left, right);
    }
}

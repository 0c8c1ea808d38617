package dev.bullet.query;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static dev.bullet.query.JsonShapes.*;

/**
 * Post-aggregations (SPEC §6.5): ORDERBY, COMPUTATION expressions and HAVING.
 */
final class PostAggregationParser {
    private final Problems problems;
    private final FilterParser filters;

    PostAggregationParser(Problems problems, FilterParser filters) {
        this.problems = problems;
        this.filters = filters;
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
                  "Write {\"type\": \"ORDERBY\" | \"COMPUTATION\" | \"HAVING\", ...}");
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
            case "HAVING": {
                JsonElement filter = o.get("filter");
                if (absent(filter)) {
                    problems.error(where + ": HAVING needs a \"filter\" clause",
                          "Add \"filter\": {\"field\": \"COUNT\", \"operation\": \">\", \"values\": [\"10\"]}");
                    return null;
                }
                Clause clause = filters.parseClause(filter, where + ".filter");
                return clause == null ? null : new PostAggregation.Having(clause);
            }
            default:
                problems.error(where + ": unknown post-aggregation type " + describe(t), "Use one of: ORDERBY, COMPUTATION, HAVING");
                return null;
        }
    }

    private PostAggregation orderBy(JsonObject o, String where) {
        JsonElement f = o.get("fields");
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

    private PostAggregation computation(JsonObject o, String where) {
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

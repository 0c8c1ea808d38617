package dev.bullet.query;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.bullet.common.Limits;
import dev.bullet.query.expr.ExprParser;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.bullet.query.JsonShapes.*;

/**
 * The projection (SPEC §6.3) and the named-field lists that aggregations share.
 */
final class ProjectionParser {
    /** Where a computed column's expression sits: the query (1), projection (2), computed (3). */
    private static final int EXPRESSION_DEPTH = 4;

    private final Problems problems;
    private final Limits limits;
    private final List<ComputedField> computed = new ArrayList<>();

    ProjectionParser(Problems problems, Limits limits) {
        this.problems = problems;
        this.limits = limits;
    }

    /**
     * The projection's fields: null to keep the whole record; empty when it has only computed columns
     * ({@link #computed()}).
     */
    List<NamedField> parse(JsonElement e) {
        if (absent(e)) {
            return null;
        }
        JsonObject o = e.isJsonObject() ? e.getAsJsonObject() : null;
        JsonElement fields = o == null ? null : o.get("fields");
        JsonElement columns = o == null ? null : o.get("computed");
        boolean fieldsOk = fields != null && fields.isJsonObject();
        boolean columnsOk = columns != null && columns.isJsonObject();
        if (o == null || !fieldsOk && !columnsOk || fields != null && !fieldsOk || columns != null && !columnsOk) {
            problems.error("\"projection\" must be {\"fields\": {\"<path>\": \"<output name>\", ...}, \"computed\": "
                           + "{\"<output name>\": <expression>, ...}} (either part may be left out), got " + describe(e),
                  "Write \"projection\": {\"fields\": {\"demographics.age\": \"age\"}}");
            return null;
        }
        List<NamedField> named = fieldsOk ? namedFields(fields.getAsJsonObject(), "projection.fields") : List.of();
        if (columnsOk) {
            computedFields(columns.getAsJsonObject(), named);
        }
        return named;
    }

    /** The computed columns of the last {@link #parse}, in order. */
    List<ComputedField> computed() {
        return computed;
    }

    private void computedFields(JsonObject o, List<NamedField> named) {
        for (Map.Entry<String, JsonElement> entry : o.entrySet()) {
            String name = entry.getKey();
            String where = "projection.computed." + name;
            if (name.isEmpty()) {
                problems.error("projection.computed: a column's name is empty", "Give each computed column a name");
                continue;
            }
            if (named.stream().anyMatch(f -> f.name().equals(name))) {
                problems.error(where + ": a projected field has the same output name",
                               "Give the computed column another name");
                continue;
            }
            ExprParser.Result result = ExprParser.parse(entry.getValue(), where, EXPRESSION_DEPTH, limits);
            if (result.ok()) {
                computed.add(new ComputedField(name, result.expr()));
            } else {
                result.errors().forEach(problems::error);
            }
        }
    }

    List<NamedField> namedFields(JsonObject o, String where) {
        List<NamedField> result = new ArrayList<>();
        for (Map.Entry<String, JsonElement> entry : o.entrySet()) {
            String path = entry.getKey();
            JsonElement name = entry.getValue();
            if (path.isEmpty()) {
                problems.error(where + ": a field path is empty", "Give each field's path as a non-empty key");
            } else if (absent(name)) {
                result.add(NamedField.of(path, path));
            } else if (!isString(name) || name.getAsString().isEmpty()) {
                problems.error(where + ": the output name of \"" + path + "\" must be a non-empty string, got " + describe(name),
                      "Write \"" + path + "\": \"" + path + "\"");
            } else {
                result.add(NamedField.of(path, name.getAsString()));
            }
        }
        return result;
    }
}

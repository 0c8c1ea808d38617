package dev.bullet.query;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.bullet.common.Limits;
import dev.bullet.query.expr.ExprParser;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static dev.bullet.query.JsonShapes.absent;
import static dev.bullet.query.JsonShapes.describe;

/**
 * Parses the table function of a query: {@code "lateralView": [explode, ...]} (chained lateral views) or
 * {@code "tableFunction": explode} (EXPLODE in SELECT), where an explode is
 * {@code {"explode": <expression>, "keyAlias": "k", "valueAlias": "v", "outer": true}} ({@code valueAlias} only for
 * a map, {@code outer} false when absent). Every problem goes to {@link Problems}.
 */
final class TableFunctionParser {
    private static final Set<String> KEYS = Set.of("explode", "keyAlias", "valueAlias", "outer");
    private static final String EXAMPLE = "{\"explode\": {\"field\": \"tags\"}, \"keyAlias\": \"tag\"}";

    private final Problems problems;
    private final Limits limits;

    TableFunctionParser(Problems problems, Limits limits) {
        this.problems = problems;
        this.limits = limits;
    }

    /** The table function of {@code "lateralView"} and {@code "tableFunction"} (at most one given), or null. */
    TableFunction parse(JsonElement lateralView, JsonElement tableFunction) {
        if (!absent(lateralView) && !absent(tableFunction)) {
            problems.error("A query has \"lateralView\" or \"tableFunction\", not both",
                           "Keep the lateral view: its records also hold the record's fields");
            return null;
        }
        if (!absent(tableFunction)) {
            Explode explode = explode(tableFunction, "tableFunction", 3);
            return explode == null ? null : new TableFunction(false, List.of(explode));
        }
        if (absent(lateralView)) {
            return null;
        }
        if (!lateralView.isJsonArray() || lateralView.getAsJsonArray().isEmpty()) {
            problems.error("\"lateralView\" must be a non-empty list of explodes, got " + describe(lateralView),
                           "Write \"lateralView\": [" + EXAMPLE + "]");
            return null;
        }
        List<Explode> explodes = new ArrayList<>();
        boolean ok = true;
        for (int i = 0; i < lateralView.getAsJsonArray().size(); i++) {
            Explode explode = explode(lateralView.getAsJsonArray().get(i), "lateralView[" + i + "]", 4);
            ok &= explode != null;
            explodes.add(explode);
        }
        return ok ? new TableFunction(true, explodes) : null;
    }

    private Explode explode(JsonElement e, String where, int depth) {
        if (e == null || !e.isJsonObject()) {
            problems.error(where + " must be an object, got " + describe(e), "Write " + EXAMPLE);
            return null;
        }
        JsonObject o = e.getAsJsonObject();
        boolean ok = true;
        for (String key : o.keySet()) {
            if (!KEYS.contains(key)) {
                problems.error(where + ": unknown member \"" + key + "\"",
                               "Remove it; an explode holds explode, keyAlias, valueAlias (maps only) and outer");
                ok = false;
            }
        }
        ExprParser.Result field = null;
        if (absent(o.get("explode"))) {
            problems.error(where + ": \"explode\" (the expression whose list or map is exploded) is missing",
                           "Write " + EXAMPLE);
            ok = false;
        } else {
            field = ExprParser.parse(o.get("explode"), where + ".explode", depth, limits);
            if (!field.ok()) {
                field.errors().forEach(problems::error);
                ok = false;
            }
        }
        String keyAlias = alias(o.get("keyAlias"), where + ".keyAlias", true);
        String valueAlias = alias(o.get("valueAlias"), where + ".valueAlias", false);
        ok &= keyAlias != null && (valueAlias != null || absent(o.get("valueAlias")));
        if (keyAlias != null && keyAlias.equals(valueAlias)) {
            problems.error(where + ": the key and value aliases are both \"" + keyAlias + "\"",
                           "Give the key and the value different names");
            ok = false;
        }
        JsonElement outer = o.get("outer");
        boolean isOuter = false;
        if (!absent(outer)) {
            if (outer.isJsonPrimitive() && outer.getAsJsonPrimitive().isBoolean()) {
                isOuter = outer.getAsBoolean();
            } else {
                problems.error(where + ".outer must be true or false, got " + describe(outer),
                               "Write \"outer\": true to keep a record whose list or map is missing or empty");
                ok = false;
            }
        }
        return ok ? new Explode(field.expr(), keyAlias, valueAlias, isOuter) : null;
    }

    private String alias(JsonElement e, String where, boolean required) {
        if (absent(e)) {
            if (required) {
                problems.error(where + " (the name of a list's element, or of a map's key) is missing",
                               "Write \"keyAlias\": \"tag\"");
            }
            return null;
        }
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString() || e.getAsString().isEmpty()) {
            problems.error(where + " must be a non-empty string, got " + describe(e),
                           "Write a field name such as \"tag\"");
            return null;
        }
        return e.getAsString();
    }
}

package dev.bullet.query;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.bullet.query.JsonShapes.*;

/**
 * The projection (SPEC §6.3) and the named-field lists that aggregations share.
 */
final class ProjectionParser {
    private final Problems problems;

    ProjectionParser(Problems problems) {
        this.problems = problems;
    }

    List<NamedField> parse(JsonElement e) {
        if (absent(e)) {
            return null;
        }
        JsonElement fields = e.isJsonObject() ? e.getAsJsonObject().get("fields") : null;
        if (fields == null || !fields.isJsonObject()) {
            problems.error("\"projection\" must be {\"fields\": {\"<path>\": \"<output name>\", ...}}, got " + describe(e),
                  "Write \"projection\": {\"fields\": {\"demographics.age\": \"age\"}}");
            return null;
        }
        return namedFields(fields.getAsJsonObject(), "projection.fields");
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

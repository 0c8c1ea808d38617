package dev.bullet.querying.aggregations;

import dev.bullet.querying.ResultJson;

import java.util.List;
import java.util.Map;

/**
 * Canonical string keys for combinations of field values (GROUP, COUNT DISTINCT, TOP K): the values as a JSON
 * array, so a key maps back to typed values exactly and distinct combinations never collide.
 */
final class SketchKeys {
    private SketchKeys() {
    }

    static String key(List<Object> values) {
        return ResultJson.toJson(values);
    }

    static List<Object> values(String key) {
        return ResultJson.parseList(key);
    }

    /** Lists and maps are grouped by their JSON text; primitives as themselves. */
    static Object normalize(Object value) {
        if (value instanceof Map || value instanceof List) {
            return ResultJson.toJson(value);
        }
        return value;
    }
}

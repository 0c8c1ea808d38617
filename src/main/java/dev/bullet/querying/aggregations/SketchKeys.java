package dev.bullet.querying.aggregations;

import dev.bullet.query.NamedField;
import dev.bullet.querying.ResultJson;
import dev.bullet.record.Record;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Canonical string keys for combinations of field values (GROUP, COUNT DISTINCT, TOP K): the values as a JSON
 * array, so a key maps back to typed values exactly and distinct combinations never collide.
 */
final class SketchKeys {
    private SketchKeys() {
    }

    /** The key of the combination of these fields' values in a record. */
    static String keyOf(List<NamedField> fields, Record record) {
        List<Object> values = new ArrayList<>(fields.size());
        for (NamedField f : fields) {
            values.add(normalize(record.get(f.path())));
        }
        return key(values);
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

package dev.bullet.querying.aggregations;

import dev.bullet.query.NamedField;
import dev.bullet.record.JsonCodec;
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
        StringBuilder sb = new StringBuilder(16 * fields.size() + 2).append('[');
        for (int i = 0, n = fields.size(); i < n; i++) {
            if (i > 0) {
                sb.append(',');
            }
            if (!append(sb, normalize(record.get(fields.get(i).path())))) {
                List<Object> values = new ArrayList<>(n);
                for (NamedField f : fields) {
                    values.add(normalize(record.get(f.path())));
                }
                return JsonCodec.toJson(values);
            }
        }
        return sb.append(']').toString();
    }

    static String key(List<Object> values) {
        StringBuilder sb = new StringBuilder(16 * values.size() + 2).append('[');
        for (int i = 0, n = values.size(); i < n; i++) {
            if (i > 0) {
                sb.append(',');
            }
            if (!append(sb, values.get(i))) {
                return JsonCodec.toJson(values);
            }
        }
        return sb.append(']').toString();
    }

    /** Appends a primitive as JSON (the hot path: no gson); false for anything else, which gson then writes. */
    private static boolean append(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String) {
            String text = (String) v;
            sb.append('"');
            for (int i = 0, n = text.length(); i < n; i++) {
                char c = text.charAt(i);
                if (c == '"' || c == '\\') {
                    sb.append('\\').append(c);
                } else if (c < 0x20) {
                    sb.append(String.format("\\u%04x", (int) c));
                } else {
                    sb.append(c);
                }
            }
            sb.append('"');
        } else if (v instanceof Long || v instanceof Boolean) {
            sb.append(v);
        } else if (v instanceof Double && Double.isFinite((Double) v)) {
            sb.append(((Double) v).doubleValue());
        } else {
            return false;
        }
        return true;
    }

    static List<Object> values(String key) {
        return JsonCodec.parseList(key);
    }

    /** Lists and maps are grouped by their JSON text; primitives as themselves. */
    static Object normalize(Object value) {
        if (value instanceof Map || value instanceof List) {
            return JsonCodec.toJson(value);
        }
        return value;
    }
}

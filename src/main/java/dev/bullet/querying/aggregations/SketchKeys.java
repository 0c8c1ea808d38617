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

    /** The keys made lately on this thread: many queries aggregating the same fields of one record share one key. */
    private static final class Recent {
        static final int SIZE = 8;
        final Record[] records = new Record[SIZE];
        final Object[] fields = new Object[SIZE];
        final String[] keys = new String[SIZE];
        int next;
    }

    private static final ThreadLocal<Recent> RECENT = ThreadLocal.withInitial(Recent::new);

    /**
     * The key of the combination of these fields' values in a record. Remembered for the record (by identity) and the
     * fields' paths, so a hundred dashboards grouping one record by {@code s_01} build its key once.
     */
    static String keyOf(List<NamedField> fields, Record record) {
        Recent recent = RECENT.get();
        for (int i = 0; i < Recent.SIZE; i++) {
            if (recent.records[i] == record && samePaths(fields, recent.fields[i])) {
                return recent.keys[i];
            }
        }
        String key = makeKey(fields, record);
        int at = recent.next;
        recent.records[at] = record;
        recent.fields[at] = fields;
        recent.keys[at] = key;
        recent.next = (at + 1) % Recent.SIZE;
        return key;
    }

    @SuppressWarnings("unchecked")
    private static boolean samePaths(List<NamedField> fields, Object other) {
        if (fields == other) {
            return true;
        }
        if (!(other instanceof List) || ((List<?>) other).size() != fields.size()) {
            return false;
        }
        List<NamedField> o = (List<NamedField>) other;
        for (int i = 0, n = fields.size(); i < n; i++) {
            if (!fields.get(i).path().equals(o.get(i).path())) {
                return false;
            }
        }
        return true;
    }

    private static String makeKey(List<NamedField> fields, Record record) {
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

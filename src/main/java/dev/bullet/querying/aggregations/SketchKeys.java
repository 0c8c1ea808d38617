package dev.bullet.querying.aggregations;

import dev.bullet.query.NamedField;
import dev.bullet.record.FieldPath;
import dev.bullet.record.JsonCodec;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.RawBytes;
import dev.bullet.record.Record;
import dev.bullet.record.Span;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Canonical string keys for combinations of field values (GROUP, COUNT DISTINCT, TOP K): the values as a JSON
 * array, so a key maps back to typed values exactly and distinct combinations never collide.
 */
final class SketchKeys {
    private SketchKeys() {
    }

    /**
     * An aggregation's fields, with an id shared by every aggregation over the same paths (whatever the aliases), so
     * the key of a record's values is remembered per paths and found again in one array read. Ids are handed out for
     * up to {@link #MAX_IDS} distinct lists of paths; beyond that a list gets none and its keys are made afresh.
     */
    static final class Fields {
        final List<NamedField> fields;
        final int id;

        private Fields(List<NamedField> fields, int id) {
            this.fields = fields;
            this.id = id;
        }
    }

    static final int MAX_IDS = 1 << 16;
    private static final Map<List<FieldPath>, Integer> IDS = new ConcurrentHashMap<>();
    private static final AtomicInteger NEXT_ID = new AtomicInteger();

    /** The fields with the id of their paths. */
    static Fields fields(List<NamedField> fields) {
        List<FieldPath> paths = new ArrayList<>(fields.size());
        for (NamedField f : fields) {
            paths.add(f.path());
        }
        Integer id = IDS.get(paths);
        if (id == null) {
            if (IDS.size() >= MAX_IDS) {
                return new Fields(fields, -1);
            }
            id = IDS.computeIfAbsent(List.copyOf(paths), k -> NEXT_ID.getAndIncrement());
        }
        return new Fields(fields, id);
    }

    /**
     * The last record (by identity) and its key by fields id, on this thread, in a small table (slot: the id's low
     * bits; two ids sharing a slot just make their keys again), so a thread holds on to at most
     * {@link #RECENT_SLOTS} records however many distinct field lists it meets.
     */
    private static final class Recent {
        final int[] ids = new int[RECENT_SLOTS];
        final Record[] records = new Record[RECENT_SLOTS];
        final String[] keys = new String[RECENT_SLOTS];
        /** The spans of a key's values in the record's bytes, while it is made. */
        long[] spans = new long[8];
    }

    static final int RECENT_SLOTS = 256;

    private static final ThreadLocal<Recent> RECENT = ThreadLocal.withInitial(Recent::new);

    /**
     * The key of the combination of these fields' values in a record. Remembered for the record (by identity) and the
     * fields' paths, so a hundred dashboards grouping one record by {@code s_01} build its key once, and the sketches
     * they update hash one {@code String} (which keeps its hash code).
     */
    static String keyOf(Fields fields, Record record) {
        int id = fields.id;
        Recent recent = RECENT.get();
        if (id < 0) {
            return makeKey(fields.fields, record, recent);
        }
        int slot = id & (RECENT_SLOTS - 1);
        if (recent.records[slot] == record && recent.ids[slot] == id) {
            return recent.keys[slot];
        }
        String key = makeKey(fields.fields, record, recent);
        recent.records[slot] = record;
        recent.ids[slot] = id;
        recent.keys[slot] = key;
        return key;
    }

    /**
     * The key of these fields' values in a record, made afresh (not remembered): for {@link BatchKeys}, which
     * remembers the keys of a batch's records itself.
     */
    static String makeKey(Fields fields, Record record) {
        return makeKey(fields.fields, record, RECENT.get());
    }

    private static String makeKey(List<NamedField> fields, Record record, Recent recent) {
        if (record instanceof LazyRecord) {
            String key = keyFromBytes(fields, (LazyRecord) record, recent);
            if (key != null) {
                return key;
            }
        }
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

    /**
     * The key cut from the record's bytes when every value is written there as {@link #append} would write it: a
     * string of plain ASCII (no escape, so no quote or control character inside), an integer of at most 18 digits
     * other than {@code -0}, {@code true}, {@code false}, or a null or missing value ({@code null}). Null otherwise
     * (a decimal, a map or a list, an escape...): the key is then made from the decoded values.
     */
    private static String keyFromBytes(List<NamedField> fields, LazyRecord record, Recent recent) {
        byte[] key = keyBytesFrom(fields, record, recent);
        return key == null ? null : new String(key, StandardCharsets.ISO_8859_1);
    }

    /**
     * The UTF-8 bytes of {@link #keyOf}'s key when the record's bytes can tell it (plain ASCII), made afresh; null
     * otherwise (then {@link #keyOf} makes it). A sketch that hashes a key's UTF-8 bytes takes them as they are.
     */
    static byte[] keyBytes(Fields fields, Record record) {
        return record instanceof LazyRecord ? keyBytesFrom(fields.fields, (LazyRecord) record, RECENT.get()) : null;
    }

    private static byte[] keyBytesFrom(List<NamedField> fields, LazyRecord record, Recent recent) {
        int n = fields.size();
        if (n > recent.spans.length) {
            recent.spans = new long[Math.max(n, recent.spans.length * 2)];
        }
        long[] spans = recent.spans;
        byte[] data = record.bytes();
        int length = n + 1; // the brackets and the commas
        for (int i = 0; i < n; i++) {
            long span = record.span(fields.get(i).path());
            if (span == Span.UNSURE) {
                return null;
            }
            if (span == Span.MISSING) {
                length += 4;
            } else {
                if (!spelled(record, data, span)) {
                    return null;
                }
                length += Span.length(span);
            }
            spans[i] = span;
        }
        byte[] key = new byte[length];
        key[0] = '[';
        key[writeSpans(data, spans, n, (byte) ',', key, 1)] = ']';
        return key;
    }

    /**
     * Whether the value at {@code span} (found, not JSON null) is one the record's bytes spell as it is written: a
     * string of plain ASCII (no escape, so no quote or control character inside), an integer of at most 18 digits
     * other than {@code -0}, {@code true} or {@code false}.
     */
    static boolean spelled(LazyRecord record, byte[] data, long span) {
        int start = Span.start(span);
        int end = Span.end(span);
        byte first = data[start];
        if (first == '"') {
            return record.plainAscii() || RawBytes.plainAscii(data, start + 1, end - 1);
        }
        if (first == '-' || first >= '0' && first <= '9') {
            return RawBytes.plainInteger(data, start, end) && !(first == '-' && data[start + 1] == '0');
        }
        return first == 't' || first == 'f';
    }

    /**
     * Writes the bytes of {@code spans[0, n)} into {@code out} from {@code at}, {@code separator} between two,
     * {@code null} for {@link Span#MISSING}; returns the index after the last.
     */
    static int writeSpans(byte[] data, long[] spans, int n, byte separator, byte[] out, int at) {
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out[at++] = separator;
            }
            long span = spans[i];
            if (span == Span.MISSING) {
                out[at++] = 'n';
                out[at++] = 'u';
                out[at++] = 'l';
                out[at++] = 'l';
            } else {
                int length = Span.length(span);
                System.arraycopy(data, Span.start(span), out, at, length);
                at += length;
            }
        }
        return at;
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

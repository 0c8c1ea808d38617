package dev.bullet.querying;

import dev.bullet.query.NamedField;
import dev.bullet.record.JsonCodec;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.MapRecord;
import dev.bullet.record.RawBytes;
import dev.bullet.record.Record;
import dev.bullet.record.Span;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Projection (SPEC §6.3): keeps only the listed paths under their new names; paths that are missing or null are
 * left out. Without a projection the record passes through unchanged.
 */
public final class Projector {
    private final NamedField[] fields;
    /** Each field's {@code "name":} as JSON bytes; null when two fields share a name (the map decides then). */
    private final byte[][] keys;
    /**
     * An id shared by every projector of the same fields (paths and names, in order), so that queries projecting a
     * record alike write its JSON once ({@link #json}); -1 past {@link #MAX_IDS} distinct projections.
     */
    private final int id;

    /** Ids are handed out for up to this many distinct projections; beyond that a projection writes its own JSON. */
    static final int MAX_IDS = 1 << 16;
    private static final Map<List<NamedField>, Integer> IDS = new ConcurrentHashMap<>();
    private static final AtomicInteger NEXT_ID = new AtomicInteger();

    /**
     * One thread's scratch: the buffer {@link #json} writes in, and the last record written by projection id, in a
     * small table (slot: the id's low bits; two projections sharing a slot just write their JSON again), so a thread
     * holds on to at most {@link #RECENT_SLOTS} records.
     */
    private static final class Recent {
        byte[] buffer = new byte[256];
        final int[] ids = new int[RECENT_SLOTS];
        final LazyRecord[] records = new LazyRecord[RECENT_SLOTS];
        final byte[][] json = new byte[RECENT_SLOTS][];
    }

    static final int RECENT_SLOTS = 256;

    private static final ThreadLocal<Recent> RECENT = ThreadLocal.withInitial(Recent::new);

    public Projector(List<NamedField> projection) {
        this.fields = projection == null ? null : projection.toArray(new NamedField[0]);
        this.keys = fields == null ? null : keys(fields);
        this.id = keys == null ? -1 : idOf(projection);
    }

    private static int idOf(List<NamedField> projection) {
        Integer known = IDS.get(projection);
        if (known != null) {
            return known;
        }
        if (IDS.size() >= MAX_IDS) {
            return -1;
        }
        return IDS.computeIfAbsent(List.copyOf(projection), k -> NEXT_ID.getAndIncrement());
    }

    private static byte[][] keys(NamedField[] fields) {
        Set<String> names = new HashSet<>();
        byte[][] keys = new byte[fields.length][];
        for (int i = 0; i < fields.length; i++) {
            if (!names.add(fields[i].name())) {
                return null;
            }
            keys[i] = key(fields[i].name());
        }
        return keys;
    }

    /** {@code "name":} as JSON bytes: a plain ASCII name as it is, anything else escaped by gson. */
    private static byte[] key(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
                return (JsonCodec.toJson(name) + ":").getBytes(StandardCharsets.UTF_8);
            }
        }
        return ("\"" + name + "\":").getBytes(StandardCharsets.US_ASCII);
    }

    /** Whether {@link #json} can write this projection of a record (a projection whose field names are distinct). */
    public boolean writesJson() {
        return keys != null;
    }

    /**
     * The projection of a record as the JSON object {@code JsonCodec.toJson(project(record).asMap())} reads back
     * as, written from the record's bytes: a string, an integer or a boolean is copied as it stands in the record
     * (the same value once read), anything else (other numbers, objects, arrays, a path the bytes cannot tell) is
     * decoded and written as the map path writes it. No map is built for a matched RAW record this way. The JSON of
     * the last record is kept per projection (paths and names) on this thread: every query that projects a record
     * alike gets the same array, written once, which no one may modify.
     */
    public byte[] json(LazyRecord record) {
        Recent recent = RECENT.get();
        if (id < 0) {
            return write(record, recent);
        }
        int slot = id & (RECENT_SLOTS - 1);
        if (recent.records[slot] != record || recent.ids[slot] != id) {
            recent.json[slot] = write(record, recent);
            recent.records[slot] = record;
            recent.ids[slot] = id;
        }
        return recent.json[slot];
    }

    private byte[] write(LazyRecord record, Recent recent) {
        byte[] data = record.bytes();
        int at = 0;
        byte[] out = recent.buffer;
        out[at++] = '{';
        for (int i = 0; i < fields.length; i++) {
            long span = record.span(fields[i].path());
            if (span == Span.MISSING) {
                continue;
            }
            byte[] value = null;
            int start = 0;
            int end = 0;
            if (span != Span.UNSURE) {
                start = Span.start(span);
                end = Span.end(span);
                byte first = data[start];
                if (!(first == '"' || first == 't' || first == 'f'
                        || (first == '-' || first >= '0' && first <= '9') && RawBytes.plainInteger(data, start, end))) {
                    span = Span.UNSURE;
                }
            }
            if (span == Span.UNSURE) {
                Object decoded = record.get(fields[i].path());
                if (decoded == null) {
                    continue;
                }
                value = JsonCodec.toJson(decoded).getBytes(StandardCharsets.UTF_8);
                start = 0;
                end = value.length;
            }
            byte[] key = keys[i];
            int need = at + key.length + (end - start) + 2;
            if (need > out.length) {
                out = Arrays.copyOf(out, Math.max(need, out.length * 2));
                recent.buffer = out;
            }
            if (at > 1) {
                out[at++] = ',';
            }
            System.arraycopy(key, 0, out, at, key.length);
            at += key.length;
            System.arraycopy(value != null ? value : data, start, out, at, end - start);
            at += end - start;
        }
        out[at++] = '}';
        return Arrays.copyOf(out, at);
    }

    public Record project(Record record) {
        if (fields == null) {
            return record;
        }
        Map<String, Object> out = new LinkedHashMap<>(fields.length * 2);
        for (NamedField f : fields) {
            Object value = record.get(f.path());
            if (value != null) {
                out.put(f.name(), value);
            }
        }
        return new MapRecord(out);
    }
}

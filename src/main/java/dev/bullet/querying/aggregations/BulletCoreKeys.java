package dev.bullet.querying.aggregations;

import dev.bullet.query.NamedField;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.Record;
import dev.bullet.record.Span;
import org.apache.datasketches.common.ArrayOfStringsSerDe;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.tuple.TupleSketchIterator;
import org.apache.datasketches.tuple.UpdatableSketch;
import org.apache.datasketches.tuple.UpdatableSketchBuilder;
import org.apache.datasketches.tuple.adouble.DoubleSummary;
import org.apache.datasketches.tuple.adouble.DoubleSummaryFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The keys and the row order of bullet-core 1.5.2's GROUP and TOP K, for BQL's aggregations
 * ({@code groupValuesAsStrings}), whose answers are bullet-core's:
 * <ul>
 *   <li>the values of a key come in the iteration order of a {@code HashMap} of the field names
 *       ({@link #fieldOrder});</li>
 *   <li>a GROUP key is the values forced to strings ({@code "5"}, {@code "true"}, {@code "null"} for a missing one)
 *       joined by {@code |}, so {@code true} and {@code "true"} are one group; a list or map value cannot be forced
 *       to a string and bullet-core skips the record ({@link #groupKey} is null);</li>
 *   <li>a TOP K key is each value's Java text ({@code [{a=1}, 2]} for a list of a map and a number) joined by
 *       {@code |}, split on {@code |} again for the row;</li>
 *   <li>the rows come in bullet-core's sketch order: a GROUP's in the slot order of a tuple sketch holding the keys
 *       (its result iterates the sketch's hash table), a TOP K's count descending and, among equal counts, in the
 *       slot order of the frequent-items sketch's hash map (a stable sort over it). {@link #groupOrder} replays the
 *       keys into a sketch of bullet-core's configuration to find that order.</li>
 * </ul>
 */
final class BulletCoreKeys {
    static final String SEPARATOR = "|";

    private BulletCoreKeys() {
    }

    /**
     * The order bullet-core composes a key's values in: its fields are the keys of a {@code HashMap} from field to
     * name, so they come in that map's iteration order (by bucket of the field's hash, then as inserted), not as
     * written. The positions into {@code fields}, in that order.
     */
    static int[] fieldOrder(List<NamedField> fields) {
        int capacity = 16;
        while (fields.size() > capacity * 3 / 4) {
            capacity *= 2;
        }
        int mask = capacity - 1;
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingInt((Integer i) -> bucket(fields.get(i).path().text(), mask)).thenComparingInt(i -> i));
        return order.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int bucket(String key, int mask) {
        int h = key.hashCode();
        return (h ^ (h >>> 16)) & mask;
    }

    /** The GROUP key of a record, or null when a value is a list or map (bullet-core cannot group it). */
    static String groupKey(List<NamedField> fields, int[] order, Record record) {
        if (record instanceof LazyRecord lazy) {
            String key = scalarKey(fields, order, lazy);
            if (key != null) {
                return key;
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0, n = order.length; i < n; i++) {
            Object v = record.get(fields.get(order[i]).path());
            if (v instanceof List || v instanceof Map) {
                return null;
            }
            if (i > 0) {
                sb.append(SEPARATOR);
            }
            sb.append(v);
        }
        return sb.toString();
    }

    /** The TOP K key of a record: each value's Java text. */
    static String topKKey(List<NamedField> fields, int[] order, Record record) {
        if (record instanceof LazyRecord lazy) {
            String key = scalarKey(fields, order, lazy);
            if (key != null) {
                return key;
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0, n = order.length; i < n; i++) {
            if (i > 0) {
                sb.append(SEPARATOR);
            }
            javaText(sb, record.get(fields.get(order[i]).path()));
        }
        return sb.toString();
    }

    /** One thread's room for {@link #scalarKey}: the values' spans and the key's bytes. */
    private static final class Scratch {
        long[] spans = new long[4];
        byte[] bytes = new byte[64];
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /**
     * The key {@link #groupKey} and {@link #topKKey} both give when each value is one the record's bytes spell as
     * Java writes the decoded value: a string of plain ASCII (no escape: its bytes are its text), an integer of at
     * most 18 digits other than {@code -0} (a {@code Long}'s digits), {@code true}, {@code false}, or a null or
     * missing value ({@code null}). Null otherwise (a decimal, a list, a map, an escaped or non-ASCII string, a path
     * the bytes cannot tell): the key is then made from the decoded values.
     */
    static String scalarKey(List<NamedField> fields, int[] order, LazyRecord record) {
        Scratch scratch = SCRATCH.get();
        int n = order.length;
        if (n > scratch.spans.length) {
            scratch.spans = new long[Math.max(n, scratch.spans.length * 2)];
        }
        long[] spans = scratch.spans;
        byte[] data = record.bytes();
        int length = n - 1; // the separators
        for (int i = 0; i < n; i++) {
            long span = record.span(fields.get(order[i]).path());
            if (span == Span.UNSURE) {
                return null;
            }
            if (span != Span.MISSING) {
                if (data[Span.start(span)] == 'n') {
                    span = Span.MISSING; // a null value reads as a missing one
                } else if (!SketchKeys.spelled(record, data, span)) {
                    return null;
                } else if (data[Span.start(span)] == '"') {
                    span = Span.of(Span.start(span) + 1, Span.end(span) - 1); // the text without its quotes
                }
            }
            spans[i] = span;
            length += span == Span.MISSING ? 4 : Span.length(span);
        }
        if (length > scratch.bytes.length) {
            scratch.bytes = new byte[Math.max(length, scratch.bytes.length * 2)];
        }
        byte[] key = scratch.bytes;
        int at = SketchKeys.writeSpans(data, spans, n, (byte) '|', key, 0);
        return new String(key, 0, at, StandardCharsets.ISO_8859_1);
    }

    /** A value as Java's {@code toString} writes it (lists {@code [a, b]}, maps {@code {k=v}}). */
    private static void javaText(StringBuilder sb, Object v) {
        if (v instanceof List<?> list) {
            sb.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                javaText(sb, list.get(i));
            }
            sb.append(']');
        } else if (v instanceof Map<?, ?> map) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                sb.append(e.getKey()).append('=');
                javaText(sb, e.getValue());
            }
            sb.append('}');
        } else {
            sb.append(v);
        }
    }

    /** A key's values, as bullet-core splits it. */
    static List<String> split(String key) {
        List<String> values = new ArrayList<>();
        int index = 0;
        while (true) {
            int next = key.indexOf(SEPARATOR, index);
            if (next < 0) {
                values.add(key.substring(index));
                return values;
            }
            values.add(key.substring(index, next));
            index = next + SEPARATOR.length();
        }
    }

    /**
     * The order bullet-core's tuple sketch (nominal {@code entries}, resize factor 8, as bullet-core's defaults)
     * iterates these keys in: the positions into {@code keys}, in slot order.
     */
    static List<Integer> groupOrder(List<String> keys, int entries) {
        UpdatableSketch<Double, DoubleSummary> sketch =
                new UpdatableSketchBuilder<>(new DoubleSummaryFactory(DoubleSummary.Mode.Sum)).setNominalEntries(entries).build();
        for (int i = 0; i < keys.size(); i++) {
            sketch.update(keys.get(i), (double) i);
        }
        List<Integer> order = new ArrayList<>(keys.size());
        TupleSketchIterator<DoubleSummary> it = sketch.compact().iterator();
        while (it.next()) {
            order.add((int) it.getSummary().getValue());
        }
        return order;
    }

    /**
     * A frequent-items sketch's bytes rearranged so that reading them rebuilds its map exactly as it was. The bytes
     * list the items in the map's slot order and reading them inserts them in that order into a map of the same
     * size, which puts an item elsewhere when its run of taken slots wraps around the end of the map; inserted
     * starting after a free slot, every item lands where it was (linear probing: an item sits at the first free slot
     * from its home, past the items inserted before it). The bytes as they are when they are not the layout known
     * here.
     */
    static byte[] itemsInMapOrder(byte[] bytes, ArrayOfStringsSerDe serDe) {
        Memory mem = Memory.wrap(bytes);
        if (bytes.length < 32 || (bytes[0] & 0x3F) != 4) {
            return bytes;
        }
        int lgCur = bytes[4];
        int n = mem.getInt(8);
        long itemsAt = 32 + 8L * n;
        if (n <= 1 || lgCur < 1 || lgCur > 30 || itemsAt > bytes.length || n >= (1 << lgCur)) {
            return bytes;
        }
        String[] items = serDe.deserializeFromMemory(mem, itemsAt, n);
        int mask = (1 << lgCur) - 1;
        boolean[] taken = new boolean[mask + 1];
        for (String item : items) {
            int slot = (int) fmix64(item.hashCode()) & mask;
            while (taken[slot]) {
                slot = (slot + 1) & mask;
            }
            taken[slot] = true;
        }
        int free = 0;
        while (taken[free]) {
            free++;
        }
        int start = 0;
        for (int slot = 0; slot < free; slot++) {
            start += taken[slot] ? 1 : 0;
        }
        String[] rotated = new String[n];
        long[] counts = new long[n];
        for (int i = 0; i < n; i++) {
            int from = (start + i) % n;
            rotated[i] = items[from];
            counts[i] = mem.getLong(32 + 8L * from);
        }
        byte[] itemBytes = serDe.serializeToByteArray(rotated);
        byte[] out = new byte[(int) itemsAt + itemBytes.length];
        System.arraycopy(bytes, 0, out, 0, 32);
        for (int i = 0; i < n; i++) {
            long c = counts[i];
            for (int b = 0; b < 8; b++) {
                out[32 + 8 * i + b] = (byte) (c >>> (8 * b));
            }
        }
        System.arraycopy(itemBytes, 0, out, (int) itemsAt, itemBytes.length);
        return out;
    }

    /** The frequent-items map's hash of an item's hash code (MurmurHash3's 64-bit finalizer). */
    private static long fmix64(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}

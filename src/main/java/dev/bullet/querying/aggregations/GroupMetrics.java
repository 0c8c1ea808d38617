package dev.bullet.querying.aggregations;

import dev.bullet.query.GroupOperation;
import dev.bullet.record.JsonCodec;
import dev.bullet.record.Record;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.tuple.DeserializeResult;
import org.apache.datasketches.tuple.SummaryDeserializer;
import org.apache.datasketches.tuple.SummaryFactory;
import org.apache.datasketches.tuple.SummarySetOperations;
import org.apache.datasketches.tuple.UpdatableSummary;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The metrics of one group (SPEC §6.4 GROUP): its field values, a record count, and per operation a SUM / MIN /
 * MAX (numbers, keeping longs exact while every value is a long) or AVG (sum and count of the values used).
 * Missing, null and non-numeric values are skipped. Doubles as the DataSketches tuple summary of the group sketch.
 */
final class GroupMetrics implements UpdatableSummary<Record> {
    private final GroupSpec spec;
    private List<Object> groupValues;
    private long count;
    private final Number[] values;
    private final long[] used;

    GroupMetrics(GroupSpec spec) {
        this.spec = spec;
        this.values = new Number[spec.operations().size()];
        this.used = new long[values.length];
    }

    @Override
    public GroupMetrics update(Record record) {
        if (groupValues == null) {
            groupValues = spec.groupValues(record);
        }
        count++;
        List<GroupOperation> ops = spec.operations();
        for (int i = 0; i < values.length; i++) {
            GroupOperation op = ops.get(i);
            if (op.type() == GroupOperation.Type.COUNT) {
                continue;
            }
            Object v = record.get(op.field());
            if (v instanceof Number && !(v instanceof Double && ((Double) v).isNaN())) {
                accumulate(i, op.type(), (Number) v, 1);
            }
        }
        return this;
    }

    private void accumulate(int i, GroupOperation.Type type, Number v, long n) {
        Number current = values[i];
        used[i] += n;
        if (current == null) {
            values[i] = v;
            return;
        }
        switch (type) {
            case SUM:
            case AVG:
                values[i] = add(current, v);
                break;
            case MIN:
                values[i] = compare(v, current) < 0 ? v : current;
                break;
            case MAX:
                values[i] = compare(v, current) > 0 ? v : current;
                break;
            default:
                break;
        }
    }

    private static Number add(Number a, Number b) {
        if (a instanceof Long && b instanceof Long) {
            long x = a.longValue();
            long y = b.longValue();
            long r = x + y;
            if (((x ^ r) & (y ^ r)) >= 0) {
                return r;
            }
        }
        return a.doubleValue() + b.doubleValue();
    }

    private static int compare(Number a, Number b) {
        if (a instanceof Long && b instanceof Long) {
            return Long.compare(a.longValue(), b.longValue());
        }
        return Double.compare(a.doubleValue(), b.doubleValue());
    }

    /** Folds another group's metrics into this one. */
    void merge(GroupMetrics other) {
        if (groupValues == null) {
            groupValues = other.groupValues;
        }
        count += other.count;
        List<GroupOperation> ops = spec.operations();
        for (int i = 0; i < values.length; i++) {
            if (other.values[i] != null) {
                accumulate(i, ops.get(i).type(), other.values[i], other.used[i]);
            }
        }
    }

    long count() {
        return count;
    }

    List<Object> groupValuesOrEmpty() {
        return groupValues == null ? List.of() : groupValues;
    }

    /** The output row: group fields by name, then each metric by name. */
    Map<String, Object> toRow() {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 0; i < spec.fields().size(); i++) {
            row.put(spec.fields().get(i).name(), groupValues == null ? null : groupValues.get(i));
        }
        List<GroupOperation> ops = spec.operations();
        for (int i = 0; i < values.length; i++) {
            GroupOperation op = ops.get(i);
            Object out;
            switch (op.type()) {
                case COUNT:
                    out = count;
                    break;
                case AVG:
                    out = values[i] == null ? null : values[i].doubleValue() / used[i];
                    break;
                default:
                    out = values[i];
                    break;
            }
            row.put(op.name(), out);
        }
        return row;
    }

    @Override
    public GroupMetrics copy() {
        GroupMetrics c = new GroupMetrics(spec);
        c.groupValues = groupValues;
        c.count = count;
        System.arraycopy(values, 0, c.values, 0, values.length);
        System.arraycopy(used, 0, c.used, 0, used.length);
        return c;
    }

    // The summary's bytes (Filter task to Join task): a length, then binary fields, each number with its type
    // (a long stays a long, a double a double: -0.0, infinities and NaN too), strings as UTF-8; a value of any
    // other kind as its JSON text. Made and read for every group of every partial, so no JSON parser in the way.
    private static final byte NULL = 0;
    private static final byte LONG = 1;
    private static final byte DOUBLE = 2;
    private static final byte STRING = 3;
    private static final byte TRUE = 4;
    private static final byte FALSE = 5;
    private static final byte JSON = 6;

    @Override
    public byte[] toByteArray() {
        byte[][] texts = groupValues == null ? new byte[0][] : new byte[groupValues.size()][];
        int size = 8 + 4 + values.length * 9 + used.length * 8 + 4;
        for (int i = 0; i < texts.length; i++) {
            Object v = groupValues.get(i);
            if (v instanceof String) {
                texts[i] = ((String) v).getBytes(StandardCharsets.UTF_8);
            } else if (v != null && !(v instanceof Long) && !(v instanceof Double) && !(v instanceof Boolean)) {
                texts[i] = JsonCodec.toJson(v).getBytes(StandardCharsets.UTF_8);
            }
            size += 1 + (texts[i] != null ? 4 + texts[i].length : v instanceof Long || v instanceof Double ? 8 : 0);
        }
        ByteBuffer out = ByteBuffer.allocate(4 + size).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(size);
        out.putLong(count);
        out.putInt(values.length);
        for (Number v : values) {
            putNumber(out, v);
        }
        for (long u : used) {
            out.putLong(u);
        }
        out.putInt(groupValues == null ? -1 : texts.length);
        for (int i = 0; i < texts.length; i++) {
            Object v = groupValues.get(i);
            if (v instanceof String) {
                out.put(STRING).putInt(texts[i].length).put(texts[i]);
            } else if (texts[i] != null) {
                out.put(JSON).putInt(texts[i].length).put(texts[i]);
            } else if (v instanceof Boolean) {
                out.put((Boolean) v ? TRUE : FALSE);
            } else {
                putNumber(out, (Number) v);
            }
        }
        return out.array();
    }

    private static void putNumber(ByteBuffer out, Number v) {
        if (v == null) {
            out.put(NULL);
        } else if (v instanceof Long) {
            out.put(LONG).putLong(v.longValue());
        } else {
            out.put(DOUBLE).putDouble(v.doubleValue()); // accumulate keeps longs and doubles only
        }
    }

    static DeserializeResult<GroupMetrics> fromMemory(GroupSpec spec, Memory memory) {
        int size = memory.getInt(0);
        Reader in = new Reader(memory, 4);
        GroupMetrics m = new GroupMetrics(spec);
        m.count = in.getLong();
        int n = in.getInt();
        if (n != m.values.length) {
            throw new IllegalArgumentException("a group summary of " + n + " metrics for a query of " + m.values.length);
        }
        for (int i = 0; i < n; i++) {
            m.values[i] = (Number) in.value();
        }
        for (int i = 0; i < n; i++) {
            m.used[i] = in.getLong();
        }
        int k = in.getInt();
        if (k >= 0) {
            List<Object> groupValues = new ArrayList<>(k);
            for (int i = 0; i < k; i++) {
                groupValues.add(in.value());
            }
            m.groupValues = groupValues;
        }
        return new DeserializeResult<>(m, 4 + size);
    }

    /** Reads the fields of a summary in order. */
    private static final class Reader {
        private final Memory memory;
        private long at;

        Reader(Memory memory, long at) {
            this.memory = memory;
            this.at = at;
        }

        long getLong() {
            long v = memory.getLong(at);
            at += 8;
            return v;
        }

        int getInt() {
            int v = memory.getInt(at);
            at += 4;
            return v;
        }

        Object value() {
            byte tag = memory.getByte(at++);
            switch (tag) {
                case NULL:
                    return null;
                case LONG:
                    return getLong();
                case DOUBLE: {
                    double v = memory.getDouble(at);
                    at += 8;
                    return v;
                }
                case TRUE:
                    return Boolean.TRUE;
                case FALSE:
                    return Boolean.FALSE;
                case STRING:
                case JSON: {
                    byte[] bytes = new byte[getInt()];
                    memory.getByteArray(at, bytes, 0, bytes.length);
                    at += bytes.length;
                    String text = new String(bytes, StandardCharsets.UTF_8);
                    return tag == STRING ? text : JsonCodec.parse(text);
                }
                default:
                    throw new IllegalArgumentException("not a group summary value: tag " + tag);
            }
        }
    }

    /** Factory, merge rules and deserializer for the tuple sketch, all bound to one query's spec. */
    static final class Support implements SummaryFactory<GroupMetrics>, SummarySetOperations<GroupMetrics>,
                                          SummaryDeserializer<GroupMetrics> {
        private final GroupSpec spec;

        Support(GroupSpec spec) {
            this.spec = spec;
        }

        @Override
        public GroupMetrics newSummary() {
            return new GroupMetrics(spec);
        }

        @Override
        public GroupMetrics union(GroupMetrics a, GroupMetrics b) {
            GroupMetrics result = a.copy();
            result.merge(b);
            return result;
        }

        @Override
        public GroupMetrics intersection(GroupMetrics a, GroupMetrics b) {
            return union(a, b);
        }

        @Override
        public DeserializeResult<GroupMetrics> heapifySummary(Memory memory) {
            return fromMemory(spec, memory);
        }
    }
}

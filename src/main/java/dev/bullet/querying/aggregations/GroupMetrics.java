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

    @Override
    public byte[] toByteArray() {
        List<Object> state = new ArrayList<>(4);
        state.add(groupValues);
        state.add(count);
        state.add(Arrays.asList(values));
        List<Object> usedList = new ArrayList<>(used.length);
        for (long u : used) {
            usedList.add(u);
        }
        state.add(usedList);
        byte[] json = JsonCodec.toJson(state).getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + json.length).order(ByteOrder.LITTLE_ENDIAN).putInt(json.length).put(json).array();
    }

    @SuppressWarnings("unchecked")
    static DeserializeResult<GroupMetrics> fromMemory(GroupSpec spec, Memory memory) {
        int length = memory.getInt(0);
        byte[] json = new byte[length];
        memory.getByteArray(4, json, 0, length);
        List<Object> state = JsonCodec.parseList(new String(json, StandardCharsets.UTF_8));
        GroupMetrics m = new GroupMetrics(spec);
        m.groupValues = (List<Object>) state.get(0);
        m.count = ((Number) state.get(1)).longValue();
        List<Object> vs = (List<Object>) state.get(2);
        List<Object> us = (List<Object>) state.get(3);
        for (int i = 0; i < m.values.length; i++) {
            m.values[i] = (Number) vs.get(i);
            m.used[i] = ((Number) us.get(i)).longValue();
        }
        return new DeserializeResult<>(m, 4 + length);
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

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
 * Missing, null and non-numeric values are skipped; an operation that coerces (BQL's) reads booleans and numeric
 * strings as numbers and keeps its values as doubles ({@link #coerced}). Doubles as the DataSketches tuple summary
 * of the group sketch, which hands it the records of the group a key update brings ({@link Rows}).
 */
final class GroupMetrics implements UpdatableSummary<GroupMetrics.Rows> {
    private final GroupSpec spec;
    private List<Object> groupValues;
    private long count;
    /**
     * When the group arrived: the how-many-th new group of the sketch that made it (the least of the two when
     * summaries merge), so the Join can list groups in the order bullet-core's sketch would hold them.
     */
    private long arrival = Long.MAX_VALUE;
    /**
     * Per operation {@code i}, from {@code 3 * i} ({@link #WIDTH} longs): its value's kind ({@link #NONE},
     * {@link #IS_LONG}, {@link #IS_DOUBLE}), the value (a long, or a double's bits), and how many values it took.
     * Primitives updated in place, so a summary that lives long (in the old generation) is not handed a new box per
     * record; one array, so a group's update reads one object besides this one. {@link KeptGroups} holds the same
     * layout for the groups a GROUP keeps apart from its sketch, folded by the same {@link #foldLong}/{@link #foldDouble}.
     */
    private final long[] metrics;
    static final int WIDTH = 3;
    private static final long NONE = 0;
    private static final long IS_LONG = 1;
    private static final long IS_DOUBLE = 2;

    GroupMetrics(GroupSpec spec) {
        this.spec = spec;
        this.metrics = new long[WIDTH * spec.operations().size()];
    }

    /**
     * A group that {@link KeptGroups} folded its records into: {@code count} records, its metrics at
     * {@code state[at, at + WIDTH * operations)}, the values of its fields.
     */
    static GroupMetrics ofKept(GroupSpec spec, List<Object> groupValues, long count, long[] state, int at) {
        GroupMetrics m = new GroupMetrics(spec);
        m.groupValues = groupValues;
        m.count = count;
        System.arraycopy(state, at, m.metrics, 0, m.metrics.length);
        return m;
    }

    /**
     * The records of one group that one update of the group sketch brings: a record, or the records of a batch that
     * share a key ({@link BatchKeys.Runs}), folded in in batch order. Reused from update to update.
     */
    static final class Rows {
        private Record record;
        private List<? extends Record> batch;
        private int from;
        private long positions;
        private GroupMetrics folded;

        /** One record. */
        Rows of(Record one) {
            this.record = one;
            this.batch = null;
            this.folded = null;
            return this;
        }

        /** The records of {@code batch} at {@code from + i} for each bit {@code i} of {@code positions}. */
        Rows of(List<? extends Record> records, int start, long bits) {
            this.record = null;
            this.batch = records;
            this.from = start;
            this.positions = bits;
            this.folded = null;
            return this;
        }

        /** The records a group kept apart from the sketch folded in ({@link KeptKeys}), as {@code group} holds them. */
        Rows ofFolded(GroupMetrics group) {
            this.record = null;
            this.batch = null;
            this.folded = group;
            return this;
        }

        /** Lets go of the records. */
        void clear() {
            record = null;
            batch = null;
            folded = null;
        }
    }

    /** Folds the rows in: what {@link #update(Record)} of each, in order, gives. */
    @Override
    public GroupMetrics update(Rows rows) {
        if (rows.folded != null) {
            return takeFolded(rows.folded);
        }
        if (rows.batch == null) {
            return update(rows.record);
        }
        for (long m = rows.positions; m != 0; m &= m - 1) {
            update(rows.batch.get(rows.from + Long.numberOfTrailingZeros(m)));
        }
        return this;
    }

    GroupMetrics update(Record record) {
        if (groupValues == null) {
            groupValues = spec.groupValues(record);
        }
        count++;
        int[] reading = spec.reading;
        for (int j = 0; j < reading.length; j++) {
            fold(metrics, WIDTH * reading[j], spec.readType[j], spec.readCoerced[j], record.get(spec.readField[j]));
        }
        return this;
    }

    /**
     * A value as bullet-core 1.5.2 reads it for SUM, MIN, MAX and AVG ({@code Utilities.extractFieldAsNumber}): a
     * number as it is, a boolean as 1 or 0, a string by {@link Double#parseDouble} (its rules: surrounding blanks,
     * exponents, {@code NaN}), anything else or a string that is no number not at all (null).
     */
    static Double coerced(Object v) {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof Boolean b) {
            return b ? 1.0 : 0.0;
        }
        if (v instanceof String s) {
            try {
                return Double.parseDouble(s);
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    private void accumulate(int i, GroupOperation.Type type, long x, long n) {
        foldLong(metrics, WIDTH * i, type, x, n);
    }

    private void accumulate(int i, GroupOperation.Type type, double d, long n) {
        foldDouble(metrics, WIDTH * i, type, d, n);
    }

    /**
     * Folds {@code n} values whose fold is the long {@code x} into the operation's metrics at {@code m[at, at + WIDTH)}:
     * sums stay whole while every value is a long and the sum fits.
     */
    static void foldLong(long[] m, int at, GroupOperation.Type type, long x, long n) {
        m[at + 2] += n;
        long kind = m[at];
        if (kind == NONE) {
            m[at] = IS_LONG;
            m[at + 1] = x;
            return;
        }
        switch (type) {
            case SUM:
            case AVG:
                if (kind == IS_LONG) {
                    long a = m[at + 1];
                    long r = a + x;
                    if (((a ^ r) & (x ^ r)) >= 0) {
                        m[at + 1] = r;
                    } else {
                        m[at + 1] = Double.doubleToRawLongBits((double) a + (double) x);
                        m[at] = IS_DOUBLE;
                    }
                } else {
                    m[at + 1] = Double.doubleToRawLongBits(Double.longBitsToDouble(m[at + 1]) + (double) x);
                }
                break;
            case MIN:
            case MAX: {
                int c = kind == IS_LONG ? Long.compare(x, m[at + 1])
                        : Double.compare((double) x, Double.longBitsToDouble(m[at + 1]));
                if (type == GroupOperation.Type.MIN ? c < 0 : c > 0) {
                    m[at] = IS_LONG;
                    m[at + 1] = x;
                }
                break;
            }
            default:
                break;
        }
    }

    /** As {@link #foldLong} for a double: a sum with a double in it is a double. */
    static void foldDouble(long[] m, int at, GroupOperation.Type type, double d, long n) {
        m[at + 2] += n;
        long kind = m[at];
        if (kind == NONE) {
            m[at] = IS_DOUBLE;
            m[at + 1] = Double.doubleToRawLongBits(d);
            return;
        }
        double current = kind == IS_LONG ? (double) m[at + 1] : Double.longBitsToDouble(m[at + 1]);
        switch (type) {
            case SUM:
            case AVG:
                m[at + 1] = Double.doubleToRawLongBits(current + d);
                m[at] = IS_DOUBLE;
                break;
            case MIN:
            case MAX: {
                int c = Double.compare(d, current);
                if (type == GroupOperation.Type.MIN ? c < 0 : c > 0) {
                    m[at] = IS_DOUBLE;
                    m[at + 1] = Double.doubleToRawLongBits(d);
                }
                break;
            }
            default:
                break;
        }
    }

    /**
     * As {@link #foldDouble} for a value read as bullet-core reads it ({@code coerce}), whose MIN and MAX are
     * bullet-core's operators ({@code GroupOperation.MIN}: the new value where it is {@code <} the kept one, else the
     * kept one): a NaN never replaces a kept value nor is replaced (NaN compares false), and of {@code -0.0} and
     * {@code 0.0} the first stays.
     */
    static void foldCoerced(long[] m, int at, GroupOperation.Type type, double d, long n) {
        long kind = m[at];
        if (kind == NONE || type != GroupOperation.Type.MIN && type != GroupOperation.Type.MAX) {
            foldDouble(m, at, type, d, n);
            return;
        }
        m[at + 2] += n;
        double current = kind == IS_LONG ? (double) m[at + 1] : Double.longBitsToDouble(m[at + 1]);
        if (type == GroupOperation.Type.MIN ? d < current : d > current) {
            m[at] = IS_DOUBLE;
            m[at + 1] = Double.doubleToRawLongBits(d);
        }
    }

    /**
     * Folds one record's value of a field into the operation's metrics at {@code m[at, at + WIDTH)} as
     * {@link #update(Record)} does: a number, or with {@code coerce} anything {@link #coerced} reads as one; missing,
     * null, NaN and other values are skipped.
     */
    static void fold(long[] m, int at, GroupOperation.Type type, boolean coerce, Object v) {
        if (coerce) {
            Double d = coerced(v);
            if (d != null) {
                foldCoerced(m, at, type, d.doubleValue(), 1);
            }
        } else if (v instanceof Long) {
            foldLong(m, at, type, (Long) v, 1);
        } else if (v instanceof Number && !(v instanceof Double && ((Double) v).isNaN())) {
            foldDouble(m, at, type, ((Number) v).doubleValue(), 1);
        }
    }

    private long kind(int i) {
        return metrics[WIDTH * i];
    }

    private long used(int i) {
        return metrics[WIDTH * i + 2];
    }

    /** The value of operation {@code i}: null, a Long or a Double. */
    private Number value(int i) {
        long kind = kind(i);
        long bits = metrics[WIDTH * i + 1];
        return kind == NONE ? null : kind == IS_LONG ? (Number) bits : (Number) Double.longBitsToDouble(bits);
    }

    /**
     * A new group of the sketch takes the metrics of {@code folded}, which folded in the group's records in order: the
     * same values as folding them in here (all but the arrival, which is the sketch's). A group that has records already
     * (two keys of one 64-bit hash, which the sketch takes for one group) merges them instead.
     */
    private GroupMetrics takeFolded(GroupMetrics folded) {
        if (folded == this) { // adopted as the new summary ({@link Support#adopt})
            return this;
        }
        if (count != 0 || groupValues != null) {
            long arrived = arrival;
            merge(folded);
            arrival = arrived;
            return this;
        }
        groupValues = folded.groupValues;
        count = folded.count;
        System.arraycopy(folded.metrics, 0, metrics, 0, metrics.length);
        return this;
    }

    /** Folds another group's metrics into this one. */
    void merge(GroupMetrics other) {
        if (groupValues == null) {
            groupValues = other.groupValues;
        }
        arrival = Math.min(arrival, other.arrival);
        count += other.count;
        List<GroupOperation> ops = spec.operations();
        for (int i = 0, n = ops.size(); i < n; i++) {
            long kind = other.kind(i);
            long bits = other.metrics[WIDTH * i + 1];
            if (kind == IS_LONG) {
                accumulate(i, ops.get(i).type(), bits, other.used(i));
            } else if (kind == IS_DOUBLE && ops.get(i).coerce()) {
                foldCoerced(metrics, WIDTH * i, ops.get(i).type(), Double.longBitsToDouble(bits), other.used(i));
            } else if (kind == IS_DOUBLE) {
                accumulate(i, ops.get(i).type(), Double.longBitsToDouble(bits), other.used(i));
            }
        }
    }

    /** Counts {@code n} more records, as {@code n} calls of {@link #update} would when every operation is a COUNT. */
    void addCount(long n) {
        count += n;
    }

    long count() {
        return count;
    }

    /** When the group arrived ({@link #arrival}). */
    long arrival() {
        return arrival;
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
        for (int i = 0, n = ops.size(); i < n; i++) {
            GroupOperation op = ops.get(i);
            Object out;
            switch (op.type()) {
                case COUNT:
                    out = count;
                    break;
                case AVG:
                    out = kind(i) == NONE ? null : value(i).doubleValue() / used(i);
                    break;
                default:
                    out = value(i);
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
        c.arrival = arrival;
        System.arraycopy(metrics, 0, c.metrics, 0, metrics.length);
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
        int operations = metrics.length / WIDTH;
        int size = 8 + 8 + 4 + operations * 9 + operations * 8 + 4;
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
        out.putLong(arrival);
        out.putInt(operations);
        for (int i = 0; i < operations; i++) {
            putNumber(out, value(i));
        }
        for (int i = 0; i < operations; i++) {
            out.putLong(used(i));
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
        m.arrival = in.getLong();
        int n = in.getInt();
        int operations = m.metrics.length / WIDTH;
        if (n != operations) {
            throw new IllegalArgumentException("a group summary of " + n + " metrics for a query of " + operations);
        }
        for (int i = 0; i < n; i++) {
            Object v = in.value();
            if (v instanceof Long) {
                m.metrics[WIDTH * i] = IS_LONG;
                m.metrics[WIDTH * i + 1] = (Long) v;
            } else if (v != null) {
                m.metrics[WIDTH * i] = IS_DOUBLE;
                m.metrics[WIDTH * i + 1] = Double.doubleToRawLongBits(((Number) v).doubleValue());
            }
        }
        for (int i = 0; i < n; i++) {
            m.metrics[WIDTH * i + 2] = in.getLong();
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
        /** How many summaries this factory made: a new summary is a new group of the sketch. */
        private long made;
        /** A group kept apart from the sketch, to be its next new summary ({@link #adopt}); null for none. */
        private GroupMetrics adopted;

        Support(GroupSpec spec) {
            this.spec = spec;
        }

        /** How many summaries it made: the arrival of the next new group. */
        long made() {
            return made;
        }

        void made(long made) {
            this.made = made;
        }

        @Override
        public GroupMetrics newSummary() {
            GroupMetrics m = adopted != null ? adopted : new GroupMetrics(spec);
            adopted = null;
            m.arrival = made++;
            return m;
        }

        /**
         * Makes {@code group} (kept apart, its records folded in) the next new summary, so that a sketch update bringing
         * it ({@link Rows#ofFolded}) inserts it as it is instead of a copy; null: new summaries again.
         */
        void adopt(GroupMetrics group) {
            adopted = group;
        }

        /**
         * Merges {@code b} into {@code a}, in place: the only caller is a tuple {@code Union}'s gadget, which passes
         * the summary its own table holds (copied in when the key arrived; its results are copies again) and a copy
         * of {@code b} (DataSketches 6.1.1, {@code QuickSelectSketch.merge}). Copying {@code a} too was a third
         * object per group per partial at the Join.
         */
        @Override
        public GroupMetrics union(GroupMetrics a, GroupMetrics b) {
            a.merge(b);
            return a;
        }

        @Override
        public GroupMetrics intersection(GroupMetrics a, GroupMetrics b) {
            GroupMetrics result = a.copy();
            result.merge(b);
            return result;
        }

        @Override
        public DeserializeResult<GroupMetrics> heapifySummary(Memory memory) {
            return fromMemory(spec, memory);
        }
    }
}

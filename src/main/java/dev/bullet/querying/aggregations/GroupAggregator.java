package dev.bullet.querying.aggregations;

import dev.bullet.query.Aggregation;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.tuple.CompactSketch;
import org.apache.datasketches.tuple.Sketches;
import org.apache.datasketches.tuple.TupleSketchIterator;
import org.apache.datasketches.tuple.Union;
import org.apache.datasketches.tuple.UpdatableSketch;
import org.apache.datasketches.tuple.UpdatableSketchBuilder;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * GROUP with group-by fields (and DISTINCT): a DataSketches tuple sketch keyed by the group's values, whose summary
 * holds the group's metrics. Exact up to {@code bullet.query.aggregation.group.sketch.entries} groups; beyond that
 * the groups kept are a uniform sample and the result is marked estimated. At most {@code size} rows are emitted.
 */
final class GroupAggregator implements Aggregator {
    private final int size;
    private final int entries;
    private final GroupSpec spec;
    private final boolean asStrings;
    private final SketchKeys.Fields keys;
    private final GroupMetrics.Support support;
    private final UpdatableSketchBuilder<Record, GroupMetrics> builder;
    private UpdatableSketch<Record, GroupMetrics> sketch;
    private Union<GroupMetrics> union;
    private boolean empty = true;

    GroupAggregator(Aggregation aggregation, QuerySettings settings) {
        this.size = aggregation.size();
        this.entries = settings.groupEntries();
        this.spec = new GroupSpec(aggregation.fields(), aggregation.operations());
        this.asStrings = aggregation.groupValuesAsStrings();
        this.keys = SketchKeys.fields(spec.fields());
        this.support = new GroupMetrics.Support(spec);
        this.builder = new UpdatableSketchBuilder<Record, GroupMetrics>(support).setNominalEntries(entries);
        reset();
    }

    @Override
    public void consume(Record record) {
        sketch.update(key(record), record);
        empty = false;
    }

    private String key(Record record) {
        return SketchKeys.keyOf(keys, record);
    }

    @Override
    public void combine(byte[] partial) {
        union.union(Sketches.heapifySketch(Memory.wrap(partial), support));
        empty = false;
    }

    private CompactSketch<GroupMetrics> merged() {
        Union<GroupMetrics> u = new Union<>(entries, support);
        u.union(union.getResult());
        u.union(sketch);
        return u.getResult();
    }

    @Override
    public byte[] serialize() {
        return merged().toByteArray();
    }

    @Override
    public List<Map<String, Object>> records() {
        CompactSketch<GroupMetrics> result = merged();
        List<Map<String, Object>> rows = new ArrayList<>();
        TupleSketchIterator<GroupMetrics> it = result.iterator();
        List<GroupMetrics> groups = new ArrayList<>();
        while (it.next()) {
            groups.add(it.getSummary());
        }
        groups.sort(Comparator.comparing(g -> SketchKeys.key(g.groupValuesOrEmpty())));
        for (GroupMetrics g : groups) {
            if (rows.size() >= size) {
                break;
            }
            Map<String, Object> row = g.toRow();
            if (asStrings) {
                spec.fields().forEach(f -> row.put(f.name(), bulletCoreString(row.get(f.name()))));
            }
            rows.add(row);
        }
        return rows;
    }

    /**
     * A group value as bullet-core 1.5.2 groups by it ({@code Objects.toString} of the value forced to STRING): a
     * number or boolean in Java's form, a missing value {@code "null"}; other values (lists, maps) are left as they are.
     */
    static Object bulletCoreString(Object value) {
        if (value == null) {
            return "null";
        }
        return value instanceof Number || value instanceof Boolean ? String.valueOf(value) : value;
    }

    @Override
    public Map<String, Object> sketchMetadata() {
        return SketchMetadata.of(merged());
    }

    @Override
    public void reset() {
        sketch = builder.build();
        union = new Union<>(entries, support);
        empty = true;
    }

    @Override
    public boolean isEmpty() {
        return empty;
    }
}

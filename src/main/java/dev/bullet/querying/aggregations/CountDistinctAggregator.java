package dev.bullet.querying.aggregations;

import dev.bullet.query.Aggregation;
import dev.bullet.query.NamedField;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.theta.CompactSketch;
import org.apache.datasketches.theta.SetOperation;
import org.apache.datasketches.theta.Union;
import org.apache.datasketches.theta.UpdateSketch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * COUNT DISTINCT over the combination of {@code fields}: a DataSketches Theta sketch, exact below
 * {@code bullet.query.aggregation.count.distinct.sketch.entries} distinct values. One row {@code {newName: count}};
 * the count is a whole number while exact and the sketch's estimate once estimating.
 */
final class CountDistinctAggregator implements Aggregator {
    private final List<NamedField> fields;
    private final SketchKeys.Fields keys;
    private final String name;
    private final int entries;
    private UpdateSketch sketch;
    private Union union;
    /** Whether {@link #union} holds a partial: a Filter's aggregator never combines one. */
    private boolean combined;
    private boolean empty;

    CountDistinctAggregator(Aggregation aggregation, QuerySettings settings) {
        this.fields = aggregation.fields();
        this.keys = SketchKeys.fields(fields);
        this.name = aggregation.newName();
        this.entries = settings.countDistinctEntries();
        reset();
    }

    @Override
    public void consume(Record record) {
        sketch.update(SketchKeys.keyOf(keys, record));
        empty = false;
    }

    /**
     * Each matching record's key in batch order, as {@link #consume} does, but from the record's bytes when they tell
     * it: a Theta sketch hashes a string's UTF-8 bytes (DataSketches 6.1.1 {@code UpdateSketch.update(String)} and
     * {@code update(byte[])} hash the same bytes alike), so the key needs no {@code String}, and a key met again
     * within the batch is the duplicate the sketch finds and rejects.
     */
    @Override
    public void consumeBatch(List<? extends Record> records, int from, long mask) {
        if (mask == 0) {
            return;
        }
        for (long m = mask; m != 0; m &= m - 1) {
            Record record = records.get(from + Long.numberOfTrailingZeros(m));
            byte[] key = SketchKeys.keyBytes(keys, record);
            if (key != null) {
                sketch.update(key);
            } else {
                sketch.update(SketchKeys.keyOf(keys, record));
            }
        }
        empty = false;
    }

    @Override
    public void combine(byte[] partial) {
        union.union(CompactSketch.heapify(Memory.wrap(partial)));
        combined = true;
        empty = false;
    }

    private CompactSketch merged() {
        Union u = SetOperation.builder().setNominalEntries(entries).buildUnion();
        u.union(union.getResult());
        u.union(sketch);
        return u.getResult();
    }

    /**
     * The partial: the union of what was combined and the sketch, as {@link #records} reads it. A sketch alone that
     * is exact (theta 1) and holds no more than its nominal entries (a union keeps that many; the sketch's table holds
     * more before it lowers theta) is its own union's result, so it is compacted as it is, ordered (the same bytes,
     * {@code CountDistinctAggregatorTest}), without building a union of its hashes at every tick.
     */
    @Override
    public byte[] serialize() {
        if (!combined && !sketch.isEstimationMode() && sketch.getRetainedEntries(true) <= entries) {
            return sketch.compact(true, null).toByteArray();
        }
        return merged().toByteArray();
    }

    @Override
    public List<Map<String, Object>> records() {
        CompactSketch result = merged();
        Map<String, Object> row = new LinkedHashMap<>();
        double estimate = result.getEstimate();
        row.put(name, result.isEstimationMode() ? (Object) estimate : (Object) Math.round(estimate));
        return List.of(row);
    }

    @Override
    public Map<String, Object> sketchMetadata() {
        return SketchMetadata.of(merged());
    }

    @Override
    public void reset() {
        sketch = UpdateSketch.builder().setNominalEntries(entries).build();
        union = SetOperation.builder().setNominalEntries(entries).buildUnion();
        combined = false;
        empty = true;
    }

    /** The Theta sketch and union hold hashes only: their own sizes, which their nominal entries bound. */
    @Override
    public long heldBytes() {
        return HeapEstimate.FIXED + sketch.getCurrentBytes() + union.getCurrentBytes();
    }

    @Override
    public boolean isEmpty() {
        return empty;
    }
}

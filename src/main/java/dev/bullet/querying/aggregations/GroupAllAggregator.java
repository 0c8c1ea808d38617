package dev.bullet.querying.aggregations;

import dev.bullet.query.Aggregation;
import dev.bullet.query.GroupOperation;
import dev.bullet.record.Record;
import org.apache.datasketches.memory.Memory;

import java.util.List;
import java.util.Map;

/**
 * GROUP without group-by fields: one group over every record, exact. Like SQL's aggregate without GROUP BY it
 * always yields one row, even over no records (COUNT 0, other metrics null).
 */
final class GroupAllAggregator implements Aggregator {
    private final GroupSpec spec;
    /** Only COUNTs: a batch's records add their number, none of them is read. */
    private final boolean countOnly;
    private GroupMetrics metrics;

    GroupAllAggregator(Aggregation aggregation) {
        this.spec = new GroupSpec(List.of(), aggregation.operations());
        boolean counts = true;
        for (GroupOperation op : aggregation.operations()) {
            counts &= op.type() == GroupOperation.Type.COUNT;
        }
        this.countOnly = counts;
        reset();
    }

    @Override
    public void consume(Record record) {
        metrics.update(record);
    }

    @Override
    public void consumeBatch(List<? extends Record> records, int from, long mask) {
        if (!countOnly || mask == 0) {
            Aggregator.super.consumeBatch(records, from, mask);
            return;
        }
        metrics.update(records.get(from + Long.numberOfTrailingZeros(mask)));
        metrics.addCount(Long.bitCount(mask) - 1);
    }

    @Override
    public void combine(byte[] partial) {
        metrics.merge(GroupMetrics.fromMemory(spec, Memory.wrap(partial)).getObject());
    }

    @Override
    public byte[] serialize() {
        return metrics.toByteArray();
    }

    @Override
    public List<Map<String, Object>> records() {
        return List.of(metrics.toRow());
    }

    @Override
    public Map<String, Object> sketchMetadata() {
        return Map.of();
    }

    @Override
    public void reset() {
        metrics = new GroupMetrics(spec);
    }

    /** One group's metrics: does not grow with the records. */
    @Override
    public long heldBytes() {
        return HeapEstimate.FIXED;
    }

    @Override
    public boolean isEmpty() {
        return metrics.count() == 0;
    }
}

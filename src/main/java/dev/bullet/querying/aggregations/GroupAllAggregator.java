package dev.bullet.querying.aggregations;

import dev.bullet.query.Aggregation;
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
    private GroupMetrics metrics;

    GroupAllAggregator(Aggregation aggregation) {
        this.spec = new GroupSpec(List.of(), aggregation.operations());
        reset();
    }

    @Override
    public void consume(Record record) {
        metrics.update(record);
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

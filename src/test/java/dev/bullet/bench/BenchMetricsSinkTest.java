package dev.bullet.bench;

import dev.bullet.metrics.MetricPoint;
import dev.bullet.testing.TopologyHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** The benchmark's metrics sink keeps what a step reads and nothing that grows with the run. */
class BenchMetricsSinkTest {
    @AfterEach
    void clear() {
        BenchMetricsSink.POINTS.clear();
    }

    private static MetricPoint point(String name, long timestamp) {
        return new MetricPoint(timestamp, "w", "filter-bolt", 1, name, 1L);
    }

    @Test
    void keepsBulletPointsOfTheLastMinutesOnly() {
        BenchMetricsSink sink = new BenchMetricsSink();
        long now = System.currentTimeMillis();
        long old = now - BenchMetricsSink.RETENTION_MS - 60_000;
        sink.accept(List.of(point("bullet_filter_latency", old), point("__receive", now)));
        sink.accept(List.of(point("bullet_filter_latency", now), point("__sendqueue", now), point("bullet_records_decoded", now)));

        assertEquals(List.of(point("bullet_filter_latency", now)), BenchMetricsSink.between("bullet_filter_latency", now - 1, now + 1),
                     "the old point is gone, the new one kept");
        assertEquals(2, BenchMetricsSink.POINTS.size(), "Storm's built-in metrics are not kept");
    }

    @Test
    void theWorkloadRepliesOnAPartitionTheHarnessDoesNotRead() {
        assertNotEquals(TopologyHarness.REPLY_PARTITION, ResultFlow.PARTITION);
    }
}

package dev.bullet.bench;

import dev.bullet.metrics.MetricPoint;
import dev.bullet.metrics.MetricsSink;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A metrics consumer for in-process benchmarks (LocalCluster runs in the benchmark's JVM): keeps the last minutes of
 * Bullet's data points in memory for the harness to read.
 */
public final class BenchMetricsSink implements MetricsSink {
    static final ConcurrentLinkedQueue<MetricPoint> POINTS = new ConcurrentLinkedQueue<>();
    /**
     * Points older than this are dropped: a step reads only its own seconds, and a long run must not fill the heap
     * (Storm's built-in metrics alone bring ~10,000 boxed values a second at a 1 s interval).
     */
    static final long RETENTION_MS = 3 * 60 * 1000L;
    /** Only Bullet's own metrics are kept: the harness reads nothing else. */
    static final String KEPT_PREFIX = "bullet_";

    @Override
    public void prepare(Map<String, Object> settings) {
    }

    @Override
    public void accept(List<MetricPoint> points) {
        for (MetricPoint p : points) {
            if (p.name().startsWith(KEPT_PREFIX)) {
                POINTS.add(p);
            }
        }
        long cutoff = System.currentTimeMillis() - RETENTION_MS;
        MetricPoint oldest = POINTS.peek();
        if (oldest != null && oldest.timestamp() < cutoff) {
            POINTS.removeIf(p -> p.timestamp() < cutoff);
        }
    }

    @Override
    public void close() {
    }

    /** The points of one metric whose timestamp lies in [from, to). */
    static List<MetricPoint> between(String name, long from, long to) {
        List<MetricPoint> out = new ArrayList<>();
        for (MetricPoint p : POINTS) {
            if (p.name().equals(name) && p.timestamp() >= from && p.timestamp() < to) {
                out.add(p);
            }
        }
        return out;
    }
}

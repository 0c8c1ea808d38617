package dev.bullet.bench;

import dev.bullet.metrics.MetricPoint;
import dev.bullet.metrics.MetricsSink;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A metrics consumer for in-process benchmarks (LocalCluster runs in the benchmark's JVM): keeps every data point in
 * memory for the harness to read.
 */
public final class BenchMetricsSink implements MetricsSink {
    static final ConcurrentLinkedQueue<MetricPoint> POINTS = new ConcurrentLinkedQueue<>();

    @Override
    public void prepare(Map<String, Object> settings) {
    }

    @Override
    public void accept(List<MetricPoint> points) {
        POINTS.addAll(points);
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

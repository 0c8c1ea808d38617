package dev.bullet.metrics;

import java.util.List;
import java.util.Map;

/**
 * A metrics consumer (SPEC §8.1): receives every data point of the topology. Implement this, put the class on the
 * topology's classpath, and name it in {@code bullet.topology.metrics.classes}. It needs a public no-argument
 * constructor; {@link #prepare} receives the topology's settings (every {@code bullet.*} key). One instance per
 * consumer task; calls come from one thread.
 */
public interface MetricsSink extends AutoCloseable {
    void prepare(Map<String, Object> settings);

    void accept(List<MetricPoint> points);

    @Override
    void close();
}

package dev.bullet.metrics;

import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Filter latency (record read → filtered) of one task, in ms, on an HdrHistogram: mean, p50, p99 and max per
 * reporting interval. Recording allocates nothing. Not thread-safe.
 */
public final class LatencyHistogram {
    private static final long MAX_MS = 3_600_000L;
    private final Histogram histogram = new Histogram(MAX_MS, 3);

    /** Records {@code count} records that all waited {@code latencyMs}. */
    public void record(long latencyMs, long count) {
        histogram.recordValueWithCount(Math.max(0, Math.min(MAX_MS, latencyMs)), count);
    }

    /** The summary since the last call (empty map when nothing was recorded), then resets. */
    public Map<String, Object> snapshotAndReset() {
        Map<String, Object> summary = new LinkedHashMap<>();
        if (histogram.getTotalCount() > 0) {
            summary.put("mean", histogram.getMean());
            summary.put("p50", histogram.getValueAtPercentile(50));
            summary.put("p99", histogram.getValueAtPercentile(99));
            summary.put("max", histogram.getMaxValue());
            summary.put("count", histogram.getTotalCount());
        }
        histogram.reset();
        return summary;
    }
}

package dev.bullet.metrics;

/**
 * One data point (SPEC §8.1): when, from which worker ({@code host:port}), component and task, the metric's name
 * and its value (a number, or a map of named numbers such as a latency's mean and percentiles).
 */
public record MetricPoint(long timestamp, String worker, String component, int task, String name, Object value) {
}

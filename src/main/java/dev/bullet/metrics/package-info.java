/**
 * Metrics (SPEC §8): the {@link dev.bullet.metrics.MetricsSink} plug-in interface and its json-log and Prometheus
 * implementations, JVM statistics and the filter-latency histogram. The Storm metrics consumer that feeds the sinks
 * lives in {@code dev.bullet.storm}.
 */
package dev.bullet.metrics;

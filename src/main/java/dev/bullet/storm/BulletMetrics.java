package dev.bullet.storm;

import dev.bullet.config.SettingsTable;
import dev.bullet.metrics.JvmStats;
import dev.bullet.metrics.LatencyHistogram;
import org.apache.storm.metric.api.CountMetric;
import org.apache.storm.metric.api.IMetric;
import org.apache.storm.task.TopologyContext;

import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The metrics of one task (SPEC §8.2), registered once in {@code prepare()}: the JVM's CPU, heap and GC when
 * {@code bullet.topology.metrics.enable} is on, and the built-in Bullet metrics when
 * {@code bullet.topology.metrics.built.in.enable} is on, each at its interval from
 * {@code bullet.topology.metrics.built.in.emit.interval.mapping}. Everything is a no-op when off.
 */
public final class BulletMetrics {
    public static final String RECORDS_DECODED = "bullet_records_decoded";
    public static final String RECORDS_MALFORMED = "bullet_records_malformed";
    public static final String CREATED_QUERIES = "bullet_created_queries";
    public static final String IMPROPER_QUERIES = "bullet_improper_queries";
    public static final String RATE_EXCEEDED_QUERIES = "bullet_rate_exceeded_queries";
    public static final String ACTIVE_QUERIES = "bullet_active_queries";
    public static final String FILTER_LATENCY = "bullet_filter_latency";
    /** RLIKE queries whose pattern requires no literal, so they meet every record with a value on their field. */
    public static final String UNFILTERED_REGEX_QUERIES = "bullet_filter_unfiltered_regex_queries";
    /** A map of JVM data points that the consumer spreads into one point per entry. */
    public static final String JVM = "bullet_jvm";
    /** Topology config key carrying the emit interval mapping to the tasks. */
    static final String INTERVALS = SettingsTable.METRICS_BUILT_IN_EMIT_INTERVAL_MAPPING;

    private final Map<String, Object> conf;
    private final TopologyContext context;
    private final boolean builtIn;

    private BulletMetrics(Map<String, Object> conf, TopologyContext context) {
        this.conf = conf;
        this.context = context;
        this.builtIn = context != null && Boolean.TRUE.equals(conf.get(SettingsTable.METRICS_BUILT_IN_ENABLE));
    }

    /** Registers the JVM metrics of the task (when metrics are on) and returns the registry for built-in ones. */
    static BulletMetrics register(Map<String, Object> conf, TopologyContext context) {
        BulletMetrics metrics = new BulletMetrics(conf, context);
        if (context != null && Boolean.TRUE.equals(conf.get(SettingsTable.METRICS_ENABLE))) {
            JvmStats jvm = new JvmStats();
            context.registerMetric(JVM, (IMetric) jvm::snapshot, metrics.interval(JVM));
        }
        return metrics;
    }

    @SuppressWarnings("unchecked")
    int interval(String name) {
        Object mapping = conf.get(INTERVALS);
        if (mapping instanceof Map) {
            Map<String, Object> m = (Map<String, Object>) mapping;
            Object v = m.getOrDefault(name, m.get(SettingsTable.DEFAULT_METRIC_ENTRY));
            if (v instanceof Number) {
                return ((Number) v).intValue();
            }
        }
        return 60;
    }

    /** A per-interval counter, or a counter that goes nowhere when built-in metrics are off. */
    CountMetric counter(String name) {
        CountMetric metric = new CountMetric();
        if (builtIn) {
            context.registerMetric(name, metric, interval(name));
        }
        return metric;
    }

    /** A gauge read at each interval. */
    void gauge(String name, LongSupplier value) {
        if (builtIn) {
            context.registerMetric(name, (IMetric) value::getAsLong, interval(name));
        }
    }

    /** A latency histogram reported (mean, p50, p99, max) and reset at each interval; null when off. */
    LatencyHistogram latency(String name) {
        if (!builtIn) {
            return null;
        }
        LatencyHistogram histogram = new LatencyHistogram();
        context.registerMetric(name, (IMetric) () -> {
            Map<String, Object> summary = histogram.snapshotAndReset();
            return summary.isEmpty() ? null : summary;
        }, interval(name));
        return histogram;
    }
}

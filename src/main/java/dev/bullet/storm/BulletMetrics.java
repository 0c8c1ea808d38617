package dev.bullet.storm;

import dev.bullet.metrics.JvmStats;
import dev.bullet.metrics.MetricsSettings;
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
// Storm's v1 metrics API (registerMetric) is deprecated in 2.x but is what reaches an IMetricsConsumer on a cluster
// with per-metric intervals (RECIPES.md, Metrics); the v2 API only reports on topology.v2.metrics.tick.
@SuppressWarnings("deprecation")
public final class BulletMetrics {
    public static final String RECORDS_DECODED = "bullet_records_decoded";
    public static final String RECORDS_MALFORMED = "bullet_records_malformed";
    public static final String CREATED_QUERIES = "bullet_created_queries";
    public static final String IMPROPER_QUERIES = "bullet_improper_queries";
    public static final String RATE_EXCEEDED_QUERIES = "bullet_rate_exceeded_queries";
    public static final String ACTIVE_QUERIES = "bullet_active_queries";
    /** Queries ended early for holding more than {@code bullet.query.max.bytes}. */
    public static final String QUERY_BYTES_EXCEEDED_QUERIES = "bullet_query_bytes_exceeded_queries";
    /** Queries ended early, the largest of their worker's, for {@code bullet.query.max.worker.bytes}. */
    public static final String WORKER_BYTES_EXCEEDED_QUERIES = "bullet_worker_bytes_exceeded_queries";
    /** Queries refused for {@code bullet.query.max.running} (by a Join task, with an error result, or a Filter task). */
    public static final String REFUSED_QUERIES = "bullet_refused_queries";
    /** Queries a Filter task refused since it started (a gauge): it held twice {@code bullet.query.max.running}. */
    public static final String FILTER_REFUSED_QUERIES = "bullet_filter_refused_queries";
    public static final String FILTER_LATENCY = "bullet_filter_latency";
    /** Results the Result bolt could not publish (the PubSub refused them); each is also logged. */
    public static final String RESULTS_DROPPED = "bullet_results_dropped";
    /** Results a Join task keeps until the Result bolt confirms Kafka has them (a gauge). */
    public static final String RESULTS_UNCONFIRMED = "bullet_results_unconfirmed";
    /**
     * Results a Join task stopped keeping before the Result bolt confirmed them: past the bounds
     * {@code bullet.topology.join.unconfirmed.max.*}, or after their last re-send; each is also logged.
     */
    public static final String RESULTS_UNCONFIRMED_DROPPED = "bullet_results_unconfirmed_dropped";
    /** Messages on the request topic that are not PubSub messages, skipped by the query spout. */
    public static final String PUBSUB_MESSAGES_MALFORMED = "bullet_pubsub_messages_malformed";
    /** RLIKE queries whose pattern requires no literal, so they meet every record with a value on their field. */
    public static final String UNFILTERED_REGEX_QUERIES = "bullet_filter_unfiltered_regex_queries";
    /** A map of JVM data points that the consumer spreads into one point per entry. */
    public static final String JVM = "bullet_jvm";

    private final MetricsSettings settings;
    private final TopologyContext context;
    private final boolean builtIn;

    private BulletMetrics(MetricsSettings settings, TopologyContext context) {
        this.settings = settings;
        this.context = context;
        this.builtIn = context != null && settings.builtInEnabled();
    }

    /** Registers the JVM metrics of the task (when metrics are on) and returns the registry for built-in ones. */
    static BulletMetrics register(Map<String, Object> conf, TopologyContext context) {
        BulletMetrics metrics = new BulletMetrics(MetricsSettings.from(conf), context);
        if (context != null && metrics.settings.enabled()) {
            JvmStats jvm = new JvmStats();
            context.registerMetric(JVM, (IMetric) jvm::snapshot, metrics.interval(JVM));
        }
        return metrics;
    }

    int interval(String name) {
        return settings.intervalSecs(name);
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

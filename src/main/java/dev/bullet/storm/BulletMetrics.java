package dev.bullet.storm;

import com.codahale.metrics.Counter;
import dev.bullet.config.SettingsTable;
import org.apache.storm.task.TopologyContext;

import java.util.Map;

/**
 * The built-in Bullet metrics of one task (SPEC §8.2), registered once in {@code prepare()} when
 * {@code bullet.topology.metrics.built.in.enable} is on, and no-ops otherwise.
 */
public final class BulletMetrics {
    public static final String RECORDS_DECODED = "bullet_records_decoded";
    public static final String RECORDS_MALFORMED = "bullet_records_malformed";
    public static final String CREATED_QUERIES = "bullet_created_queries";
    public static final String IMPROPER_QUERIES = "bullet_improper_queries";
    public static final String RATE_EXCEEDED_QUERIES = "bullet_rate_exceeded_queries";
    public static final String ACTIVE_QUERIES = "bullet_active_queries";
    public static final String FILTER_LATENCY = "bullet_filter_latency";

    private final Counter decoded;
    private final Counter malformed;

    private BulletMetrics(Counter decoded, Counter malformed) {
        this.decoded = decoded;
        this.malformed = malformed;
    }

    static BulletMetrics register(Map<String, Object> conf, TopologyContext context) {
        if (!enabled(conf)) {
            return new BulletMetrics(null, null);
        }
        return new BulletMetrics(context.registerCounter(RECORDS_DECODED), context.registerCounter(RECORDS_MALFORMED));
    }

    static boolean enabled(Map<String, Object> conf) {
        return Boolean.TRUE.equals(conf.get(SettingsTable.METRICS_BUILT_IN_ENABLE));
    }

    void recordsDecoded(long n) {
        if (decoded != null) {
            decoded.inc(n);
        }
    }

    void recordsMalformed(long n) {
        if (malformed != null) {
            malformed.inc(n);
        }
    }
}

package dev.bullet.rest;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;

import java.util.ArrayList;
import java.util.List;

/**
 * The REST service's settings (SPEC §7.2, the {@code bullet.rest.*} keys), typed and immutable.
 *
 * @param host                 address the server binds (127.0.0.1 by default)
 * @param port                 port the server binds (0 = any free port)
 * @param maxBodyBytes         largest query body; larger bodies get 413
 * @param maxConcurrentQueries most queries running through this instance at once; more get 429
 * @param resultGraceMs        how long past a query's duration a final result is waited for before 503
 * @param healthTimeoutMs      how long the health check waits for the topology to answer its probe query
 * @param responsePartitions   the response topic partitions this instance reads (never empty: "all" is resolved)
 * @param sseKeepAliveMs       interval of keep-alive comments on SSE streams
 * @param requestTimeoutMs     longest a client may take to send a request's headers, and again its body
 * @param metricsUrl           the Prometheus endpoint the console links to, or null
 * @param access               authentication, TLS, tenant quotas and the browser checks
 */
public record RestSettings(String host, int port, int maxBodyBytes, int maxConcurrentQueries, long resultGraceMs,
                           long healthTimeoutMs, List<Integer> responsePartitions, long sseKeepAliveMs,
                           long requestTimeoutMs, String metricsUrl, AccessSettings access) {
    public RestSettings {
        if (responsePartitions.isEmpty()) {
            throw new IllegalArgumentException("a REST instance needs at least one response partition");
        }
        responsePartitions = List.copyOf(responsePartitions);
    }

    /** The default request timeout of the settings table. */
    static final long DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

    /** Without a metrics link (the console shows none). */
    public RestSettings(String host, int port, int maxBodyBytes, int maxConcurrentQueries, long resultGraceMs,
                        long healthTimeoutMs, List<Integer> responsePartitions, long sseKeepAliveMs) {
        this(host, port, maxBodyBytes, maxConcurrentQueries, resultGraceMs, healthTimeoutMs, responsePartitions,
             sseKeepAliveMs, DEFAULT_REQUEST_TIMEOUT_MS, null, AccessSettings.LOCAL);
    }

    /** The same settings with other access rules. */
    public RestSettings withAccess(AccessSettings rules) {
        return new RestSettings(host, port, maxBodyBytes, maxConcurrentQueries, resultGraceMs, healthTimeoutMs,
                                responsePartitions, sseKeepAliveMs, requestTimeoutMs, metricsUrl, rules);
    }

    /** The REST keys out of validated settings; an empty partition list means every response partition. */
    public static RestSettings from(BulletSettings s) {
        List<Integer> partitions = new ArrayList<>();
        for (String p : s.getList(SettingsTable.REST_RESPONSE_PARTITIONS)) {
            partitions.add(Integer.parseInt(p.trim()));
        }
        if (partitions.isEmpty()) {
            for (int p = 0; p < s.getInt(SettingsTable.PUBSUB_KAFKA_RESPONSE_PARTITIONS); p++) {
                partitions.add(p);
            }
        }
        return new RestSettings(s.getString(SettingsTable.REST_HOST), s.getInt(SettingsTable.REST_PORT),
                                s.getInt(SettingsTable.REST_MAX_BODY_BYTES),
                                s.getInt(SettingsTable.REST_MAX_CONCURRENT_QUERIES),
                                s.getLong(SettingsTable.REST_RESULT_GRACE_MS),
                                s.getLong(SettingsTable.REST_HEALTH_TIMEOUT_MS), partitions,
                                s.getLong(SettingsTable.REST_SSE_KEEPALIVE_MS),
                                s.getLong(SettingsTable.REST_REQUEST_TIMEOUT_MS), metricsUrl(s),
                                AccessSettings.from(s));
    }

    /** The Prometheus endpoint of the topology's metrics when that sink is on (for the console's link), else null. */
    private static String metricsUrl(BulletSettings s) {
        boolean prometheus = s.getBoolean(SettingsTable.METRICS_ENABLE)
                             && s.getList(SettingsTable.METRICS_CLASSES).contains("prometheus");
        return prometheus ? "http://127.0.0.1:" + s.getInt(SettingsTable.METRICS_PROMETHEUS_PORT) + "/metrics" : null;
    }
}

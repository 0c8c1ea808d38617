package dev.bullet.metrics;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;

import java.util.List;
import java.util.Map;

/**
 * The metrics settings (SPEC §8), typed, from the one settings table: every default comes from
 * {@link SettingsTable}, none is repeated here.
 *
 * @param enabled         {@code bullet.topology.metrics.enable}: JVM and Storm metrics go to the sinks
 * @param builtInEnabled  {@code bullet.topology.metrics.built.in.enable}: the built-in Bullet metrics are registered
 * @param sinks           {@code bullet.topology.metrics.classes}: sink aliases or class names
 * @param jsonPath        {@code bullet.topology.metrics.json.path}: the json-log sink's file
 * @param prometheusPort  {@code bullet.topology.metrics.prometheus.port}: the Prometheus sink's port on 127.0.0.1
 * @param intervalsSecs   {@code bullet.topology.metrics.built.in.emit.interval.mapping}, with its {@code default} entry
 */
public record MetricsSettings(boolean enabled, boolean builtInEnabled, List<String> sinks, String jsonPath,
                              int prometheusPort, Map<String, Integer> intervalsSecs) {
    public MetricsSettings {
        sinks = List.copyOf(sinks);
        intervalsSecs = Map.copyOf(intervalsSecs);
    }

    public static MetricsSettings from(BulletSettings settings) {
        return new MetricsSettings(settings.getBoolean(SettingsTable.METRICS_ENABLE),
                                   settings.getBoolean(SettingsTable.METRICS_BUILT_IN_ENABLE),
                                   settings.getList(SettingsTable.METRICS_CLASSES),
                                   settings.getString(SettingsTable.METRICS_JSON_PATH),
                                   settings.getInt(SettingsTable.METRICS_PROMETHEUS_PORT),
                                   settings.getIntMap(SettingsTable.METRICS_BUILT_IN_EMIT_INTERVAL_MAPPING));
    }

    /** From the settings map a {@link MetricsSink} or a task receives (a topology's Storm config). */
    public static MetricsSettings from(Map<String, ?> topologyConfig) {
        return from(BulletSettings.fromTopologyConfig(topologyConfig));
    }

    /** The emit interval of a metric in seconds: its own entry of the mapping, else the {@code default} entry. */
    public int intervalSecs(String metricName) {
        Integer own = intervalsSecs.get(metricName);
        return own != null ? own : intervalsSecs.get(SettingsTable.DEFAULT_METRIC_ENTRY);
    }
}

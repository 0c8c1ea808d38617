package dev.bullet.metrics;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsException;
import dev.bullet.config.SettingsTable;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Typed metrics settings: defaults only from the settings table, read back from a topology's Storm config. */
class MetricsSettingsTest {
    @Test
    void defaultsComeFromTheSettingsTable() {
        MetricsSettings m = MetricsSettings.from(Map.of());
        BulletSettings defaults = BulletSettings.defaults();

        assertFalse(m.enabled());
        assertEquals(defaults.getInt(SettingsTable.METRICS_PROMETHEUS_PORT), m.prometheusPort());
        assertEquals(defaults.getString(SettingsTable.METRICS_JSON_PATH), m.jsonPath());
        assertEquals(defaults.getList(SettingsTable.METRICS_CLASSES), m.sinks());
        assertEquals(defaults.metricEmitIntervalSecs("bullet_anything"), m.intervalSecs("bullet_anything"));
    }

    @Test
    void aStormConfigWithJsonNumberTypesAndStormKeysIsRead() {
        // On a cluster the topology config travels as JSON: ints arrive as longs; Storm's own keys are ignored.
        MetricsSettings m = MetricsSettings.from(Map.of(
                SettingsTable.METRICS_ENABLE, true,
                SettingsTable.METRICS_PROMETHEUS_PORT, 9191L,
                SettingsTable.METRICS_BUILT_IN_EMIT_INTERVAL_MAPPING, Map.of("bullet_active_queries", 5L, "default", 30L),
                "topology.workers", 4L));

        assertTrue(m.enabled());
        assertEquals(9191, m.prometheusPort());
        assertEquals(5, m.intervalSecs("bullet_active_queries"));
        assertEquals(30, m.intervalSecs("bullet_filter_latency"));
    }

    @Test
    void aBadValueIsAnErrorNamingTheKey() {
        SettingsException e = assertThrows(SettingsException.class, () -> MetricsSettings.from(
                Map.of(SettingsTable.METRICS_PROMETHEUS_PORT, 70_000)));
        assertTrue(e.getMessage().contains(SettingsTable.METRICS_PROMETHEUS_PORT), e.getMessage());
    }
}

package dev.bullet.query;

import dev.bullet.common.Limits;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;

import java.io.Serializable;
import java.util.Map;

/**
 * The settings that shape how queries are validated, run and reported (SPEC §4.3, §6.7, §6.8, §6.10).
 * Immutable and serializable, so one instance travels with the topology to every Filter and Join task.
 */
public record QuerySettings(long defaultDurationMs, long maxDurationMs,
                            int defaultSize, int maxSize, int rawMaxSize,
                            int distributionMaxPoints, int generatedPointsRounding,
                            int countDistinctEntries, int groupEntries, int distributionEntries, int topKEntries,
                            long minEmitEveryMs,
                            boolean rateLimitEnabled, int rateLimitMaxEmitCount, long rateLimitIntervalMs,
                            boolean metadataEnabled, Map<String, String> metadataNames,
                            boolean injectTimestamp, String timestampKey, Limits limits) implements Serializable {

    public QuerySettings {
        metadataNames = Map.copyOf(metadataNames);
    }

    /** The built-in defaults (the same values as {@code conf/bullet_settings.yaml}). */
    public static QuerySettings defaults() {
        return from(BulletSettings.defaults());
    }

    /** The query settings out of the full, validated settings. */
    public static QuerySettings from(BulletSettings s) {
        return new QuerySettings(s.getLong(SettingsTable.QUERY_DEFAULT_DURATION), s.getLong(SettingsTable.QUERY_MAX_DURATION),
                                 s.getInt(SettingsTable.QUERY_AGGREGATION_DEFAULT_SIZE),
                                 s.getInt(SettingsTable.QUERY_AGGREGATION_MAX_SIZE),
                                 s.getInt(SettingsTable.QUERY_AGGREGATION_RAW_MAX_SIZE),
                                 s.getInt(SettingsTable.QUERY_AGGREGATION_DISTRIBUTION_MAX_POINTS),
                                 s.getInt(SettingsTable.QUERY_AGGREGATION_DISTRIBUTION_GENERATED_POINTS_ROUNDING),
                                 s.getInt(SettingsTable.COUNT_DISTINCT_SKETCH_ENTRIES),
                                 s.getInt(SettingsTable.GROUP_SKETCH_ENTRIES),
                                 s.getInt(SettingsTable.DISTRIBUTION_SKETCH_ENTRIES),
                                 s.getInt(SettingsTable.TOP_K_SKETCH_ENTRIES),
                                 s.getLong(SettingsTable.QUERY_WINDOW_MIN_EMIT_EVERY),
                                 s.getBoolean(SettingsTable.QUERY_RATE_LIMIT_ENABLE),
                                 s.getInt(SettingsTable.QUERY_RATE_LIMIT_MAX_EMIT_COUNT),
                                 s.getLong(SettingsTable.QUERY_RATE_LIMIT_TIME_INTERVAL),
                                 s.getBoolean(SettingsTable.RESULT_METADATA_ENABLE),
                                 s.getStringMap(SettingsTable.RESULT_METADATA_METRICS),
                                 s.getBoolean(SettingsTable.RECORD_INJECT_TIMESTAMP_ENABLE),
                                 s.getString(SettingsTable.RECORD_INJECT_TIMESTAMP_KEY), s.limits());
    }

    /** The output name of a metadata concept (SPEC §6.8), honouring {@code bullet.result.metadata.metrics}. */
    public String metaName(String concept) {
        return metadataNames.getOrDefault(concept, concept);
    }

    public QuerySettings withInjectTimestamp(boolean inject) {
        return new QuerySettings(defaultDurationMs, maxDurationMs, defaultSize, maxSize, rawMaxSize, distributionMaxPoints,
                                 generatedPointsRounding, countDistinctEntries, groupEntries, distributionEntries,
                                 topKEntries, minEmitEveryMs, rateLimitEnabled, rateLimitMaxEmitCount,
                                 rateLimitIntervalMs, metadataEnabled, metadataNames, inject, timestampKey, limits);
    }

    public QuerySettings withLimits(Limits newLimits) {
        return new QuerySettings(defaultDurationMs, maxDurationMs, defaultSize, maxSize, rawMaxSize, distributionMaxPoints,
                                 generatedPointsRounding, countDistinctEntries, groupEntries, distributionEntries,
                                 topKEntries, minEmitEveryMs, rateLimitEnabled, rateLimitMaxEmitCount,
                                 rateLimitIntervalMs, metadataEnabled, metadataNames, injectTimestamp, timestampKey, newLimits);
    }
}

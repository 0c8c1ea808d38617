package dev.bullet.query;

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
                            boolean injectTimestamp, String timestampKey) implements Serializable {

    public QuerySettings {
        metadataNames = Map.copyOf(metadataNames);
    }

    /** The built-in defaults (the same values as {@code conf/bullet_settings.yaml}). */
    public static QuerySettings defaults() {
        return new QuerySettings(30_000L, 86_400_000L, 500, 500, 500, 200, 6, 16_384, 512, 1024, 1024,
                                 1000L, true, 50, 100L, true, Map.of(), false, "bullet_project_timestamp");
    }

    /** The output name of a metadata concept (SPEC §6.8), honouring {@code bullet.result.metadata.metrics}. */
    public String metaName(String concept) {
        return metadataNames.getOrDefault(concept, concept);
    }

    public QuerySettings withInjectTimestamp(boolean inject) {
        return new QuerySettings(defaultDurationMs, maxDurationMs, defaultSize, maxSize, rawMaxSize, distributionMaxPoints,
                                 generatedPointsRounding, countDistinctEntries, groupEntries, distributionEntries,
                                 topKEntries, minEmitEveryMs, rateLimitEnabled, rateLimitMaxEmitCount,
                                 rateLimitIntervalMs, metadataEnabled, metadataNames, inject, timestampKey);
    }
}

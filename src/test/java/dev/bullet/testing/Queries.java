package dev.bullet.testing;

import dev.bullet.common.BulletError;
import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;

import java.util.List;
import java.util.stream.Collectors;

/** Parses query JSON in tests: {@link #parse} insists the query is valid, {@link #errors} that it is not. */
public final class Queries {
    private Queries() {
    }

    public static Query parse(String json) {
        return parse(json, QuerySettings.defaults());
    }

    public static Query parse(String json, QuerySettings settings) {
        QueryParser.Result result = new QueryParser(settings).parse(json);
        if (!result.isValid()) {
            throw new AssertionError("expected a valid query, got errors " + messages(result.errors()) + " for " + json);
        }
        return result.query();
    }

    public static List<BulletError> errors(String json) {
        QueryParser.Result result = new QueryParser(QuerySettings.defaults()).parse(json);
        if (result.isValid()) {
            throw new AssertionError("expected an invalid query: " + json);
        }
        return result.errors();
    }

    public static List<String> messages(List<BulletError> errors) {
        return errors.stream().map(BulletError::error).collect(Collectors.toList());
    }

    /** The default settings with other sketch sizes (DataSketches minimums: 16 entries for Theta/Tuple, 8 for TOP K). */
    public static QuerySettings withSketchEntries(int countDistinct, int group, int distribution, int topK) {
        QuerySettings d = QuerySettings.defaults();
        return new QuerySettings(d.defaultDurationMs(), d.maxDurationMs(), d.defaultSize(), d.maxSize(), d.rawMaxSize(),
                                 d.distributionMaxPoints(), d.generatedPointsRounding(), countDistinct, group, distribution,
                                 topK, d.minEmitEveryMs(), d.rateLimitEnabled(), d.rateLimitMaxEmitCount(),
                                 d.rateLimitIntervalMs(), d.metadataEnabled(), d.metadataNames(), d.injectTimestamp(),
                                 d.timestampKey(), d.limits());
    }

    /** The default settings with another rate limit. */
    public static QuerySettings withRateLimit(boolean enabled, int maxEmitCount, long intervalMs) {
        QuerySettings d = QuerySettings.defaults();
        return new QuerySettings(d.defaultDurationMs(), d.maxDurationMs(), d.defaultSize(), d.maxSize(), d.rawMaxSize(),
                                 d.distributionMaxPoints(), d.generatedPointsRounding(), d.countDistinctEntries(),
                                 d.groupEntries(), d.distributionEntries(), d.topKEntries(), d.minEmitEveryMs(), enabled,
                                 maxEmitCount, intervalMs, d.metadataEnabled(), d.metadataNames(), d.injectTimestamp(),
                                 d.timestampKey(), d.limits());
    }
}

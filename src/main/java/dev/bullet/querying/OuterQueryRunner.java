package dev.bullet.querying;

import dev.bullet.query.Query;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.MapRecord;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a query's outer query ({@link Query#outerQuery()}) on the rows of one result of the inner query, as
 * bullet-core 1.5.2's {@code Querier.outerQuery} does: a fresh query over the result's rows (after the inner query's
 * post-aggregations), fed in order until a RAW outer query has its size, whose result is emitted instead. It runs for
 * every result of the inner query: each window's and the final one.
 *
 * <p>The metadata is the inner query's (id, query, receive and finish times, warnings), with the outer query's
 * sketch metadata at the top and the inner query's window and sketch metadata moved under {@code inner_query}
 * (bullet-core's "Inner Query"): bullet-core gives the outer query's own metadata under the keys of the inner one's
 * and nests the inner one's below. The outer query has no window, so there is no window metadata at the top.
 * Stateless.
 */
final class OuterQueryRunner {
    private OuterQueryRunner() {
    }

    /** The result the outer query gives over {@code inner}, a result of the query that owns it. */
    static Result run(String id, Query query, QuerySettings settings, Result inner, long now) {
        Query outer = query.outerQuery();
        // the outer query sees the inner query's rows as they are: no timestamp is added to them
        QuerySettings outerSettings = settings.withInjectTimestamp(false);
        FilterQuerier filter = new FilterQuerier(id, outer, now, outerSettings);
        for (Map<String, Object> row : inner.records()) {
            if (filter.isSatisfied()) {
                break;
            }
            filter.consume(new MapRecord(row), now);
        }
        JoinQuerier join = new JoinQuerier(id, outer, now, outerSettings, 1, 0);
        // a table function that overflowed ends the outer query with its error
        Object partial = filter.failure() != null ? filter.failure() : filter.takePartial();
        List<Result> early = join.combine(partial, true, -1, now);
        Result result = early.isEmpty() ? join.finish(now) : early.get(0);
        return new Result(result.records(), meta(settings, inner.meta(), result.meta()), inner.isFinal());
    }

    private static Map<String, Object> meta(QuerySettings settings, Map<String, Object> innerMeta,
                                            Map<String, Object> outerMeta) {
        Map<String, Object> m = new LinkedHashMap<>(innerMeta);
        if (!settings.metadataEnabled()) {
            return m;
        }
        String window = settings.metaName("window");
        String sketches = settings.metaName("sketches");
        Map<String, Object> nested = new LinkedHashMap<>();
        if (m.containsKey(window)) {
            nested.put(window, m.remove(window));
        }
        if (m.containsKey(sketches)) {
            nested.put(sketches, m.remove(sketches));
        }
        if (outerMeta.containsKey(sketches)) {
            m.put(sketches, outerMeta.get(sketches));
        }
        m.put(settings.metaName("inner_query"), nested);
        return m;
    }
}

package dev.bullet.query;

import com.google.gson.JsonElement;
import dev.bullet.common.BulletError;

import java.util.List;

/**
 * A parsed, validated-once query (SPEC §6): the immutable model the engine runs. Durations and sizes are already
 * defaulted and clamped; every clamping is listed in {@link #warnings()} so results can report it.
 *
 * @param filter the top-level filters ANDed into one clause, or {@code null} to match everything
 * @param projection the fields to keep (renamed), or {@code null} to keep the whole record
 * @param window the window, or {@code null} for one final result at the end of the duration
 * @param original the query as submitted, echoed in result metadata
 */
public record Query(Clause filter, List<NamedField> projection, Aggregation aggregation,
                    List<PostAggregation> postAggregations, Window window, long durationMs,
                    JsonElement original, List<BulletError> warnings) {
    public Query {
        projection = projection == null ? null : List.copyOf(projection);
        postAggregations = List.copyOf(postAggregations);
        warnings = List.copyOf(warnings);
    }

    public boolean isRaw() {
        return aggregation.type() == AggregationType.RAW;
    }
}

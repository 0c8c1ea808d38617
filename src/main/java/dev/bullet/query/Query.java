package dev.bullet.query;

import com.google.gson.JsonElement;
import dev.bullet.common.BulletError;
import dev.bullet.query.expr.Expr;

import java.util.List;

/**
 * A parsed, validated-once query (SPEC §6): the immutable model the engine runs. Durations and sizes are already
 * defaulted and clamped; every clamping is listed in {@link #warnings()} so results can report it.
 *
 * @param filter the top-level filters ANDed into one clause, or {@code null} to match everything
 * @param where the expression filters ({@code {"expression": ...}} in {@code filters}), ANDed with {@code filter}: a
 *              record passes only when each is TRUE (bullet-core's filter); empty when there is none. The index sees
 *              only {@code filter}, so these are tested on its candidates
 * @param projection the fields to keep (renamed), or {@code null} to keep the whole record
 * @param computed the computed columns of the projection, in order; a column whose value is null or failed is left
 *                 out of the row (bullet-core's projection). With computed columns the projection is never null
 * @param window the window, or {@code null} for one final result at the end of the duration
 * @param original the query as submitted, echoed in result metadata
 * @param tableFunction the table function run on each record before everything else ({@link TableFunction}), or
 *                      {@code null}
 * @param outerQuery the outer query ({@code "outerQuery"} in the JSON query, BQL's {@code FROM (subquery)}), run on the
 *                   rows of each result of this query to give the result emitted instead; {@code null} for none. It
 *                   has no window and no outer query of its own; its duration is not used
 */
public record Query(Clause filter, List<Expr> where, List<NamedField> projection, List<ComputedField> computed,
                    Aggregation aggregation,
                    List<PostAggregation> postAggregations, Window window, long durationMs,
                    JsonElement original, List<BulletError> warnings, TableFunction tableFunction,
                    Query outerQuery) {
    public Query {
        where = List.copyOf(where);
        projection = projection == null ? null : List.copyOf(projection);
        computed = List.copyOf(computed);
        postAggregations = List.copyOf(postAggregations);
        warnings = List.copyOf(warnings);
    }

    /** A query without a table function. */
    public Query(Clause filter, List<Expr> where, List<NamedField> projection, List<ComputedField> computed,
                 Aggregation aggregation, List<PostAggregation> postAggregations, Window window, long durationMs,
                 JsonElement original, List<BulletError> warnings) {
        this(filter, where, projection, computed, aggregation, postAggregations, window, durationMs, original, warnings,
             null, null);
    }

    /** The same query with another {@link #original()} (what result metadata echoes). */
    public Query withOriginal(JsonElement newOriginal) {
        return new Query(filter, where, projection, computed, aggregation, postAggregations, window, durationMs,
                         newOriginal, warnings, tableFunction, outerQuery);
    }

    public boolean isRaw() {
        return aggregation.type() == AggregationType.RAW;
    }
}

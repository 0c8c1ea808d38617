package dev.bullet.query;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import dev.bullet.bql.Bql;
import dev.bullet.common.BulletError;
import dev.bullet.common.JsonDepth;
import dev.bullet.common.Limits;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static dev.bullet.query.JsonShapes.absent;
import static dev.bullet.query.JsonShapes.describe;
import static dev.bullet.query.JsonShapes.isNumber;

/**
 * Turns query JSON into a validated {@link Query}, or into the complete list of what is wrong with it
 * (SPEC §6.9): parsing never stops at the first problem. A facade over one parser per part of the query
 * ({@link FilterParser}, {@link ProjectionParser}, {@link AggregationParser}, {@link PostAggregationParser},
 * {@link WindowParser}), all reporting into one {@link Problems}. Thread-safe; holds only settings.
 */
public final class QueryParser {
    private static final Set<String> TOP_LEVEL = Set.of("filters", "projection", "aggregation", "postAggregations",
                                                        "window", "duration", "lateralView", "tableFunction",
                                                        "outerQuery");
    /** What an outer query cannot have (bullet-core: it has no window, and no outer query of its own). */
    private static final Set<String> NOT_IN_OUTER = Set.of("window", "duration", "outerQuery");

    private final QuerySettings settings;

    public QueryParser(QuerySettings settings) {
        this.settings = settings;
    }

    /** The outcome of parsing: a query, or the errors (never both). */
    public record Result(Query query, List<BulletError> errors) {
        public boolean isValid() {
            return query != null;
        }
    }

    /**
     * Parses a query text: JSON (SPEC §6), or BQL (bullet-bql's SQL dialect) given bare or as {@code {"query": "..."}}.
     * A BQL query is translated into its JSON form and validated as that; its {@link Query#original()} is the BQL
     * string as submitted.
     */
    public Result parse(String text) {
        if (Bql.looksLikeBql(text)) {
            return parseBql(text);
        }
        Limits limits = settings.limits();
        // before any recursive parse: an iterative scan, so 100,000 nested NOTs cannot overflow the stack
        if (JsonDepth.exceeds(text, limits.queryDepth())) {
            return failure(tooDeep(limits));
        }
        JsonElement root;
        try {
            root = parseStrict(text);
        } catch (JsonParseException | IOException | IllegalStateException | NumberFormatException e) {
            return failure(MalformedJson.error(e, text));
        }
        String wrapped = wrappedBql(root);
        return wrapped != null ? parseBql(wrapped) : parse(root);
    }

    private static BulletError tooDeep(Limits limits) {
        return BulletError.of("The query nests deeper than " + limits.queryDepth() + " levels (bullet.query.max.depth)",
                              "Flatten it: AND and OR take many clauses, NOT(NOT(x)) is x; or raise "
                              + "bullet.query.max.depth");
    }

    /** The JSON form of a BQL statement, its nesting bounded by {@code bullet.query.max.depth}. */
    public Bql.Translation translateBql(String bql) {
        return Bql.translate(bql, settings.limits().queryDepth());
    }

    /** Parses a text as BQL, whatever it looks like. */
    public Result parseBql(String bql) {
        // the BQL parser is recursive: it bounds its own nesting by bullet.query.max.depth, as for JSON
        Bql.Translation translation = translateBql(bql);
        if (!translation.isValid()) {
            return new Result(null, translation.errors());
        }
        Result result = build(translation.query(), false);
        if (!result.isValid()) {
            return result;
        }
        return new Result(result.query().withOriginal(new JsonPrimitive(bql)), List.of());
    }

    /** The BQL of a query text (bare, or {@code {"query": "..."}}), or null when it is a JSON query. */
    public static String bqlOf(String text) {
        if (Bql.looksLikeBql(text)) {
            return text;
        }
        try {
            return wrappedBql(parseStrict(text));
        } catch (JsonParseException | IOException | IllegalStateException | NumberFormatException e) {
            return null;
        }
    }

    /** The BQL of {@code {"query": "SELECT ..."}} (the object's only member), or null. */
    private static String wrappedBql(JsonElement root) {
        if (root == null || !root.isJsonObject() || root.getAsJsonObject().size() != 1) {
            return null;
        }
        JsonElement q = root.getAsJsonObject().get("query");
        return q != null && q.isJsonPrimitive() && q.getAsJsonPrimitive().isString() ? q.getAsString() : null;
    }

    public Result parse(JsonElement root) {
        if (root == null || !root.isJsonObject()) {
            return failure(BulletError.of("The query must be a JSON object, got " + describe(root),
                                          "Send an object such as {\"aggregation\": {\"type\": \"RAW\", \"size\": 1}}"));
        }
        return build(root.getAsJsonObject(), false);
    }

    private static Result failure(BulletError error) {
        return new Result(null, List.of(error));
    }

    private static JsonElement parseStrict(String json) throws IOException {
        JsonReader reader = new JsonReader(new StringReader(json));
        reader.setStrictness(Strictness.STRICT);
        JsonElement element = JsonParser.parseReader(reader);
        if (reader.peek() != JsonToken.END_DOCUMENT) {
            throw new JsonParseException("Unexpected content after the query at " + MalformedJson.position(reader));
        }
        return element;
    }

    /** One parse: every part's parser reports into one {@link Problems}; the query is built only if there are none. */
    private Result build(JsonObject json, boolean outer) {
        Problems problems = new Problems();
        for (String key : json.keySet()) {
            if (key.equals("query") && !outer) {
                // {"query": "..."} is BQL wrapped in JSON, and only when it is the object's one member, a string
                problems.error("\"query\" must be the body's only member, a string of BQL, got "
                               + (json.size() == 1 ? describe(json.get(key)) : "it beside " + (json.size() - 1)
                                  + " other member(s)"),
                               "Send {\"query\": \"SELECT ... FROM STREAM(...)\"} alone, or the query's JSON form"
                               + " without \"query\"");
            } else if (!TOP_LEVEL.contains(key)) {
                problems.error("Unknown query member \"" + key + "\"",
                               "Remove it, or use one of: " + String.join(", ", new TreeSet<>(TOP_LEVEL)));
            } else if (outer && NOT_IN_OUTER.contains(key)) {
                problems.error("An outer query cannot have \"" + key + "\"",
                               "Remove \"" + key + "\" from \"outerQuery\"; the inner query's window and duration "
                               + "decide when the outer query runs");
            }
        }
        Query outerQuery = outer ? null : parseOuter(json.get("outerQuery"), problems);
        FilterParser filters = new FilterParser(problems, settings);
        ProjectionParser projections = new ProjectionParser(problems, settings.limits());
        Clause filter = filters.parse(json.get("filters"));
        List<NamedField> projection = projections.parse(json.get("projection"));
        Aggregation aggregation = new AggregationParser(problems, settings, projections).parse(json.get("aggregation"));
        List<PostAggregation> postAggregations = new PostAggregationParser(problems, filters, settings.limits())
                .parse(json.get("postAggregations"));
        Window window = new WindowParser(problems, settings).parse(json.get("window"), aggregation);
        List<ComputedField> computed = projections.computed();
        long duration = parseDuration(json.get("duration"), settings, problems);
        TableFunction tableFunction = new TableFunctionParser(problems, settings.limits())
                .parse(json.get("lateralView"), json.get("tableFunction"));
        Limits limits = settings.limits();
        if (filters.clauseCount() > limits.queryClauses()) {
            problems.error("The query has " + filters.clauseCount() + " clauses, more than the limit of "
                           + limits.queryClauses() + " (bullet.query.max.clauses)",
                           "Use fewer clauses: one clause takes many values (\"values\": [\"a\", \"b\"] matches either); "
                           + "or raise bullet.query.max.clauses");
        }
        if (filters.valueCount() > limits.queryValues()) {
            problems.error("The query has " + filters.valueCount() + " values in its clauses, more than the limit of "
                           + limits.queryValues() + " (bullet.query.max.values)",
                           "Split the query, or raise bullet.query.max.values");
        }
        if (problems.hasErrors()) {
            return new Result(null, problems.errors());
        }
        Query query = new Query(filter, filters.expressions(), projection, computed, aggregation, postAggregations,
                                window, duration, json, problems.warnings(), tableFunction, outerQuery);
        return new Result(query, List.of());
    }

    /** The outer query, or null when there is none or it is invalid (each of its problems is reported). */
    private Query parseOuter(JsonElement e, Problems problems) {
        if (absent(e)) {
            return null;
        }
        if (!e.isJsonObject()) {
            problems.error("\"outerQuery\" must be a query object, got " + describe(e),
                           "Write \"outerQuery\": {...}, an object with the members of a query but no window or "
                           + "duration");
            return null;
        }
        Result result = build(e.getAsJsonObject(), true);
        for (BulletError error : result.errors()) {
            problems.error(new BulletError("outerQuery: " + error.error(), error.resolutions()));
        }
        return result.query();
    }

private static long parseDuration(JsonElement e, QuerySettings settings, Problems problems) {
    long duration = settings.defaultDurationMs();
    if (!absent(e)) {
        if (!isNumber(e)) {
            problems.error("\"duration\" must be a number of milliseconds, got " + describe(e), "Write \"duration\": 30000");
            return duration;
        }
        double d = e.getAsDouble();
        if (d > 0) {
            duration = d >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.ceil(d);
        }
    }
    if (duration > settings.maxDurationMs()) {
        problems.warn("duration " + duration + " ms was clamped to the maximum " + settings.maxDurationMs() + " ms",
             "Ask for at most " + settings.maxDurationMs() + " ms (bullet.query.max.duration)");
        duration = settings.maxDurationMs();
    }
    return duration;
}
}

package dev.bullet.query;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.re2j.PatternSyntaxException;
import dev.bullet.bql.Bql;
import dev.bullet.common.BulletError;
import dev.bullet.record.FieldPath;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns query JSON into a validated {@link Query}, or into the complete list of what is wrong with it
 * (SPEC §6.9): parsing never stops at the first problem. Thread-safe; holds only settings.
 */
public final class QueryParser {
    private static final Set<String> TOP_LEVEL = Set.of("filters", "projection", "aggregation", "postAggregations",
                                                        "window", "duration");
    private static final Pattern GSON_POSITION = Pattern.compile("line (\\d+) column (\\d+)");
    private static final String OPERATIONS_HINT = "Use one of: " + Operation.allSpellings();

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
        JsonElement root;
        try {
            root = parseStrict(text);
        } catch (JsonParseException | IOException | IllegalStateException e) {
            return failure(malformed(e, text));
        }
        String wrapped = wrappedBql(root);
        return wrapped != null ? parseBql(wrapped) : parse(root);
    }

    /** Parses a text as BQL, whatever it looks like. */
    public Result parseBql(String bql) {
        Bql.Translation translation = Bql.translate(bql);
        if (!translation.isValid()) {
            return new Result(null, translation.errors());
        }
        Result result = new Builder(settings, translation.query()).build();
        if (!result.isValid()) {
            return result;
        }
        Query q = result.query();
        return new Result(new Query(q.filter(), q.projection(), q.aggregation(), q.postAggregations(), q.window(),
                                    q.durationMs(), new JsonPrimitive(bql), q.warnings()), List.of());
    }

    /** The BQL of a query text (bare, or {@code {"query": "..."}}), or null when it is a JSON query. */
    public static String bqlOf(String text) {
        if (Bql.looksLikeBql(text)) {
            return text;
        }
        try {
            return wrappedBql(parseStrict(text));
        } catch (JsonParseException | IOException | IllegalStateException e) {
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
        return new Builder(settings, root.getAsJsonObject()).build();
    }

    private static Result failure(BulletError error) {
        return new Result(null, List.of(error));
    }

    private static JsonElement parseStrict(String json) throws IOException {
        JsonReader reader = new JsonReader(new StringReader(json));
        reader.setStrictness(Strictness.STRICT);
        JsonElement element = JsonParser.parseReader(reader);
        if (reader.peek() != JsonToken.END_DOCUMENT) {
            throw new JsonParseException("Unexpected content after the query at " + position(reader));
        }
        return element;
    }

    private static String position(JsonReader reader) {
        Matcher m = GSON_POSITION.matcher(reader.toString());
        return m.find() ? "line " + m.group(1) + " column " + m.group(2) : "the end of the query";
    }

    private static BulletError malformed(Exception e, String json) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        Throwable cause = e.getCause();
        if (cause != null && cause.getMessage() != null) {
            message = cause.getMessage();
        }
        Matcher m = GSON_POSITION.matcher(message);
        if (!m.find()) {
            String reason = message.contains("End of input") ? "unexpected end of input" : "not valid JSON";
            return BulletError.of("Malformed JSON: " + reason, "Send the query as one JSON object");
        }
        int line = Integer.parseInt(m.group(1));
        int column = Integer.parseInt(m.group(2));
        String where = " at line " + line + ", column " + column;
        String reason;
        if (message.contains("End of input")) {
            reason = "unexpected end of input";
        } else if (message.contains("Unexpected content after the query")) {
            reason = "unexpected content after the query";
        } else {
            String found = charAt(json, line, column);
            String gsonReason = message.replaceAll("(?s)\\s*See https?://\\S+", "").replaceAll("\\s+path \\$\\S*", "")
                                       .replaceAll("\\s*at line \\d+ column \\d+.*", "").trim();
            boolean hint = gsonReason.contains("setStrictness") || gsonReason.isEmpty();
            reason = (hint ? "unexpected " : gsonReason.substring(0, 1).toLowerCase(Locale.ROOT) + gsonReason.substring(1)
                             + ", found ") + (found == null ? "end of input" : "'" + found + "'");
        }
        return BulletError.of("Malformed JSON" + where + ": " + reason,
                              "Fix the JSON" + where + ": double-quote keys and strings, no trailing commas, lowercase "
                              + "true/false/null");
    }

    /** The character at a 1-based line and column of the text (gson counts columns from 1), or null past the end. */
    private static String charAt(String text, int line, int column) {
        int offset = 0;
        for (int l = 1; l < line; l++) {
            int next = text.indexOf('\n', offset);
            if (next < 0) {
                return null;
            }
            offset = next + 1;
        }
        int lineEnd = text.indexOf('\n', offset);
        lineEnd = lineEnd < 0 ? text.length() : lineEnd;
        // past the end of a line gson means the line's last character (it counts after consuming it)
        int index = Math.min(offset + column - 1, lineEnd - 1);
        return index >= offset && index < text.length() ? String.valueOf(text.charAt(index)) : null;
    }

    static String describe(JsonElement e) {
        if (e == null || e.isJsonNull()) {
            return "null";
        }
        if (e.isJsonArray()) {
            return "a list";
        }
        if (e.isJsonObject()) {
            return "an object";
        }
        JsonPrimitive p = e.getAsJsonPrimitive();
        return p.isString() ? "the string " + e : p.isNumber() ? "the number " + e : "the boolean " + e;
    }

    /** One parse: collects every problem, builds the query only if there are none. */
    private static final class Builder {
        private final QuerySettings settings;
        private final JsonObject json;
        private final List<BulletError> errors = new ArrayList<>();
        private final List<BulletError> warnings = new ArrayList<>();

        Builder(QuerySettings settings, JsonObject json) {
            this.settings = settings;
            this.json = json;
        }

        Result build() {
            for (String key : json.keySet()) {
                if (!TOP_LEVEL.contains(key)) {
                    error("Unknown query member \"" + key + "\"",
                          "Remove it, or use one of: " + String.join(", ", new TreeSet<>(TOP_LEVEL)));
                }
            }
            Clause filter = parseFilters(json.get("filters"));
            List<NamedField> projection = parseProjection(json.get("projection"));
            Aggregation aggregation = parseAggregation(json.get("aggregation"));
            List<PostAggregation> postAggregations = parsePostAggregations(json.get("postAggregations"));
            Window window = parseWindow(json.get("window"), aggregation);
            long duration = parseDuration(json.get("duration"));
            if (!errors.isEmpty()) {
                return new Result(null, List.copyOf(errors));
            }
            Query query = new Query(filter, projection, aggregation, postAggregations, window, duration, json, warnings);
            return new Result(query, List.of());
        }

        private void error(String message, String... resolutions) {
            errors.add(BulletError.of(message, resolutions));
        }

        private void warn(String message, String... resolutions) {
            warnings.add(BulletError.of(message, resolutions));
        }

        private static boolean absent(JsonElement e) {
            return e == null || e.isJsonNull();
        }

        private static boolean isString(JsonElement e) {
            return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isString();
        }

        private static boolean isNumber(JsonElement e) {
            return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber();
        }

        /** A whole number, or null (with an error) when it is not one. */
        private Long wholeNumber(JsonElement e, String what) {
            if (isNumber(e)) {
                double d = e.getAsDouble();
                if (d == Math.rint(d) && Math.abs(d) < 9.0e18) {
                    return e.getAsBigDecimal().longValue();
                }
            }
            if (isString(e)) {
                try {
                    return Long.parseLong(e.getAsString().trim());
                } catch (NumberFormatException ignored) {
                    // reported below
                }
            }
            error(what + " must be a whole number, got " + describe(e), "Give " + what + " as an integer, e.g. 10");
            return null;
        }

        // ---------------------------------------------------------------------------------------- filters

        private Clause parseFilters(JsonElement e) {
            if (absent(e)) {
                return null;
            }
            if (!e.isJsonArray()) {
                error("\"filters\" must be a list of clauses, got " + describe(e),
                      "Wrap the clauses in a list: \"filters\": [{\"field\": \"id\", \"operation\": \"==\", \"values\": [\"x\"]}]");
                return null;
            }
            List<Clause> clauses = new ArrayList<>();
            JsonArray array = e.getAsJsonArray();
            for (int i = 0; i < array.size(); i++) {
                Clause c = parseClause(array.get(i), "filters[" + i + "]");
                if (c != null) {
                    clauses.add(c);
                }
            }
            if (clauses.isEmpty()) {
                return null;
            }
            return clauses.size() == 1 ? clauses.get(0) : new Clause.Logical(Operation.AND, clauses);
        }

        Clause parseClause(JsonElement e, String where) {
            if (e == null || !e.isJsonObject()) {
                error(where + ": a clause must be an object, got " + describe(e),
                      "Write {\"field\": ..., \"operation\": ..., \"values\": [...]} or {\"operation\": \"AND\", \"clauses\": [...]}");
                return null;
            }
            JsonObject o = e.getAsJsonObject();
            JsonElement opElement = o.get("operation");
            if (!isString(opElement)) {
                error(where + ": the clause has no operation" + (absent(opElement) ? "" : " (got " + describe(opElement) + ")"),
                      OPERATIONS_HINT);
                return null;
            }
            Operation op = Operation.fromJson(opElement.getAsString());
            if (op == null) {
                error(where + ": unknown operation \"" + opElement.getAsString() + "\"", OPERATIONS_HINT);
                return null;
            }
            return op.isLogical() ? parseLogical(o, op, where) : parseRelational(o, op, where);
        }

        private Clause parseLogical(JsonObject o, Operation op, String where) {
            JsonElement c = o.get("clauses");
            if (absent(c) || !c.isJsonArray() || c.getAsJsonArray().isEmpty()) {
                error(where + ": " + op.json() + " needs a non-empty list of \"clauses\"",
                      "Add \"clauses\": [ ... ] with " + (op == Operation.NOT ? "exactly one clause" : "one or more clauses"));
                return null;
            }
            JsonArray array = c.getAsJsonArray();
            if (op == Operation.NOT && array.size() != 1) {
                error(where + ": NOT takes exactly one clause, got " + array.size(),
                      "Wrap the clauses in an AND or OR inside the NOT");
            }
            List<Clause> clauses = new ArrayList<>();
            for (int i = 0; i < array.size(); i++) {
                Clause sub = parseClause(array.get(i), where + ".clauses[" + i + "]");
                if (sub != null) {
                    clauses.add(sub);
                }
            }
            return clauses.size() == array.size() ? new Clause.Logical(op, clauses) : null;
        }

        private Clause parseRelational(JsonObject o, Operation op, String where) {
            JsonElement fieldElement = o.get("field");
            String field = null;
            if (!isString(fieldElement) || fieldElement.getAsString().isEmpty()) {
                error(where + ": the " + op.json() + " clause needs a \"field\" (a non-empty string)",
                      "Add \"field\": \"<path>\", e.g. \"id\" or \"demographics.age\"");
            } else {
                field = fieldElement.getAsString();
            }
            JsonElement valuesElement = o.get("values");
            if (absent(valuesElement) || !valuesElement.isJsonArray() || valuesElement.getAsJsonArray().isEmpty()) {
                error(where + ": the " + op.json() + " clause needs a non-empty list of \"values\"",
                      "Add \"values\": [\"...\"]; the clause matches when the field compared with any value is true");
                return null;
            }
            List<FilterValue> values = new ArrayList<>();
            JsonArray array = valuesElement.getAsJsonArray();
            boolean ok = true;
            for (int i = 0; i < array.size(); i++) {
                FilterValue v = parseFilterValue(array.get(i), op, where + ".values[" + i + "]");
                if (v == null) {
                    ok = false;
                } else {
                    values.add(v);
                }
            }
            if (field == null || !ok) {
                return null;
            }
            return new Clause.Relational(FieldPath.of(field), op, values);
        }

        private FilterValue parseFilterValue(JsonElement e, Operation op, String where) {
            FilterValue value;
            if (e == null || e.isJsonNull()) {
                value = FilterValue.literal(null, null);
            } else if (e.isJsonPrimitive()) {
                value = FilterValue.literal(e.getAsString(), null);
            } else if (e.isJsonObject()) {
                value = parseTypedValue(e.getAsJsonObject(), where, true);
                if (value == null) {
                    return null;
                }
            } else {
                error(where + ": a value must be a string, a number, null or {\"kind\", \"value\", \"type\"}, got a list",
                      "Put each value in the \"values\" list on its own");
                return null;
            }
            return checkValueForOperation(value, op, where);
        }

        /** Parses {@code {"kind": "VALUE"|"FIELD", "value": "...", "type": "..."}}. */
        private FilterValue parseTypedValue(JsonObject o, String where, boolean allowNull) {
            FilterValue.Kind kind = FilterValue.Kind.VALUE;
            JsonElement k = o.get("kind");
            boolean ok = true;
            if (!absent(k)) {
                if (isString(k) && k.getAsString().trim().equalsIgnoreCase("FIELD")) {
                    kind = FilterValue.Kind.FIELD;
                } else if (!(isString(k) && k.getAsString().trim().equalsIgnoreCase("VALUE"))) {
                    error(where + ": unknown value kind " + describe(k), "Use \"kind\": \"VALUE\" or \"kind\": \"FIELD\"");
                    ok = false;
                }
            }
            ValueType type = null;
            JsonElement t = o.get("type");
            if (!absent(t)) {
                type = isString(t) ? ValueType.fromJson(t.getAsString()) : null;
                if (type == null) {
                    error(where + ": unknown value type " + describe(t),
                          "Use one of: " + Arrays.toString(ValueType.values()).replaceAll("[\\[\\]]", ""));
                    ok = false;
                }
            }
            JsonElement v = o.get("value");
            String text = null;
            if (absent(v)) {
                if (kind == FilterValue.Kind.FIELD || !allowNull) {
                    error(where + ": the " + kind + " has no \"value\"",
                          kind == FilterValue.Kind.FIELD ? "Give the other field's path as \"value\"" : "Add \"value\": \"...\"");
                    ok = false;
                }
            } else if (v.isJsonPrimitive()) {
                text = v.getAsString();
            } else {
                error(where + ": \"value\" must be a string or a number, got " + describe(v), "Give the value as a string");
                ok = false;
            }
            if (!ok) {
                return null;
            }
            if (kind == FilterValue.Kind.FIELD) {
                if (text.isEmpty()) {
                    error(where + ": a FIELD value needs a non-empty path", "Give the other field's path as \"value\"");
                    return null;
                }
                return FilterValue.field(text, type);
            }
            if (type != null && text != null && type.cast(text) == null) {
                error(where + ": \"" + text + "\" is not a " + type, "Give a value of type " + type + " or change \"type\"");
                return null;
            }
            return FilterValue.literal(text, type);
        }

        private FilterValue checkValueForOperation(FilterValue value, Operation op, String where) {
            if (value.isNull() && op != Operation.EQUALS && op != Operation.NOT_EQUALS) {
                error(where + ": null can only be used with == and !=, not " + op.json(),
                      "Use == [null] for missing or null fields, != [null] for present ones");
                return null;
            }
            if (op == Operation.REGEX_LIKE) {
                if (value.kind() == FilterValue.Kind.FIELD) {
                    error(where + ": RLIKE takes literal patterns, not FIELD values", "Give the regular expression as a string");
                    return null;
                }
                try {
                    com.google.re2j.Pattern.compile(value.value());
                } catch (PatternSyntaxException e) {
                    error(where + ": invalid regular expression \"" + value.value() + "\": " + e.getDescription(),
                          "Use RE2 syntax (linear time: no backreferences or lookaround)");
                    return null;
                }
            }
            if (op == Operation.SIZE_IS && value.kind() == FilterValue.Kind.VALUE && ValueType.LONG.cast(value.value()) == null) {
                error(where + ": SIZEIS needs a whole number, got \"" + value.value() + "\"", "Give the size as a number, e.g. \"3\"");
                return null;
            }
            return value;
        }

        // ------------------------------------------------------------------------------------- projection

        private List<NamedField> parseProjection(JsonElement e) {
            if (absent(e)) {
                return null;
            }
            JsonElement fields = e.isJsonObject() ? e.getAsJsonObject().get("fields") : null;
            if (fields == null || !fields.isJsonObject()) {
                error("\"projection\" must be {\"fields\": {\"<path>\": \"<output name>\", ...}}, got " + describe(e),
                      "Write \"projection\": {\"fields\": {\"demographics.age\": \"age\"}}");
                return null;
            }
            return namedFields(fields.getAsJsonObject(), "projection.fields");
        }

        private List<NamedField> namedFields(JsonObject o, String where) {
            List<NamedField> result = new ArrayList<>();
            for (Map.Entry<String, JsonElement> entry : o.entrySet()) {
                String path = entry.getKey();
                JsonElement name = entry.getValue();
                if (path.isEmpty()) {
                    error(where + ": a field path is empty", "Give each field's path as a non-empty key");
                } else if (absent(name)) {
                    result.add(NamedField.of(path, path));
                } else if (!isString(name) || name.getAsString().isEmpty()) {
                    error(where + ": the output name of \"" + path + "\" must be a non-empty string, got " + describe(name),
                          "Write \"" + path + "\": \"" + path + "\"");
                } else {
                    result.add(NamedField.of(path, name.getAsString()));
                }
            }
            return result;
        }

        // ------------------------------------------------------------------------------------ aggregation

        private Aggregation parseAggregation(JsonElement e) {
            if (absent(e)) {
                return Aggregation.raw(clampSize(null, AggregationType.RAW));
            }
            if (!e.isJsonObject()) {
                error("\"aggregation\" must be an object, got " + describe(e),
                      "Write \"aggregation\": {\"type\": \"RAW\", \"size\": 10}");
                return null;
            }
            JsonObject o = e.getAsJsonObject();
            AggregationType type = AggregationType.RAW;
            JsonElement t = o.get("type");
            if (!absent(t)) {
                type = isString(t) ? AggregationType.fromJson(t.getAsString()) : null;
                if (type == null) {
                    error("Unknown aggregation type " + (isString(t) ? "\"" + t.getAsString() + "\"" : describe(t)),
                          "Use one of: RAW (or LIMIT), GROUP, COUNT DISTINCT, DISTRIBUTION, TOP K");
                    return null;
                }
            }
            Long size = null;
            JsonElement s = o.get("size");
            if (!absent(s)) {
                size = wholeNumber(s, "aggregation.size");
                if (size != null && size <= 0) {
                    error("aggregation.size must be positive, got " + size, "Give a size of 1 or more, or leave it out");
                    size = null;
                }
            }
            int clamped = clampSize(size, type);
            List<NamedField> fields = List.of();
            JsonElement f = o.get("fields");
            if (!absent(f)) {
                if (f.isJsonObject()) {
                    fields = namedFields(f.getAsJsonObject(), "aggregation.fields");
                } else {
                    error("aggregation.fields must be an object of {\"<path>\": \"<name>\"}, got " + describe(f),
                          "Write \"fields\": {\"demographics.country\": \"country\"}");
                }
            }
            JsonObject attributes = new JsonObject();
            JsonElement a = o.get("attributes");
            if (!absent(a)) {
                if (a.isJsonObject()) {
                    attributes = a.getAsJsonObject();
                } else {
                    error("aggregation.attributes must be an object, got " + describe(a), "Write \"attributes\": { ... }");
                }
            }
            switch (type) {
                case GROUP:
                    return group(clamped, fields, attributes);
                case COUNT_DISTINCT:
                    requireFields(fields, "COUNT DISTINCT");
                    return new Aggregation(type, clamped, fields, List.of(),
                                           newName(attributes, "COUNT DISTINCT"), null, null);
                case DISTRIBUTION:
                    return distribution(clamped, fields, attributes);
                case TOP_K:
                    requireFields(fields, "TOP K");
                    return new Aggregation(type, clamped, fields, List.of(), newName(attributes, "COUNT"), null,
                                           threshold(attributes));
                default:
                    return new Aggregation(type, clamped, fields, List.of(), null, null, null);
            }
        }

        private int clampSize(Long requested, AggregationType type) {
            long max = type == AggregationType.RAW ? settings.rawMaxSize() : settings.maxSize();
            if (requested == null) {
                // the configured default is not the user's request: fit it to the maximum silently
                return (int) Math.min(settings.defaultSize(), max);
            }
            long size = requested;
            if (size > max) {
                warn("aggregation.size " + size + " was clamped to the maximum " + max,
                     "Ask for at most " + max + (type == AggregationType.RAW
                             ? " records (bullet.query.aggregation.raw.max.size)" : " rows (bullet.query.aggregation.max.size)"));
                size = max;
            }
            return (int) size;
        }

        private void requireFields(List<NamedField> fields, String type) {
            if (fields.isEmpty()) {
                error(type + " needs at least one field in aggregation.fields",
                      "Add \"fields\": {\"<path>\": \"<name>\"} naming what to count");
            }
        }

        private String newName(JsonObject attributes, String fallback) {
            JsonElement n = attributes.get("newName");
            if (absent(n)) {
                return fallback;
            }
            if (!isString(n) || n.getAsString().isEmpty()) {
                error("aggregation.attributes.newName must be a non-empty string, got " + describe(n),
                      "Give the output column name as a string");
                return fallback;
            }
            return n.getAsString();
        }

        private Long threshold(JsonObject attributes) {
            JsonElement t = attributes.get("threshold");
            if (absent(t)) {
                return null;
            }
            Long threshold = wholeNumber(t, "aggregation.attributes.threshold");
            if (threshold != null && threshold < 0) {
                error("aggregation.attributes.threshold must not be negative, got " + threshold,
                      "Give the minimum count as 0 or more");
                return null;
            }
            return threshold;
        }

        private Aggregation group(int size, List<NamedField> fields, JsonObject attributes) {
            List<GroupOperation> operations = new ArrayList<>();
            JsonElement ops = attributes.get("operations");
            if (!absent(ops)) {
                if (!ops.isJsonArray()) {
                    error("aggregation.attributes.operations must be a list, got " + describe(ops),
                          "Write \"operations\": [{\"type\": \"COUNT\"}, {\"type\": \"SUM\", \"field\": \"x\"}]");
                } else {
                    JsonArray array = ops.getAsJsonArray();
                    for (int i = 0; i < array.size(); i++) {
                        GroupOperation op = groupOperation(array.get(i), "aggregation.attributes.operations[" + i + "]");
                        if (op != null) {
                            operations.add(op);
                        }
                    }
                }
            }
            if (fields.isEmpty() && operations.isEmpty() && (absent(ops) || ops.isJsonArray() && ops.getAsJsonArray().isEmpty())) {
                error("GROUP needs fields to group by, operations to compute, or both",
                      "Add \"fields\": {\"<path>\": \"<name>\"} (DISTINCT) and/or \"attributes\": {\"operations\": [{\"type\": \"COUNT\"}]}");
            }
            return new Aggregation(AggregationType.GROUP, size, fields, operations, null, null, null);
        }

        private GroupOperation groupOperation(JsonElement e, String where) {
            if (e == null || !e.isJsonObject()) {
                error(where + ": an operation must be an object, got " + describe(e),
                      "Write {\"type\": \"SUM\", \"field\": \"<path>\", \"newName\": \"<name>\"}");
                return null;
            }
            JsonObject o = e.getAsJsonObject();
            JsonElement t = o.get("type");
            GroupOperation.Type type = null;
            if (isString(t)) {
                try {
                    type = GroupOperation.Type.valueOf(t.getAsString().trim().toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException ignored) {
                    type = null;
                }
            }
            if (type == null) {
                error(where + ": unknown operation type " + describe(t), "Use one of: COUNT, SUM, MIN, MAX, AVG");
                return null;
            }
            JsonElement f = o.get("field");
            String field = isString(f) && !f.getAsString().isEmpty() ? f.getAsString() : null;
            if (type != GroupOperation.Type.COUNT && field == null) {
                error(where + ": " + type + " needs a \"field\"", "Add \"field\": \"<numeric field path>\"");
                return null;
            }
            String name = type == GroupOperation.Type.COUNT ? "COUNT" : type + "_" + field;
            JsonElement n = o.get("newName");
            if (!absent(n)) {
                if (!isString(n) || n.getAsString().isEmpty()) {
                    error(where + ": newName must be a non-empty string, got " + describe(n), "Give the output column name as a string");
                    return null;
                }
                name = n.getAsString();
            }
            return new GroupOperation(type, field == null ? null : FieldPath.of(field), name);
        }

        private Aggregation distribution(int size, List<NamedField> fields, JsonObject attributes) {
            if (fields.size() != 1) {
                error("DISTRIBUTION needs exactly one numeric field in aggregation.fields, got " + fields.size(),
                      "Write \"fields\": {\"<numeric path>\": \"<name>\"}");
            }
            JsonElement t = attributes.get("type");
            DistributionSpec.Type type = null;
            if (isString(t)) {
                try {
                    type = DistributionSpec.Type.valueOf(t.getAsString().trim().toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException ignored) {
                    type = null;
                }
            }
            if (type == null) {
                error("DISTRIBUTION needs attributes.type QUANTILE, PMF or CDF, got " + describe(t),
                      "Add \"attributes\": {\"type\": \"QUANTILE\", \"points\": [0.5, 0.99]}");
                return null;
            }
            DistributionSpec spec = distributionPoints(type, attributes);
            if (spec == null) {
                return null;
            }
            return new Aggregation(AggregationType.DISTRIBUTION, size, fields, List.of(), null, spec, null);
        }

        private DistributionSpec distributionPoints(DistributionSpec.Type type, JsonObject attributes) {
            int maxPoints = settings.distributionMaxPoints();
            JsonElement points = attributes.get("points");
            JsonElement number = attributes.get("numberOfPoints");
            JsonElement start = attributes.get("start");
            JsonElement end = attributes.get("end");
            JsonElement increment = attributes.get("increment");
            if (!absent(points)) {
                if (!points.isJsonArray() || points.getAsJsonArray().isEmpty()) {
                    error("attributes.points must be a non-empty list of numbers, got " + describe(points),
                          "Write \"points\": [0.25, 0.5, 0.75]");
                    return null;
                }
                List<Double> values = new ArrayList<>();
                for (JsonElement p : points.getAsJsonArray()) {
                    Double d = number(p);
                    if (d == null) {
                        error("attributes.points must hold only numbers, got " + describe(p), "Remove or fix the value " + p);
                        return null;
                    }
                    values.add(d);
                }
                return finishPoints(type, values, maxPoints);
            }
            if (!absent(number)) {
                Long n = wholeNumber(number, "attributes.numberOfPoints");
                if (n == null) {
                    return null;
                }
                if (n <= 0) {
                    error("attributes.numberOfPoints must be positive, got " + n, "Ask for 1 or more points");
                    return null;
                }
                if (n > maxPoints) {
                    warn("attributes.numberOfPoints " + n + " was clamped to the maximum " + maxPoints,
                         "Ask for at most " + maxPoints + " points (bullet.query.aggregation.distribution.max.points)");
                    n = (long) maxPoints;
                }
                return new DistributionSpec(type, null, n.intValue());
            }
            if (!absent(start) || !absent(end) || !absent(increment)) {
                Double s = number(start);
                Double en = number(end);
                Double inc = number(increment);
                if (s == null || en == null || inc == null) {
                    error("attributes.start, end and increment must all be numbers",
                          "Write \"start\": 0, \"end\": 100, \"increment\": 10");
                    return null;
                }
                if (s > en || inc <= 0) {
                    error("attributes.start must not exceed end, and increment must be positive (got start " + s
                          + ", end " + en + ", increment " + inc + ")", "Give start <= end and increment > 0");
                    return null;
                }
                List<Double> values = new ArrayList<>();
                for (int i = 0; s + i * inc <= en + 1e-9 * Math.max(1, Math.abs(en)); i++) {
                    values.add(round(s + i * inc));
                    if (values.size() > maxPoints) {
                        break;
                    }
                }
                return finishPoints(type, values, maxPoints);
            }
            error("DISTRIBUTION needs points: attributes.points, attributes.numberOfPoints, or start/end/increment",
                  "Add \"points\": [0.5] or \"numberOfPoints\": 11 or \"start\": 0, \"end\": 1, \"increment\": 0.1");
            return null;
        }

        private DistributionSpec finishPoints(DistributionSpec.Type type, List<Double> values, int maxPoints) {
            if (type == DistributionSpec.Type.QUANTILE) {
                for (double v : values) {
                    if (v < 0.0 || v > 1.0) {
                        error("QUANTILE points must be between 0 and 1, got " + v, "Give fractions such as 0.5 or 0.99");
                        return null;
                    }
                }
            }
            double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().distinct().toArray();
            if (sorted.length > maxPoints) {
                warn(sorted.length + " distribution points were clamped to the first " + maxPoints,
                     "Ask for at most " + maxPoints + " points (bullet.query.aggregation.distribution.max.points)");
                sorted = Arrays.copyOf(sorted, maxPoints);
            }
            return new DistributionSpec(type, sorted, null);
        }

        private double round(double value) {
            return new java.math.BigDecimal(value).setScale(settings.generatedPointsRounding(),
                                                            java.math.RoundingMode.HALF_UP).doubleValue();
        }

        private static Double number(JsonElement e) {
            if (isNumber(e)) {
                return e.getAsDouble();
            }
            if (isString(e)) {
                try {
                    return Double.parseDouble(e.getAsString().trim());
                } catch (NumberFormatException ignored) {
                    return null;
                }
            }
            return null;
        }

        // ------------------------------------------------------------------------------ post-aggregations

        private List<PostAggregation> parsePostAggregations(JsonElement e) {
            if (absent(e)) {
                return List.of();
            }
            if (!e.isJsonArray()) {
                error("\"postAggregations\" must be a list, got " + describe(e),
                      "Write \"postAggregations\": [{\"type\": \"ORDERBY\", \"fields\": [\"COUNT\"], \"direction\": \"DESC\"}]");
                return List.of();
            }
            List<PostAggregation> result = new ArrayList<>();
            JsonArray array = e.getAsJsonArray();
            for (int i = 0; i < array.size(); i++) {
                PostAggregation p = postAggregation(array.get(i), "postAggregations[" + i + "]");
                if (p != null) {
                    result.add(p);
                }
            }
            return result;
        }

        private PostAggregation postAggregation(JsonElement e, String where) {
            if (e == null || !e.isJsonObject()) {
                error(where + ": a post-aggregation must be an object, got " + describe(e),
                      "Write {\"type\": \"ORDERBY\" | \"COMPUTATION\" | \"HAVING\", ...}");
                return null;
            }
            JsonObject o = e.getAsJsonObject();
            JsonElement t = o.get("type");
            String type = isString(t) ? t.getAsString().trim().toUpperCase(Locale.ROOT) : "";
            switch (type) {
                case "ORDERBY":
                    return orderBy(o, where);
                case "COMPUTATION":
                    return computation(o, where);
                case "HAVING": {
                    JsonElement filter = o.get("filter");
                    if (absent(filter)) {
                        error(where + ": HAVING needs a \"filter\" clause",
                              "Add \"filter\": {\"field\": \"COUNT\", \"operation\": \">\", \"values\": [\"10\"]}");
                        return null;
                    }
                    Clause clause = parseClause(filter, where + ".filter");
                    return clause == null ? null : new PostAggregation.Having(clause);
                }
                default:
                    error(where + ": unknown post-aggregation type " + describe(t), "Use one of: ORDERBY, COMPUTATION, HAVING");
                    return null;
            }
        }

        private PostAggregation orderBy(JsonObject o, String where) {
            JsonElement f = o.get("fields");
            List<String> fields = new ArrayList<>();
            if (f != null && f.isJsonArray()) {
                for (JsonElement x : f.getAsJsonArray()) {
                    if (isString(x) && !x.getAsString().isEmpty()) {
                        fields.add(x.getAsString());
                    } else {
                        error(where + ": ORDERBY fields must be non-empty strings, got " + describe(x), "List the column names to sort by");
                        return null;
                    }
                }
            }
            if (fields.isEmpty()) {
                error(where + ": ORDERBY needs a non-empty list of \"fields\"", "Write \"fields\": [\"COUNT\"]");
                return null;
            }
            boolean descending = false;
            JsonElement d = o.get("direction");
            if (!absent(d)) {
                String dir = isString(d) ? d.getAsString().trim().toUpperCase(Locale.ROOT) : "";
                if (dir.equals("DESC")) {
                    descending = true;
                } else if (!dir.equals("ASC")) {
                    error(where + ": ORDERBY direction must be ASC or DESC, got " + describe(d), "Use \"ASC\" or \"DESC\"");
                    return null;
                }
            }
            return new PostAggregation.OrderBy(fields, descending);
        }

        private PostAggregation computation(JsonObject o, String where) {
            JsonElement n = o.get("newName");
            if (!isString(n) || n.getAsString().isEmpty()) {
                error(where + ": COMPUTATION needs a \"newName\"", "Add \"newName\": \"<output column>\"");
            }
            Expression expression = expression(o.get("expression"), where + ".expression");
            if (expression == null || !isString(n) || n.getAsString().isEmpty()) {
                return null;
            }
            return new PostAggregation.Computation(expression, n.getAsString());
        }

        private Expression expression(JsonElement e, String where) {
            if (e == null || !e.isJsonObject()) {
                error(where + ": an expression must be an object, got " + describe(e),
                      "Write {\"operation\": \"+\", \"left\": <expr>, \"right\": <expr>} or {\"value\": {\"kind\": \"FIELD\", \"value\": \"x\"}}");
                return null;
            }
            JsonObject o = e.getAsJsonObject();
            if (o.has("value")) {
                JsonElement v = o.get("value");
                if (v == null || !v.isJsonObject()) {
                    error(where + ".value must be {\"kind\", \"value\", \"type\"}, got " + describe(v),
                          "Write \"value\": {\"kind\": \"VALUE\", \"value\": \"2\", \"type\": \"LONG\"}");
                    return null;
                }
                FilterValue fv = parseTypedValue(v.getAsJsonObject(), where + ".value", false);
                if (fv == null) {
                    return null;
                }
                if (fv.kind() == FilterValue.Kind.VALUE && fv.type() != ValueType.STRING && fv.type() != ValueType.BOOLEAN
                    && ValueType.DOUBLE.cast(fv.value()) == null) {
                    error(where + ": \"" + fv.value() + "\" is not a number", "Give a numeric literal, e.g. \"2\"");
                    return null;
                }
                return new Expression.Leaf(fv.kind(), fv.value(), fv.type(), fv.field());
            }
            JsonElement op = o.get("operation");
            String operator = isString(op) ? op.getAsString().trim() : "";
            if (!Set.of("+", "-", "*", "/").contains(operator)) {
                error(where + ": unknown arithmetic operation " + describe(op), "Use one of: +, -, *, /");
                return null;
            }
            Expression left = expression(o.get("left"), where + ".left");
            Expression right = expression(o.get("right"), where + ".right");
            return left == null || right == null ? null : new Expression.Binary(operator.charAt(0), left, right);
        }

        // ---------------------------------------------------------------------------------------- window

        private Window parseWindow(JsonElement e, Aggregation aggregation) {
            if (absent(e)) {
                return null;
            }
            if (!e.isJsonObject() || !e.getAsJsonObject().has("emit") || !e.getAsJsonObject().get("emit").isJsonObject()) {
                error("\"window\" must have an \"emit\" object, got " + describe(e),
                      "Write \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 5000}}");
                return null;
            }
            JsonObject emit = e.getAsJsonObject().getAsJsonObject("emit");
            String emitType = upper(emit.get("type"));
            if (!emitType.equals("TIME") && !emitType.equals("RECORD")) {
                error("window.emit.type must be TIME or RECORD, got " + describe(emit.get("type")), "Use \"TIME\" or \"RECORD\"");
                return null;
            }
            Long every = wholeNumber(emit.get("every"), "window.emit.every");
            if (every == null) {
                return null;
            }
            if (every <= 0) {
                error("window.emit.every must be positive, got " + every, "Give a positive number of "
                      + (emitType.equals("TIME") ? "milliseconds" : "records"));
                return null;
            }
            JsonElement includeElement = e.getAsJsonObject().get("include");
            String includeType = null;
            Long first = null;
            if (!absent(includeElement)) {
                if (!includeElement.isJsonObject()) {
                    error("window.include must be an object, got " + describe(includeElement),
                          "Write \"include\": {\"type\": \"ALL\"} or {\"type\": \"TIME\", \"first\": 5000}");
                    return null;
                }
                JsonObject include = includeElement.getAsJsonObject();
                includeType = upper(include.get("type"));
                if (!Set.of("TIME", "RECORD", "ALL").contains(includeType)) {
                    error("window.include.type must be TIME, RECORD or ALL, got " + describe(include.get("type")),
                          "Use \"TIME\", \"RECORD\" or \"ALL\"");
                    return null;
                }
                if (!includeType.equals("ALL") && !absent(include.get("first"))) {
                    first = wholeNumber(include.get("first"), "window.include.first");
                    if (first == null) {
                        return null;
                    }
                }
            }
            if (emitType.equals("RECORD")) {
                if (includeType != null && !includeType.equals("RECORD")) {
                    error("A RECORD window can only include RECORD, got include " + includeType,
                          "Use \"include\": {\"type\": \"RECORD\", \"first\": " + every + "} or leave include out");
                    return null;
                }
                if (first != null && !first.equals(every)) {
                    error("window.include.first (" + first + ") must equal window.emit.every (" + every + ") for RECORD windows",
                          "Set both to " + every);
                    return null;
                }
                if (aggregation != null && aggregation.type() != AggregationType.RAW) {
                    error("RECORD windows are only supported for RAW queries, not " + aggregation.type().name().replace('_', ' '),
                          "Use a TIME window, or a RAW aggregation");
                    return null;
                }
                return new Window(Window.Kind.SLIDING, every);
            }
            if ("RECORD".equals(includeType)) {
                error("A TIME window cannot include RECORD", "Use \"include\": {\"type\": \"TIME\"} or {\"type\": \"ALL\"}");
                return null;
            }
            if ("TIME".equals(includeType) && first != null && !first.equals(every)) {
                error("window.include.first (" + first + ") must equal window.emit.every (" + every + ") for TIME windows",
                      "Set both to " + every + ", or use \"include\": {\"type\": \"ALL\"}");
                return null;
            }
            long every2 = every;
            if (every2 < settings.minEmitEveryMs()) {
                warn("window.emit.every " + every2 + " ms was raised to the minimum " + settings.minEmitEveryMs() + " ms",
                     "Use windows of at least " + settings.minEmitEveryMs() + " ms (bullet.query.window.min.emit.every)");
                every2 = settings.minEmitEveryMs();
            }
            return new Window("ALL".equals(includeType) ? Window.Kind.ADDITIVE_TUMBLING : Window.Kind.TUMBLING, every2);
        }

        private static String upper(JsonElement e) {
            return isString(e) ? e.getAsString().trim().toUpperCase(Locale.ROOT) : "";
        }

        // -------------------------------------------------------------------------------------- duration

        private long parseDuration(JsonElement e) {
            long duration = settings.defaultDurationMs();
            if (!absent(e)) {
                if (!isNumber(e)) {
                    error("\"duration\" must be a number of milliseconds, got " + describe(e), "Write \"duration\": 30000");
                    return duration;
                }
                double d = e.getAsDouble();
                if (d > 0) {
                    duration = d >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.ceil(d);
                }
            }
            if (duration > settings.maxDurationMs()) {
                warn("duration " + duration + " ms was clamped to the maximum " + settings.maxDurationMs() + " ms",
                     "Ask for at most " + settings.maxDurationMs() + " ms (bullet.query.max.duration)");
                duration = settings.maxDurationMs();
            }
            return duration;
        }
    }
}

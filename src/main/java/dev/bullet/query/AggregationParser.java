package dev.bullet.query;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.bullet.record.FieldPath;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static dev.bullet.query.JsonShapes.*;

/**
 * The aggregation part (SPEC §6.4): type, size (clamped), fields and attributes of each type.
 */
final class AggregationParser {
    private final Problems problems;
    private final QuerySettings settings;
    private final ProjectionParser projection;

    AggregationParser(Problems problems, QuerySettings settings, ProjectionParser projection) {
        this.problems = problems;
        this.settings = settings;
        this.projection = projection;
    }

    Aggregation parse(JsonElement e) {
        if (absent(e)) {
            return Aggregation.raw(clampSize(null, AggregationType.RAW));
        }
        if (!e.isJsonObject()) {
            problems.error("\"aggregation\" must be an object, got " + describe(e),
                  "Write \"aggregation\": {\"type\": \"RAW\", \"size\": 10}");
            return null;
        }
        JsonObject o = e.getAsJsonObject();
        AggregationType type = AggregationType.RAW;
        JsonElement t = o.get("type");
        if (!absent(t)) {
            type = isString(t) ? AggregationType.fromJson(t.getAsString()) : null;
            if (type == null) {
                problems.error("Unknown aggregation type " + (isString(t) ? "\"" + t.getAsString() + "\"" : describe(t)),
                      "Use one of: RAW (or LIMIT), GROUP, COUNT DISTINCT, DISTRIBUTION, TOP K");
                return null;
            }
        }
        Long size = null;
        JsonElement s = o.get("size");
        if (!absent(s)) {
            size = problems.wholeNumber(s, "aggregation.size");
            if (size != null && size <= 0) {
                problems.error("aggregation.size must be positive, got " + size, "Give a size of 1 or more, or leave it out");
                size = null;
            }
        }
        int clamped = clampSize(size, type);
        List<NamedField> fields = List.of();
        JsonElement f = o.get("fields");
        if (!absent(f)) {
            if (f.isJsonObject()) {
                fields = projection.namedFields(f.getAsJsonObject(), "aggregation.fields");
            } else {
                problems.error("aggregation.fields must be an object of {\"<path>\": \"<name>\"}, got " + describe(f),
                      "Write \"fields\": {\"demographics.country\": \"country\"}");
            }
        }
        JsonObject attributes = new JsonObject();
        JsonElement a = o.get("attributes");
        if (!absent(a)) {
            if (a.isJsonObject()) {
                attributes = a.getAsJsonObject();
            } else {
                problems.error("aggregation.attributes must be an object, got " + describe(a), "Write \"attributes\": { ... }");
            }
        }
        switch (type) {
            case GROUP:
                return group(clamped, fields, attributes);
            case COUNT_DISTINCT:
                requireFields(fields, "COUNT DISTINCT");
                return new Aggregation(type, clamped, fields, List.of(),
                                       newName(attributes, "COUNT DISTINCT"), null, null, valuesAsStrings(attributes));
            case DISTRIBUTION:
                return distribution(clamped, fields, attributes);
            case TOP_K:
                requireFields(fields, "TOP K");
                return new Aggregation(type, clamped, fields, List.of(), newName(attributes, "COUNT"), null,
                                       threshold(attributes), valuesAsStrings(attributes));
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
            problems.warn("aggregation.size " + size + " was clamped to the maximum " + max,
                 "Ask for at most " + max + (type == AggregationType.RAW
                         ? " records (bullet.query.aggregation.raw.max.size)" : " rows (bullet.query.aggregation.max.size)"));
            size = max;
        }
        return (int) size;
    }

    private void requireFields(List<NamedField> fields, String type) {
        if (fields.isEmpty()) {
            problems.error(type + " needs at least one field in aggregation.fields",
                  "Add \"fields\": {\"<path>\": \"<name>\"} naming what to count");
        }
    }

    private String newName(JsonObject attributes, String fallback) {
        JsonElement n = attributes.get("newName");
        if (absent(n)) {
            return fallback;
        }
        if (!isString(n) || n.getAsString().isEmpty()) {
            problems.error("aggregation.attributes.newName must be a non-empty string, got " + describe(n),
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
        Long threshold = problems.wholeNumber(t, "aggregation.attributes.threshold");
        if (threshold != null && threshold < 0) {
            problems.error("aggregation.attributes.threshold must not be negative, got " + threshold,
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
                problems.error("aggregation.attributes.operations must be a list, got " + describe(ops),
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
            problems.error("GROUP needs fields to group by, operations to compute, or both",
                  "Add \"fields\": {\"<path>\": \"<name>\"} (DISTINCT) and/or \"attributes\": {\"operations\": [{\"type\": \"COUNT\"}]}");
        }
        return new Aggregation(AggregationType.GROUP, size, fields, operations, null, null, null, valuesAsStrings(attributes));
    }

    /** {@code "groupValuesAsStrings"} of a GROUP, TOP K or COUNT DISTINCT: the field values as bullet-core's strings. */
    private boolean valuesAsStrings(JsonObject attributes) {
        JsonElement strings = attributes.get("groupValuesAsStrings");
        if (absent(strings)) {
            return false;
        }
        if (strings.isJsonPrimitive() && strings.getAsJsonPrimitive().isBoolean()) {
            return strings.getAsBoolean();
        }
        problems.error("aggregation.attributes.groupValuesAsStrings must be true or false, got " + describe(strings),
              "Write \"groupValuesAsStrings\": true for bullet-core's string group values (BQL's), or leave it out");
        return false;
    }

    private GroupOperation groupOperation(JsonElement e, String where) {
        if (e == null || !e.isJsonObject()) {
            problems.error(where + ": an operation must be an object, got " + describe(e),
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
            problems.error(where + ": unknown operation type " + describe(t), "Use one of: COUNT, SUM, MIN, MAX, AVG");
            return null;
        }
        JsonElement f = o.get("field");
        String field = isString(f) && !f.getAsString().isEmpty() ? f.getAsString() : null;
        if (type != GroupOperation.Type.COUNT && field == null) {
            problems.error(where + ": " + type + " needs a \"field\"", "Add \"field\": \"<numeric field path>\"");
            return null;
        }
        String name = type == GroupOperation.Type.COUNT ? "COUNT" : type + "_" + field;
        JsonElement n = o.get("newName");
        if (!absent(n)) {
            if (!isString(n) || n.getAsString().isEmpty()) {
                problems.error(where + ": newName must be a non-empty string, got " + describe(n), "Give the output column name as a string");
                return null;
            }
            name = n.getAsString();
        }
        Boolean coerce = coerce(o, where);
        return coerce == null ? null : new GroupOperation(type, field == null ? null : FieldPath.of(field), name, coerce);
    }

    /** The {@code coerce} member of {@code o} (false when absent), or null with an error when it is no boolean. */
    private Boolean coerce(JsonObject o, String where) {
        JsonElement c = o.get("coerce");
        if (!absent(c) && !(c.isJsonPrimitive() && c.getAsJsonPrimitive().isBoolean())) {
            problems.error(where + ": coerce must be true or false, got " + describe(c),
                  "Write \"coerce\": true to read booleans as 1/0 and numeric strings as numbers (BQL's reading), or leave it out");
            return null;
        }
        return !absent(c) && c.getAsBoolean();
    }

    private Aggregation distribution(int size, List<NamedField> fields, JsonObject attributes) {
        if (fields.size() != 1) {
            problems.error("DISTRIBUTION needs exactly one numeric field in aggregation.fields, got " + fields.size(),
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
            problems.error("DISTRIBUTION needs attributes.type QUANTILE, PMF or CDF, got " + describe(t),
                  "Add \"attributes\": {\"type\": \"QUANTILE\", \"points\": [0.5, 0.99]}");
            return null;
        }
        DistributionSpec spec = distributionPoints(type, attributes);
        Boolean coerce = coerce(attributes, "aggregation.attributes");
        if (spec == null || coerce == null) {
            return null;
        }
        spec = new DistributionSpec(spec.type(), spec.points(), spec.numberOfPoints(), coerce);
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
                problems.error("attributes.points must be a non-empty list of numbers, got " + describe(points),
                      "Write \"points\": [0.25, 0.5, 0.75]");
                return null;
            }
            List<Double> values = new ArrayList<>();
            for (JsonElement p : points.getAsJsonArray()) {
                Double d = number(p);
                if (d == null) {
                    problems.error("attributes.points must hold only numbers (finite ones), got " + describe(p), "Remove or fix the value " + p);
                    return null;
                }
                values.add(d);
            }
            return finishPoints(type, values, maxPoints);
        }
        if (!absent(number)) {
            Long n = problems.wholeNumber(number, "attributes.numberOfPoints");
            if (n == null) {
                return null;
            }
            if (n <= 0) {
                problems.error("attributes.numberOfPoints must be positive, got " + n, "Ask for 1 or more points");
                return null;
            }
            if (n > maxPoints) {
                problems.warn("attributes.numberOfPoints " + n + " was clamped to the maximum " + maxPoints,
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
                problems.error("attributes.start, end and increment must all be numbers (finite ones)",
                      "Write \"start\": 0, \"end\": 100, \"increment\": 10");
                return null;
            }
            if (s > en || inc <= 0) {
                problems.error("attributes.start must not exceed end, and increment must be positive (got start " + s
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
        problems.error("DISTRIBUTION needs points: attributes.points, attributes.numberOfPoints, or start/end/increment",
              "Add \"points\": [0.5] or \"numberOfPoints\": 11 or \"start\": 0, \"end\": 1, \"increment\": 0.1");
        return null;
    }

    private DistributionSpec finishPoints(DistributionSpec.Type type, List<Double> values, int maxPoints) {
        if (type == DistributionSpec.Type.QUANTILE) {
            for (double v : values) {
                if (v < 0.0 || v > 1.0) {
                    problems.error("QUANTILE points must be between 0 and 1, got " + v, "Give fractions such as 0.5 or 0.99");
                    return null;
                }
            }
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().distinct().toArray();
        if (sorted.length > maxPoints) {
            problems.warn(sorted.length + " distribution points were clamped to the first " + maxPoints,
                 "Ask for at most " + maxPoints + " points (bullet.query.aggregation.distribution.max.points)");
            sorted = Arrays.copyOf(sorted, maxPoints);
        }
        return new DistributionSpec(type, sorted, null);
    }

    private double round(double value) {
        return new BigDecimal(value).setScale(settings.generatedPointsRounding(),
                                                        RoundingMode.HALF_UP).doubleValue();
    }

    /** A finite number (a JSON number or a numeric string), else null: NaN and infinities are no distribution point. */
    private static Double number(JsonElement e) {
        Double d = anyNumber(e);
        return d == null || !Double.isFinite(d) ? null : d;
    }

    private static Double anyNumber(JsonElement e) {
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
}

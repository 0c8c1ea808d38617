package dev.bullet.query;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.re2j.PatternSyntaxException;
import dev.bullet.query.expr.Expr;
import dev.bullet.query.expr.ExprParser;
import dev.bullet.record.FieldPath;
import dev.bullet.regex.JavaRegex;
import dev.bullet.regex.RegexSize;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import static dev.bullet.query.JsonShapes.*;

/**
 * The filter part of a query (SPEC §6.2): relational and logical clauses and their values. Also parses
 * HAVING clauses for {@link PostAggregationParser}. Reports into the shared {@link Problems}.
 */
final class FilterParser {
    private static final String OPERATIONS_HINT = "Use one of: " + Operation.allSpellings();

    private final Problems problems;
    private final QuerySettings settings;
    /** Where an expression filter's expression sits: the query (1), filters (2), the element (3). */
    private static final int EXPRESSION_DEPTH = 4;

    private final List<Expr> expressions = new ArrayList<>();
    private int clauseCount;
    private int valueCount;

    FilterParser(Problems problems, QuerySettings settings) {
        this.problems = problems;
        this.settings = settings;
    }

    Clause parse(JsonElement e) {
        if (absent(e)) {
            return null;
        }
        if (!e.isJsonArray()) {
            problems.error("\"filters\" must be a list of clauses, got " + describe(e),
                  "Wrap the clauses in a list: \"filters\": [{\"field\": \"id\", \"operation\": \"==\", \"values\": [\"x\"]}]");
            return null;
        }
        List<Clause> clauses = new ArrayList<>();
        JsonArray array = e.getAsJsonArray();
        for (int i = 0; i < array.size(); i++) {
            if (isExpressionFilter(array.get(i))) {
                parseExpression(array.get(i).getAsJsonObject(), "filters[" + i + "]");
                continue;
            }
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

    /** The expression filters of the top-level list, in order (ANDed with the clauses). */
    List<Expr> expressions() {
        return expressions;
    }

    private static boolean isExpressionFilter(JsonElement e) {
        return e != null && e.isJsonObject() && e.getAsJsonObject().has("expression");
    }

    /** {@code {"expression": <expression>}}: a record passes when the expression is TRUE. */
    private void parseExpression(JsonObject o, String where) {
        clauseCount++;
        if (o.size() != 1) {
            problems.error(where + ": an expression filter holds only \"expression\", got " + o.keySet(),
                           "Write {\"expression\": {\"op\": \">\", \"left\": {\"field\": \"a\"}, "
                           + "\"right\": {\"value\": 5, \"type\": \"INTEGER\"}}}");
            return;
        }
        ExprParser.Result result = ExprParser.parse(o.get("expression"), where + ".expression", EXPRESSION_DEPTH,
                                                    settings.limits());
        if (result.ok()) {
            expressions.add(result.expr());
        } else {
            result.errors().forEach(problems::error);
        }
    }

    /** How many clauses were parsed (bounded by {@code bullet.query.max.clauses}). */
    int clauseCount() {
        return clauseCount;
    }

    /** How many values the clauses hold (bounded by {@code bullet.query.max.values}). */
    int valueCount() {
        return valueCount;
    }

    Clause parseClause(JsonElement e, String where) {
        clauseCount++;
        if (e == null || !e.isJsonObject()) {
            problems.error(where + ": a clause must be an object, got " + describe(e),
                  "Write {\"field\": ..., \"operation\": ..., \"values\": [...]} or {\"operation\": \"AND\", \"clauses\": [...]}");
            return null;
        }
        JsonObject o = e.getAsJsonObject();
        JsonElement opElement = o.get("operation");
        if (!isString(opElement)) {
            problems.error(where + ": the clause has no operation" + (absent(opElement) ? "" : " (got " + describe(opElement) + ")"),
                  OPERATIONS_HINT);
            return null;
        }
        Operation op = Operation.fromJson(opElement.getAsString());
        if (op == null) {
            problems.error(where + ": unknown operation \"" + opElement.getAsString() + "\"", OPERATIONS_HINT);
            return null;
        }
        return op.isLogical() ? parseLogical(o, op, where) : parseRelational(o, op, where);
    }

    private Clause parseLogical(JsonObject o, Operation op, String where) {
        JsonElement c = o.get("clauses");
        if (absent(c) || !c.isJsonArray() || c.getAsJsonArray().isEmpty()) {
            problems.error(where + ": " + op.json() + " needs a non-empty list of \"clauses\"",
                  "Add \"clauses\": [ ... ] with " + (op == Operation.NOT ? "exactly one clause" : "one or more clauses"));
            return null;
        }
        JsonArray array = c.getAsJsonArray();
        if (op == Operation.NOT && array.size() != 1) {
            problems.error(where + ": NOT takes exactly one clause, got " + array.size(),
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
            problems.error(where + ": the " + op.json() + " clause needs a \"field\" (a non-empty string)",
                  "Add \"field\": \"<path>\", e.g. \"id\" or \"demographics.age\"");
        } else {
            field = fieldElement.getAsString();
        }
        JsonElement valuesElement = o.get("values");
        if (absent(valuesElement) || !valuesElement.isJsonArray() || valuesElement.getAsJsonArray().isEmpty()) {
            problems.error(where + ": the " + op.json() + " clause needs a non-empty list of \"values\"",
                  "Add \"values\": [\"...\"]; the clause matches when the field compared with any value is true");
            return null;
        }
        List<FilterValue> values = new ArrayList<>();
        JsonArray array = valuesElement.getAsJsonArray();
        valueCount += array.size();
        if (valueCount > settings.limits().queryValues()) {
            return null; // reported once, by QueryParser
        }
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
            problems.error(where + ": a value must be a string, a number, null or {\"kind\", \"value\", \"type\"}, got a list",
                  "Put each value in the \"values\" list on its own");
            return null;
        }
        return checkValueForOperation(value, op, where);
    }

    /** Parses {@code {"kind": "VALUE"|"FIELD", "value": "...", "type": "..."}}. */
    FilterValue parseTypedValue(JsonObject o, String where, boolean allowNull) {
        FilterValue.Kind kind = FilterValue.Kind.VALUE;
        JsonElement k = o.get("kind");
        boolean ok = true;
        if (!absent(k)) {
            if (isString(k) && k.getAsString().trim().equalsIgnoreCase("FIELD")) {
                kind = FilterValue.Kind.FIELD;
            } else if (!(isString(k) && k.getAsString().trim().equalsIgnoreCase("VALUE"))) {
                problems.error(where + ": unknown value kind " + describe(k), "Use \"kind\": \"VALUE\" or \"kind\": \"FIELD\"");
                ok = false;
            }
        }
        ValueType type = null;
        JsonElement t = o.get("type");
        if (!absent(t)) {
            type = isString(t) ? ValueType.fromJson(t.getAsString()) : null;
            if (type == null) {
                problems.error(where + ": unknown value type " + describe(t),
                      "Use one of: " + Arrays.toString(ValueType.values()).replaceAll("[\\[\\]]", ""));
                ok = false;
            }
        }
        JsonElement v = o.get("value");
        String text = null;
        if (absent(v)) {
            if (kind == FilterValue.Kind.FIELD || !allowNull) {
                problems.error(where + ": the " + kind + " has no \"value\"",
                      kind == FilterValue.Kind.FIELD ? "Give the other field's path as \"value\"" : "Add \"value\": \"...\"");
                ok = false;
            }
        } else if (v.isJsonPrimitive()) {
            text = v.getAsString();
        } else {
            problems.error(where + ": \"value\" must be a string or a number, got " + describe(v), "Give the value as a string");
            ok = false;
        }
        if (!ok) {
            return null;
        }
        if (kind == FilterValue.Kind.FIELD) {
            if (text.isEmpty()) {
                problems.error(where + ": a FIELD value needs a non-empty path", "Give the other field's path as \"value\"");
                return null;
            }
            return FilterValue.field(text, type);
        }
        if (type != null && text != null && type.cast(text) == null) {
            problems.error(where + ": \"" + text + "\" is not a " + type, "Give a value of type " + type + " or change \"type\"");
            return null;
        }
        return FilterValue.literal(text, type);
    }

    private FilterValue checkValueForOperation(FilterValue value, Operation op, String where) {
        if (value.isNull() && op != Operation.EQUALS && op != Operation.NOT_EQUALS) {
            problems.error(where + ": null can only be used with == and !=, not " + op.json(),
                  "Use == [null] for missing or null fields, != [null] for present ones");
            return null;
        }
        if (op == Operation.REGEX_LIKE) {
            if (value.kind() == FilterValue.Kind.FIELD) {
                problems.error(where + ": RLIKE takes literal patterns, not FIELD values", "Give the regular expression as a string");
                return null;
            }
            int maxLength = settings.limits().regexLength();
            if (value.value().length() > maxLength) {
                problems.error(where + ": the regular expression is " + value.value().length() + " characters long, longer "
                               + "than the limit of " + maxLength + " (bullet.query.max.regex.length)",
                               "Shorten the pattern (several values are ORed: split an alternation over them), or raise "
                               + "bullet.query.max.regex.length");
                return null;
            }
            String written = value.value();
            try {
                value = FilterValue.literal(JavaRegex.toRe2(written), value.type()); // RE2's syntax, Java's meaning
            } catch (JavaRegex.Unsupported e) {
                problems.error(where + ": the regular expression \"" + written + "\" is read differently by Java, "
                               + "whose meaning RLIKE keeps: " + e.getMessage(),
                               "Write the pattern as the message says");
                return null;
            }
            if (RegexSize.estimate(value.value()) > RegexSize.MAX) {
                problems.error(where + ": the regular expression repeats too much: its nested counted repetitions would "
                               + "need more than " + RegexSize.MAX + " steps to compile",
                               "Use smaller counts in nested {n} repetitions, or * and + instead of large counts");
                return null;
            }
            try {
                // name clash: java.util.regex.Pattern is imported
                com.google.re2j.Pattern.compile(value.value());
            } catch (PatternSyntaxException e) {
                problems.error(where + ": invalid regular expression \"" + written + "\": " + e.getDescription(),
                      "Use RE2 syntax (linear time: no backreferences or lookaround)");
                return null;
            }
        }
        if (op == Operation.SIZE_IS && value.kind() == FilterValue.Kind.VALUE && ValueType.LONG.cast(value.value()) == null) {
            problems.error(where + ": SIZEIS needs a whole number, got \"" + value.value() + "\"", "Give the size as a number, e.g. \"3\"");
            return null;
        }
        return value;
    }
}

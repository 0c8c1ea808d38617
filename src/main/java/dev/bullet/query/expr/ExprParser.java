package dev.bullet.query.expr;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.bullet.common.BulletError;
import dev.bullet.common.JsonDepth;
import dev.bullet.common.Limits;
import dev.bullet.regex.JavaRegex;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads an expression's JSON form (the package documentation) into the model, or lists every problem, each with a
 * resolution. Nesting is bounded before anything recursive runs: text deeper than {@link Limits#queryDepth()} is
 * refused by one iterative pass ({@link JsonDepth}), and a tree already parsed is walked with a depth counter. Not
 * thread-safe: one per parse.
 */
public final class ExprParser {
    private static final Set<String> FIELD_KEYS = Set.of("field", "key", "subKey", "type");
    private static final Set<String> VALUE_KEYS = Set.of("value", "type");
    private static final Set<String> LIST_KEYS = Set.of("list");
    private static final Set<String> CAST_KEYS = Set.of("cast", "type");
    private static final Set<String> UNARY_KEYS = Set.of("op", "operand");
    private static final Set<String> BINARY_KEYS = Set.of("op", "left", "right");
    private static final Set<String> N_ARY_KEYS = Set.of("op", "operands");

    /** What a parse gives: the expression, or null with at least one error. */
    public record Result(Expr expr, List<BulletError> errors) {
        public Result {
            errors = List.copyOf(errors);
        }

        public boolean ok() {
            return errors.isEmpty();
        }
    }

    private final Limits limits;
    private final List<BulletError> errors = new ArrayList<>();

    private ExprParser(Limits limits) {
        this.limits = limits;
    }

    /** Parses JSON text. */
    public static Result parse(String json, Limits limits) {
        ExprParser parser = new ExprParser(limits);
        if (JsonDepth.exceeds(json, limits.queryDepth())) {
            parser.error("The expression nests deeper than " + limits.queryDepth() + " levels",
                    "Simplify the expression, or raise the query depth limit");
            return parser.result(null);
        }
        JsonElement tree;
        try {
            tree = JsonParser.parseString(json);
        } catch (JsonParseException malformed) {
            parser.error("The expression is not valid JSON: " + malformed.getMessage(), "Send one JSON object");
            return parser.result(null);
        }
        return parser.result(parser.expr(tree, "expression", 1));
    }

    /** Parses an expression inside a parsed document, {@code depth} levels down (the document's root is level 1). */
    public static Result parse(JsonElement json, String where, int depth, Limits limits) {
        ExprParser parser = new ExprParser(limits);
        return parser.result(parser.expr(json, where, depth));
    }

    private Result result(Expr expr) {
        return new Result(errors.isEmpty() ? expr : null, errors);
    }

    private void error(String message, String... resolutions) {
        errors.add(BulletError.of(message, resolutions));
    }

    private boolean tooDeep(String where, int depth) {
        if (depth > limits.queryDepth()) {
            error(where + " nests deeper than " + limits.queryDepth() + " levels",
                    "Simplify the expression, or raise the query depth limit");
            return true;
        }
        return false;
    }

    private Expr expr(JsonElement json, String where, int depth) {
        if (json == null || !json.isJsonObject()) {
            error(where + " must be an expression object, got " + describe(json),
                    "Give an expression such as {\"field\": \"a\"} or {\"value\": 5, \"type\": \"INTEGER\"}");
            return null;
        }
        if (tooDeep(where, depth)) {
            return null;
        }
        JsonObject o = json.getAsJsonObject();
        if (o.has("field")) {
            return checked(o, where, FIELD_KEYS) ? field(o, where, depth) : null;
        }
        if (o.has("value")) {
            return checked(o, where, VALUE_KEYS) ? value(o, where) : null;
        }
        if (o.has("list")) {
            return checked(o, where, LIST_KEYS) ? list(o, where, depth) : null;
        }
        if (o.has("cast")) {
            return checked(o, where, CAST_KEYS) ? cast(o, where, depth) : null;
        }
        if (o.has("op")) {
            return operation(o, where, depth);
        }
        error(where + " is not an expression: it has none of field, value, list, cast, op",
                "Give {\"field\": ...}, {\"value\": ...}, {\"list\": [...]}, {\"cast\": ..., \"type\": ...} or {\"op\": ...}");
        return null;
    }

    private boolean checked(JsonObject o, String where, Set<String> allowed) {
        boolean ok = true;
        for (Map.Entry<String, JsonElement> entry : o.entrySet()) {
            if (!allowed.contains(entry.getKey())) {
                error(where + " has an unknown key \"" + entry.getKey() + "\"", "Use only " + String.join(", ", allowed));
                ok = false;
            }
        }
        return ok;
    }

    private Expr field(JsonObject o, String where, int depth) {
        JsonElement name = o.get("field");
        boolean ok = true;
        if (!isString(name) || name.getAsString().isEmpty()) {
            error(where + ".field must be a non-empty string, got " + describe(name), "Name the field, e.g. \"field\": \"a\"");
            ok = false;
        }
        Object key = o.has("key") ? key(o.get("key"), where + ".key", depth, true) : null;
        Object subKey = o.has("subKey") ? key(o.get("subKey"), where + ".subKey", depth, false) : null;
        if (o.has("subKey") && !o.has("key")) {
            error(where + " has a subKey but no key", "Give the key the subKey is read under");
            ok = false;
        }
        ExprType declared = o.has("type") ? type(o.get("type"), where + ".type", false) : null;
        if (!ok || o.has("key") && key == null || o.has("subKey") && subKey == null || o.has("type") && declared == null) {
            return null;
        }
        FieldExpr field = FieldExpr.of(name.getAsString(), key, subKey);
        return declared == null ? field : field.withType(declared);
    }

    private Object key(JsonElement json, String where, int depth, boolean indexAllowed) {
        if (isString(json)) {
            return json.getAsString();
        }
        if (indexAllowed && json != null && json.isJsonPrimitive() && json.getAsJsonPrimitive().isNumber()) {
            BigDecimal d = json.getAsBigDecimal();
            if (isWhole(d) && d.signum() >= 0 && d.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
                return d.intValueExact();
            }
            error(where + " must be a list index from 0 to " + Integer.MAX_VALUE + ", got " + json, "Give a whole number");
            return null;
        }
        if (json != null && json.isJsonObject()) {
            return expr(json, where, depth + 1);
        }
        error(where + " must be a " + (indexAllowed ? "map key, a list index" : "map key") + " or an expression, got "
                + describe(json), "Give a string" + (indexAllowed ? ", a whole number" : "") + " or an expression object");
        return null;
    }

    private Expr value(JsonObject o, String where) {
        JsonElement v = o.get("value");
        ExprType type = o.has("type") ? type(o.get("type"), where + ".type", true) : inferred(v);
        if (type == null) {
            return null;
        }
        Object value = ValueReader.read(v, type);
        if (value == ValueReader.INVALID) {
            error(where + ".value " + describe(v) + " is not a " + type,
                    "Give a value of its type, e.g. {\"value\": 5, \"type\": \"INTEGER\"}, {\"value\": \"NaN\", \"type\": \"DOUBLE\"}");
            return null;
        }
        return ValueExpr.of(value);
    }

    private static ExprType inferred(JsonElement v) {
        if (v == null || v.isJsonNull()) {
            return ExprType.NULL;
        }
        if (isString(v)) {
            return ExprType.STRING;
        }
        if (v.isJsonPrimitive() && v.getAsJsonPrimitive().isBoolean()) {
            return ExprType.BOOLEAN;
        }
        if (v.isJsonPrimitive() && v.getAsJsonPrimitive().isNumber()) {
            BigDecimal d = v.getAsBigDecimal();
            if (!isWhole(d)) {
                return ExprType.DOUBLE;
            }
            if (within(d, Integer.MIN_VALUE, Integer.MAX_VALUE)) {
                return ExprType.INTEGER;
            }
            return within(d, Long.MIN_VALUE, Long.MAX_VALUE) ? ExprType.LONG : ExprType.DOUBLE;
        }
        return ExprType.UNKNOWN;
    }

    private Expr list(JsonObject o, String where, int depth) {
        List<Expr> values = exprs(o.get("list"), where + ".list", depth);
        return values == null ? null : ListExpr.of(values);
    }

    private List<Expr> exprs(JsonElement json, String where, int depth) {
        if (json == null || !json.isJsonArray()) {
            error(where + " must be a list of expressions, got " + describe(json), "Give a JSON array of expression objects");
            return null;
        }
        if (tooDeep(where, depth + 1)) {
            return null;
        }
        JsonArray array = json.getAsJsonArray();
        List<Expr> out = new ArrayList<>(array.size());
        boolean ok = true;
        for (int i = 0; i < array.size(); i++) {
            Expr e = expr(array.get(i), where + "[" + i + "]", depth + 2);
            ok &= e != null;
            out.add(e);
        }
        return ok ? out : null;
    }

    private Expr cast(JsonObject o, String where, int depth) {
        Expr value = expr(o.get("cast"), where + ".cast", depth + 1);
        ExprType type = o.has("type") ? type(o.get("type"), where + ".type", false) : null;
        if (!o.has("type")) {
            error(where + " has no type to cast to", "Add \"type\", e.g. \"DOUBLE\"");
        } else if (type == ExprType.NULL || type == ExprType.UNKNOWN) {
            error(where + " casts to " + type + ", which no value can be cast to", "Cast to a primitive, list or map type");
            return null;
        }
        return value == null || type == null ? null : CastExpr.of(value, type);
    }

    private ExprType type(JsonElement json, String where, boolean forValue) {
        ExprType type = isString(json) ? ExprType.named(json.getAsString()) : null;
        if (type == null || forValue && !type.isPrimitive() && type != ExprType.NULL) {
            error(where + " is not a " + (forValue ? "value type" : "type") + ": " + describe(json),
                    forValue ? "Use STRING, BOOLEAN, INTEGER, LONG, FLOAT, DOUBLE or NULL"
                             : "Use a type such as STRING, LONG, DOUBLE, STRING_LIST, LONG_MAP, DOUBLE_MAP_LIST");
            return null;
        }
        return type;
    }

    private Expr operation(JsonObject o, String where, int depth) {
        JsonElement name = o.get("op");
        Op op = isString(name) ? Op.named(name.getAsString()) : null;
        if (op == null) {
            error(where + ".op is not an operation: " + describe(name), "Use one of bullet-core's, e.g. \"+\", \"=\", \"AND\", \"IF\"");
            return null;
        }
        if (o.has("operand")) {
            return checked(o, where, UNARY_KEYS) && arity(op.isUnary(), op, where, "one operand") ? unary(o, op, where, depth) : null;
        }
        if (o.has("left") || o.has("right")) {
            return checked(o, where, BINARY_KEYS) && arity(op.isBinary(), op, where, "a left and a right") ? binary(o, op, where, depth) : null;
        }
        if (o.has("operands")) {
            return checked(o, where, N_ARY_KEYS) && arity(op.isNAry(), op, where, "a list of operands") ? nAry(o, op, where, depth) : null;
        }
        error(where + " has an op but no operands", "Give \"operand\", \"left\" and \"right\", or \"operands\"");
        return null;
    }

    private boolean arity(boolean fits, Op op, String where, String shape) {
        if (!fits) {
            error(where + ": " + op.symbol() + " does not take " + shape,
                    "Unary: NOT, SIZEOF, IS NULL, IS NOT NULL, TRIM, ABS, LOWER, UPPER, HASH (\"operand\"); n-ary: AND, OR, IF, "
                    + "BETWEEN, NOT BETWEEN, SUBSTRING, UNIXTIMESTAMP (\"operands\"); the others are binary (\"left\", \"right\")");
        }
        return fits;
    }

    private Expr unary(JsonObject o, Op op, String where, int depth) {
        Expr operand = expr(o.get("operand"), where + ".operand", depth + 1);
        return operand == null ? null : UnaryExpr.of(op, operand);
    }

    private Expr binary(JsonObject o, Op op, String where, int depth) {
        Expr left = expr(o.get("left"), where + ".left", depth + 1);
        Expr right = expr(o.get("right"), where + ".right", depth + 1);
        if (left == null || right == null) {
            return null;
        }
        if (op == Op.REGEX_LIKE || op == Op.NOT_REGEX_LIKE) {
            pattern(right, where + ".right");
        } else if ((op == Op.REGEX_LIKE_ANY || op == Op.NOT_REGEX_LIKE_ANY) && right instanceof ListExpr patterns) {
            for (int i = 0; i < patterns.values().size(); i++) {
                pattern(patterns.values().get(i), where + ".right.list[" + i + "]");
            }
        }
        return BinaryExpr.of(op, left, right);
    }

    /** A literal pattern is compiled now: one RE2/J cannot run would fail on every record. */
    private void pattern(Expr expr, String where) {
        if (!(expr instanceof ValueExpr v) || !(v.value() instanceof String regex)) {
            return;
        }
        if (regex.length() > limits.regexLength()) {
            error(where + ": the pattern is longer than " + limits.regexLength() + " characters", "Shorten the pattern");
            return;
        }
        try {
            Pattern.compile(JavaRegex.toRe2(regex));
        } catch (JavaRegex.Unsupported unsupported) {
            error(where + ": the pattern " + new JsonPrimitive(regex) + " is read differently by Java, whose meaning "
                    + "RLIKE keeps: " + unsupported.getMessage(), "Write the pattern as the message says");
        } catch (PatternSyntaxException invalid) {
            error(where + ": the pattern " + new JsonPrimitive(regex) + " is not a valid regular expression: "
                    + invalid.getDescription(), "Fix the pattern (RE2 syntax: no backreferences or lookaround)");
        }
    }

    private Expr nAry(JsonObject o, Op op, String where, int depth) {
        List<Expr> operands = exprs(o.get("operands"), where + ".operands", depth);
        if (operands == null) {
            return null;
        }
        int[] counts = op.operandCounts();
        if (operands.size() < counts[0] || operands.size() > counts[1]) {
            error(where + ": " + op.symbol() + " takes " + (counts[0] == counts[1] ? String.valueOf(counts[0])
                    : counts[0] + " to " + (counts[1] == Integer.MAX_VALUE ? "any number of" : counts[1])) + " operands, got "
                    + operands.size(), "Give " + op.symbol() + " the operands it takes");
            return null;
        }
        return NAryExpr.of(op, operands);
    }

    static boolean isString(JsonElement e) {
        return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isString();
    }

    static boolean isWhole(BigDecimal d) {
        return d.signum() == 0 || d.scale() <= 0 || d.stripTrailingZeros().scale() <= 0;
    }

    static boolean within(BigDecimal d, long min, long max) {
        return d.compareTo(BigDecimal.valueOf(min)) >= 0 && d.compareTo(BigDecimal.valueOf(max)) <= 0;
    }

    static String describe(JsonElement e) {
        if (e == null) {
            return "nothing";
        }
        String text = e.toString();
        return text.length() > 60 ? text.substring(0, 57) + "..." : text;
    }
}

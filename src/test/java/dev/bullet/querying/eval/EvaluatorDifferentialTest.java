package dev.bullet.querying.eval;

import dev.bullet.common.Clock;
import dev.bullet.common.Limits;
import dev.bullet.query.expr.BinaryExpr;
import dev.bullet.query.expr.CastExpr;
import dev.bullet.query.expr.Expr;
import dev.bullet.query.expr.ExprType;
import dev.bullet.query.expr.FieldExpr;
import dev.bullet.query.expr.ListExpr;
import dev.bullet.query.expr.NAryExpr;
import dev.bullet.query.expr.Op;
import dev.bullet.query.expr.UnaryExpr;
import dev.bullet.query.expr.ValueExpr;
import dev.bullet.record.MapRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Random expressions over random records, evaluated by bullet-core 1.5.2 and by ours: the same value of the same Java
 * class (Integer, Long, Float, Double matter; lists and maps member by member), the same primitive type, and FAILED
 * exactly where bullet-core throws. The generator stays clear of the documented differences (DECISIONS.md, "Expressions
 * follow bullet-core 1.5.2"): container casts and FILTER only at the root, no casts in field keys, no maps three deep,
 * no UNIXTIMESTAMP() without arguments.
 */
class EvaluatorDifferentialTest {
    private static final int EXPRESSIONS = 6000;
    private static final int RECORDS = 24;
    private static final String[] FIELDS = {"a", "b", "c", "d", "e", "f", "g", "h", "missing"};
    private static final String[] STRINGS = {"70", " 5 ", "1e3", "abc", "", "true", "FALSE", "NaN", "-Infinity", "0x10",
        "2021-01-02 03:04:05", "20210102", "a.b", "Abc Def", "  x  ", "5d", "b", "[x", "é"};
    private static final String[] PATTERNS = {"a.*", ".*5.*", "[0-9]+", "abc", "(a|b)+c?", "^7.*$", "", "(", "x{2,}",
        "\\s*\\d+\\s*", ".*"};
    private static final String[] DATE_PATTERNS = {"yyyy-MM-dd HH:mm:ss", "yyyyMMdd", "yyyyMMddHHmm", "qqqq-zz"};
    private static final Op[] UNARY = {Op.NOT, Op.SIZE_OF, Op.IS_NULL, Op.IS_NOT_NULL, Op.TRIM, Op.ABS, Op.LOWER,
        Op.UPPER, Op.HASH};
    private static final ExprType[] PRIMITIVES = {ExprType.STRING, ExprType.BOOLEAN, ExprType.INTEGER, ExprType.LONG,
        ExprType.FLOAT, ExprType.DOUBLE};

    private final Random random = new Random(20240607L);
    private final Clock clock = () -> 1_700_000_000_000L;

    @Test
    void evaluatorsAgreeWithBulletCore() {
        int compared = 0;
        int failedBoth = 0;
        int nulls = 0;
        int trues = 0;
        int others = 0;
        for (int i = 0; i < EXPRESSIONS; i++) {
            Expr expr = root();
            Evaluator ours = Evaluators.compile(expr, clock, Limits.defaults());
            for (int r = 0; r < RECORDS; r++) {
                Map<String, Object> fields = record();
                BulletCoreBridge.Answer theirs = BulletCoreBridge.evaluate(expr, fields);
                Object mine = ours.evaluate(new MapRecord(fields));
                String where = expr + " over " + fields;
                if (theirs == null) {
                    assertTrue(Evaluators.failed(mine), "bullet-core throws, we gave " + mine + ": " + where);
                    failedBoth++;
                } else {
                    assertSame(theirs.value(), mine, where);
                    nulls += mine == null ? 1 : 0;
                    trues += Boolean.TRUE.equals(mine) ? 1 : 0;
                    others += mine != null && !(mine instanceof Boolean) ? 1 : 0;
                    if (mine != null && ExprType.of(mine).isPrimitive()) {
                        assertEquals(theirs.type(), ExprType.of(mine).name(), where);
                    }
                }
                compared++;
            }
        }
        System.out.printf("compared %d: failed %d, null %d, TRUE %d, non-boolean %d%n", compared, failedBoth, nulls, trues, others);
        assertTrue(failedBoth < compared / 2, "too many failures to be a useful test: " + failedBoth + " of " + compared);
        assertTrue(nulls > compared / 20 && trues > compared / 40 && others > compared / 10, "too few answers of each kind");
    }

    /** Equal values of equal classes, lists and maps member by member (NaN equals NaN, -0.0 is not 0.0). */
    static void assertSame(Object expected, Object actual, String where) {
        if (expected == null || actual == null || Evaluators.failed(actual)) {
            assertEquals(expected, actual, where);
            return;
        }
        if (expected instanceof List<?> e) {
            if (!(actual instanceof List<?> a) || a.size() != e.size()) {
                fail("expected " + expected + ", got " + actual + ": " + where);
                return;
            }
            for (int i = 0; i < e.size(); i++) {
                assertSame(e.get(i), a.get(i), where);
            }
            return;
        }
        if (expected instanceof Map<?, ?> e) {
            if (!(actual instanceof Map<?, ?> a) || !a.keySet().equals(e.keySet())) {
                fail("expected " + expected + ", got " + actual + ": " + where);
                return;
            }
            for (Object key : e.keySet()) {
                assertSame(e.get(key), a.get(key), where);
            }
            return;
        }
        assertEquals(expected.getClass(), actual.getClass(), where);
        assertEquals(expected, actual, where);
    }

    // ---------------------------------------------------------------- records

    private Map<String, Object> record() {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (String name : FIELDS) {
            if (!name.equals("missing") && random.nextInt(10) != 0) {
                fields.put(name, random.nextInt(4) == 0 ? value(2) : usual(name));
            }
        }
        return fields;
    }

    /** The value a field usually holds, so that most expressions are well typed: a, b numbers, c strings, ... */
    private Object usual(String name) {
        return switch (name) {
            case "a" -> longValue();
            case "b" -> doubleValue();
            case "c" -> STRINGS[random.nextInt(STRINGS.length)];
            case "d" -> random.nextBoolean();
            case "e" -> sameKindList(longValue());
            case "f" -> sameKindMap(random.nextBoolean() ? longValue() : STRINGS[random.nextInt(STRINGS.length)]);
            case "g" -> sameKindList(sameKindMap(longValue()));
            default -> sameKindMap(sameKindMap(longValue()));
        };
    }

    private List<Object> sameKindList(Object model) {
        List<Object> list = new ArrayList<>();
        for (int i = random.nextInt(5); i > 0; i--) {
            list.add(sameKind(model, 2));
        }
        return list;
    }

    private Map<String, Object> sameKindMap(Object model) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            map.put(FIELDS[random.nextInt(4)], sameKind(model, 2));
        }
        return map;
    }

    private Object value(int depth) {
        int kind = random.nextInt(depth > 0 ? 10 : 6);
        return switch (kind) {
            case 0 -> longValue();
            case 1 -> doubleValue();
            case 2 -> STRINGS[random.nextInt(STRINGS.length)];
            case 3 -> random.nextBoolean();
            case 4 -> null;
            case 5 -> random.nextInt(3) == 0 ? STRINGS[random.nextInt(STRINGS.length)] : longValue();
            case 6, 7 -> list(depth);
            default -> map(depth);
        };
    }

    private Object longValue() {
        return switch (random.nextInt(6)) {
            case 0 -> Long.MAX_VALUE - random.nextInt(3);
            case 1 -> Long.MIN_VALUE + random.nextInt(3);
            case 2 -> (long) Integer.MAX_VALUE + random.nextInt(3);
            default -> (long) random.nextInt(11) - 3;
        };
    }

    private Object doubleValue() {
        return switch (random.nextInt(8)) {
            case 0 -> Double.NaN;
            case 1 -> Double.POSITIVE_INFINITY;
            case 2 -> -0.0;
            case 3 -> 1e300;
            case 4 -> 9.223372036854776E18;
            default -> (random.nextInt(200) - 100) / 8.0;
        };
    }

    private List<Object> list(int depth) {
        List<Object> list = new ArrayList<>();
        int n = random.nextInt(5);
        boolean homogeneous = random.nextInt(3) != 0;
        Object first = value(depth == 2 ? 1 : 0);
        for (int i = 0; i < n; i++) {
            list.add(homogeneous ? sameKind(first, depth) : value(depth - 1));
        }
        return list;
    }

    private Map<String, Object> map(int depth) {
        Map<String, Object> map = new LinkedHashMap<>();
        int n = random.nextInt(4);
        boolean homogeneous = random.nextInt(3) != 0;
        Object first = value(depth == 2 ? 1 : 0);
        for (int i = 0; i < n; i++) {
            map.put(FIELDS[random.nextInt(4)], homogeneous ? sameKind(first, depth) : value(depth - 1));
        }
        return map;
    }

    /** Another value of the kind of {@code model}, so most containers have one member type. */
    private Object sameKind(Object model, int depth) {
        if (random.nextInt(10) == 0) {
            return null;
        }
        if (model instanceof Long) {
            return longValue();
        }
        if (model instanceof Double) {
            return doubleValue();
        }
        if (model instanceof String) {
            return STRINGS[random.nextInt(STRINGS.length)];
        }
        if (model instanceof Boolean) {
            return random.nextBoolean();
        }
        if (model instanceof Map && depth > 1) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (int i = random.nextInt(3); i > 0; i--) {
                map.put(FIELDS[random.nextInt(4)], longValue());
            }
            return map;
        }
        return value(0);
    }

    // ------------------------------------------------------------ expressions

    private Expr root() {
        return switch (random.nextInt(12)) {
            case 0 -> CastExpr.of(random.nextBoolean() ? field() : list(), containerType());
            case 1 -> BinaryExpr.of(Op.FILTER, random.nextBoolean() ? field() : list(), random.nextBoolean() ? field() : booleanList());
            default -> expr(3);
        };
    }

    private Expr expr(int depth) {
        if (depth == 0) {
            return leaf();
        }
        return switch (random.nextInt(16)) {
            case 10, 11 -> num(depth);
            case 12, 13 -> bool(depth);
            case 14, 15 -> str(depth);
            case 0, 1 -> leaf();
            case 2 -> UnaryExpr.of(UNARY[random.nextInt(UNARY.length)], expr(depth - 1));
            case 3, 4, 5 -> binary(depth);
            case 6 -> nAry(depth);
            case 7 -> CastExpr.of(expr(depth - 1), PRIMITIVES[random.nextInt(PRIMITIVES.length)]);
            case 8 -> list();
            default -> keyedField(depth);
        };
    }

    /** Mostly a number. */
    private Expr num(int depth) {
        if (depth <= 0) {
            return random.nextBoolean() ? FieldExpr.of(random.nextBoolean() ? "a" : "b") : literal();
        }
        return switch (random.nextInt(8)) {
            case 0, 1 -> BinaryExpr.of(Op.values()[random.nextInt(5)], num(depth - 1), num(depth - 1));
            case 2 -> UnaryExpr.of(Op.ABS, num(depth - 1));
            case 3 -> UnaryExpr.of(random.nextBoolean() ? Op.SIZE_OF : Op.HASH, expr(depth - 1));
            case 4 -> CastExpr.of(random.nextBoolean() ? str(depth - 1) : num(depth - 1), PRIMITIVES[2 + random.nextInt(4)]);
            case 5 -> NAryExpr.of(Op.IF, List.of(bool(depth - 1), num(depth - 1), num(depth - 1)));
            default -> num(0);
        };
    }

    /** Mostly a string. */
    private Expr str(int depth) {
        if (depth <= 0) {
            return random.nextBoolean() ? FieldExpr.of("c") : ValueExpr.of(STRINGS[random.nextInt(STRINGS.length)]);
        }
        return switch (random.nextInt(6)) {
            case 0 -> UnaryExpr.of(new Op[] {Op.TRIM, Op.LOWER, Op.UPPER}[random.nextInt(3)], str(depth - 1));
            case 1 -> NAryExpr.of(Op.SUBSTRING, random.nextBoolean() ? List.of(str(depth - 1), smallInt())
                    : List.of(str(depth - 1), smallInt(), smallInt()));
            case 2 -> CastExpr.of(expr(depth - 1), ExprType.STRING);
            case 3 -> FieldExpr.of("f", FIELDS[random.nextInt(4)], null);
            default -> str(0);
        };
    }

    /** Mostly a boolean. */
    private Expr bool(int depth) {
        if (depth <= 0) {
            return random.nextBoolean() ? FieldExpr.of("d") : ValueExpr.of(random.nextBoolean());
        }
        Op[] comparisons = {Op.EQUALS, Op.NOT_EQUALS, Op.GREATER_THAN, Op.LESS_THAN, Op.GREATER_THAN_OR_EQUALS,
            Op.LESS_THAN_OR_EQUALS};
        return switch (random.nextInt(10)) {
            case 0, 1 -> BinaryExpr.of(comparisons[random.nextInt(6)], num(depth - 1), num(depth - 1));
            case 2 -> BinaryExpr.of(comparisons[random.nextInt(6)], str(depth - 1), str(depth - 1));
            case 3 -> BinaryExpr.of(new Op[] {Op.AND, Op.OR, Op.XOR}[random.nextInt(3)], bool(depth - 1), bool(depth - 1));
            case 4 -> NAryExpr.of(random.nextBoolean() ? Op.AND : Op.OR, List.of(bool(depth - 1), bool(depth - 1), bool(depth - 1)));
            case 5 -> UnaryExpr.of(new Op[] {Op.NOT, Op.IS_NULL, Op.IS_NOT_NULL}[random.nextInt(3)], expr(depth - 1));
            case 6 -> BinaryExpr.of(random.nextBoolean() ? Op.REGEX_LIKE : Op.NOT_REGEX_LIKE, str(depth - 1),
                    ValueExpr.of(PATTERNS[random.nextInt(PATTERNS.length)]));
            case 7 -> BinaryExpr.of(random.nextBoolean() ? Op.IN : Op.NOT_IN, num(depth - 1), random.nextBoolean() ? list() : FieldExpr.of("e"));
            case 8 -> BinaryExpr.of(random.nextBoolean() ? Op.CONTAINS_KEY : Op.CONTAINS_VALUE, FieldExpr.of(random.nextBoolean() ? "f" : "h"),
                    random.nextBoolean() ? ValueExpr.of(FIELDS[random.nextInt(4)]) : num(0));
            default -> NAryExpr.of(Op.BETWEEN, List.of(num(depth - 1), num(0), num(0)));
        };
    }

    private Expr binary(int depth) {
        Op op;
        do {
            op = Op.values()[random.nextInt(Op.values().length)];
        } while (!op.isBinary() || op == Op.FILTER);
        Expr right;
        if (op == Op.REGEX_LIKE || op == Op.NOT_REGEX_LIKE) {
            right = random.nextInt(4) == 0 ? expr(depth - 1) : ValueExpr.of(PATTERNS[random.nextInt(PATTERNS.length)]);
        } else if (op == Op.REGEX_LIKE_ANY || op == Op.NOT_REGEX_LIKE_ANY) {
            List<Expr> patterns = new ArrayList<>();
            for (int i = random.nextInt(3); i >= 0; i--) {
                patterns.add(random.nextInt(5) == 0 ? ValueExpr.of(null) : ValueExpr.of(PATTERNS[random.nextInt(PATTERNS.length)]));
            }
            right = random.nextInt(4) == 0 ? expr(depth - 1) : ListExpr.of(patterns);
        } else if (op.isQuantified() || op == Op.IN || op == Op.NOT_IN) {
            right = random.nextBoolean() ? list() : expr(depth - 1);
        } else {
            right = expr(depth - 1);
        }
        return BinaryExpr.of(op, expr(depth - 1), right);
    }

    private Expr nAry(int depth) {
        return switch (random.nextInt(7)) {
            case 0 -> NAryExpr.of(Op.AND, several(depth));
            case 1 -> NAryExpr.of(Op.OR, several(depth));
            case 2 -> NAryExpr.of(Op.IF, List.of(expr(depth - 1), expr(depth - 1), expr(depth - 1)));
            case 3 -> NAryExpr.of(random.nextBoolean() ? Op.BETWEEN : Op.NOT_BETWEEN,
                    List.of(expr(depth - 1), expr(depth - 1), expr(depth - 1)));
            case 4 -> NAryExpr.of(Op.SUBSTRING, random.nextBoolean() ? List.of(expr(depth - 1), smallInt())
                    : List.of(expr(depth - 1), smallInt(), smallInt()));
            case 5 -> NAryExpr.of(Op.UNIX_TIMESTAMP, List.of(expr(depth - 1)));
            default -> NAryExpr.of(Op.UNIX_TIMESTAMP, List.of(expr(depth - 1),
                    ValueExpr.of(DATE_PATTERNS[random.nextInt(DATE_PATTERNS.length)])));
        };
    }

    private List<Expr> several(int depth) {
        List<Expr> out = new ArrayList<>();
        for (int i = random.nextInt(4); i >= 0; i--) {
            out.add(expr(depth - 1));
        }
        return out;
    }

    private Expr smallInt() {
        return random.nextInt(5) == 0 ? leaf() : ValueExpr.of(random.nextInt(9) - 4);
    }

    private Expr leaf() {
        return random.nextInt(2) == 0 ? field() : literal();
    }

    private Expr field() {
        return FieldExpr.of(FIELDS[random.nextInt(FIELDS.length)]);
    }

    private Expr keyedField(int depth) {
        String name = FIELDS[random.nextInt(FIELDS.length)];
        Object key = switch (random.nextInt(4)) {
            case 0 -> FIELDS[random.nextInt(4)];
            case 1 -> random.nextInt(4);
            case 2 -> random.nextBoolean() ? ValueExpr.of(FIELDS[random.nextInt(4)]) : ValueExpr.of((long) random.nextInt(3));
            default -> field();
        };
        Object subKey = random.nextInt(3) != 0 ? null : random.nextBoolean() ? FIELDS[random.nextInt(4)] : field();
        return FieldExpr.of(name, key, subKey);
    }

    private Expr literal() {
        return switch (random.nextInt(11)) {
            case 0, 9, 10 -> ValueExpr.of(random.nextInt(7) - 2);
            case 1 -> ValueExpr.of(longValue());
            case 2 -> ValueExpr.of(doubleValue());
            case 3 -> ValueExpr.of((float) (random.nextInt(20) - 10) / 4);
            case 4 -> ValueExpr.of(STRINGS[random.nextInt(STRINGS.length)]);
            case 5 -> ValueExpr.of(random.nextBoolean());
            case 6 -> ValueExpr.of(null);
            default -> ValueExpr.of(random.nextInt(3));
        };
    }

    private Expr list() {
        List<Expr> values = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            values.add(random.nextInt(4) == 0 ? field() : literal());
        }
        return ListExpr.of(values);
    }

    private Expr booleanList() {
        List<Expr> values = new ArrayList<>();
        for (int i = random.nextInt(5); i > 0; i--) {
            values.add(random.nextInt(6) == 0 ? literal() : ValueExpr.of(random.nextBoolean()));
        }
        return ListExpr.of(values);
    }

    private ExprType containerType() {
        ExprType type;
        do {
            type = ExprType.values()[random.nextInt(ExprType.values().length)];
        } while (type == ExprType.NULL || type == ExprType.UNKNOWN);
        return type;
    }
}

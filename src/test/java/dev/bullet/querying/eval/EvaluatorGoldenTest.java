package dev.bullet.querying.eval;

import dev.bullet.common.Limits;
import dev.bullet.query.expr.ExprParser;
import dev.bullet.record.MapRecord;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One golden answer per operator, written in the JSON form, over one record; FAILED is where bullet-core throws. */
class EvaluatorGoldenTest {
    private static final Object F = Evaluators.FAILED;
    private static final MapRecord RECORD;

    static {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("i", 7L);
        m.put("d", 2.5);
        m.put("s", " Ab ");
        m.put("n", "70");
        m.put("t", true);
        m.put("z", null);
        m.put("l", Arrays.asList(1L, 2L, null));
        m.put("ls", List.of("a", "b"));
        m.put("m", Map.of("k", 1L));
        m.put("mm", Map.of("x", Map.of("y", "v")));
        m.put("lm", List.of(Map.of("k", 3L)));
        m.put("ll", List.of(List.of(1L)));
        m.put("date", "2021-01-02 03:04:05");
        RECORD = new MapRecord(m);
    }

    private static Object eval(String json) {
        ExprParser.Result parsed = ExprParser.parse(json, Limits.defaults());
        assertTrue(parsed.ok(), parsed.errors().toString());
        return Evaluators.compile(parsed.expr(), () -> 1_700_000_123_456L, Limits.defaults()).evaluate(RECORD);
    }

    private static String f(String name) {
        return "{\"field\":\"" + name + "\"}";
    }

    private static String v(Object value, String type) {
        return "{\"value\":" + (value instanceof String ? "\"" + value + "\"" : value) + ",\"type\":\"" + type + "\"}";
    }

    private static String bin(String op, String left, String right) {
        return "{\"op\":\"" + op + "\",\"left\":" + left + ",\"right\":" + right + "}";
    }

    private static String un(String op, String operand) {
        return "{\"op\":\"" + op + "\",\"operand\":" + operand + "}";
    }

    private static String nary(String op, String... operands) {
        return "{\"op\":\"" + op + "\",\"operands\":[" + String.join(",", operands) + "]}";
    }

    private static String cast(String value, String type) {
        return "{\"cast\":" + value + ",\"type\":\"" + type + "\"}";
    }

    @Test
    void arithmetic() {
        assertEquals(12L, eval(bin("+", f("i"), v(5, "INTEGER"))));
        assertEquals(10, eval(bin("*", v(2, "INTEGER"), v(5, "INTEGER"))));
        assertEquals(3, eval(bin("/", v(7, "INTEGER"), v(2, "INTEGER"))));
        assertEquals(17.5, eval(bin("*", f("i"), f("d"))));
        assertEquals(1.5f, eval(bin("-", v(2.5, "FLOAT"), v(1, "INTEGER"))));
        assertEquals(F, eval(bin("/", f("i"), v(0, "INTEGER"))));
        assertEquals(Double.POSITIVE_INFINITY, eval(bin("/", f("d"), v(0, "INTEGER"))));
        assertEquals(F, eval(bin("+", f("n"), v(5, "INTEGER"))), "a numeric string is not a number");
        assertEquals(null, eval(bin("+", f("z"), v(5, "INTEGER"))));
        assertEquals(null, eval(bin("+", f("missing"), f("n"))));
    }

    @Test
    void comparisons() {
        assertEquals(true, eval(bin(">", f("i"), v(5, "INTEGER"))));
        assertEquals(true, eval(bin("=", f("i"), v(7.0, "DOUBLE"))));
        assertEquals(F, eval(bin(">", f("n"), v(5, "INTEGER"))));
        assertEquals(null, eval(bin("=", f("z"), v(5, "INTEGER"))));
        assertEquals(true, eval(bin("= ANY", v(2, "INTEGER"), f("l"))));
        assertEquals(null, eval(bin("= ANY", v(5, "INTEGER"), f("l"))));
        assertEquals(false, eval(bin("> ALL", v(1, "INTEGER"), f("l"))));
        assertEquals(F, eval(bin("= ANY", v(1, "INTEGER"), f("ll"))));
    }

    @Test
    void logic() {
        assertEquals(null, eval(bin("AND", f("t"), f("z"))));
        assertEquals(false, eval(bin("AND", v(false, "BOOLEAN"), f("ll"))));
        assertEquals(true, eval(bin("OR", f("z"), v("TRUE", "STRING"))));
        assertEquals(true, eval(bin("XOR", f("t"), v(0, "INTEGER"))));
        assertEquals(null, eval(un("NOT", f("z"))));
        assertEquals(false, eval(un("NOT", f("i"))));
        assertEquals(null, eval(nary("AND", f("t"), f("z"), v(1, "INTEGER"))));
        assertEquals(true, eval(nary("OR", f("z"), f("t"))));
    }

    @Test
    void collectionsAndStrings() {
        assertEquals(true, eval(bin("RLIKE", f("s"), v(".*b.*", "STRING"))));
        assertEquals(false, eval(bin("RLIKE", f("s"), v("b", "STRING"))), "the whole string must match");
        assertEquals(true, eval(bin("NOT RLIKE ANY", f("s"), "{\"list\":[" + v("x", "STRING") + "]}")));
        assertEquals(true, eval(bin("SIZEIS", f("l"), v(3, "INTEGER"))));
        assertEquals(F, eval(bin("SIZEIS", f("l"), f("i"))), "SIZEIS wants an Integer");
        assertEquals(true, eval(bin("CONTAINSKEY", f("mm"), v("y", "STRING"))));
        assertEquals(true, eval(bin("CONTAINSVALUE", f("lm"), v(3, "INTEGER"))));
        assertEquals(null, eval(bin("IN", v(9, "INTEGER"), f("l"))));
        assertEquals(false, eval(bin("NOT IN", v(1, "INTEGER"), f("l"))));
        assertEquals(F, eval(bin("FILTER", f("l"), "{\"list\":[]}")), "a mask shorter than the list fails");
        assertEquals(List.of("a"), eval(bin("FILTER", f("ls"), "{\"list\":[" + v(true, "BOOLEAN") + "," + v(false, "BOOLEAN") + "]}")));
        assertEquals(3, eval(un("SIZEOF", f("l"))));
        assertEquals(4, eval(un("SIZEOF", f("s"))));
        assertEquals(F, eval(un("SIZEOF", f("i"))));
        assertEquals("Ab", eval(un("TRIM", f("s"))));
        assertEquals(" ab ", eval(un("LOWER", f("s"))));
        assertEquals(F, eval(un("UPPER", f("i"))));
        assertEquals(7L, eval(un("ABS", v(-7L, "LONG"))));
        assertEquals(Long.hashCode(7L), eval(un("HASH", f("i"))));
        assertEquals(0, eval(un("HASH", f("z"))));
        assertEquals(true, eval(un("IS NULL", f("missing"))));
        assertEquals(F, eval(un("IS NULL", bin("/", v(1, "INTEGER"), v(0, "INTEGER")))));
    }

    @Test
    void fieldsFunctionsAndCasts() {
        assertEquals(1L, eval("{\"field\":\"m\",\"key\":\"k\"}"));
        assertEquals(2L, eval("{\"field\":\"l\",\"key\":{\"value\":1.9,\"type\":\"DOUBLE\"}}"));
        assertEquals(F, eval("{\"field\":\"l\",\"key\":5}"), "an index out of range fails");
        assertEquals(F, eval("{\"field\":\"i\",\"key\":\"k\"}"));
        assertEquals("v", eval("{\"field\":\"mm\",\"key\":\"x\",\"subKey\":\"y\"}"));
        assertEquals(3L, eval("{\"field\":\"lm\",\"key\":0,\"subKey\":\"k\"}"));
        assertEquals(null, eval("{\"field\":\"missing\",\"key\":0}"));
        assertEquals("b", eval(nary("IF", f("t"), v("b", "STRING"), f("i"))));
        assertEquals(F, eval(nary("IF", f("i"), f("i"), f("i"))), "IF does not cast its condition");
        assertEquals(false, eval(nary("BETWEEN", f("i"), v(7, "INTEGER"), f("d"))));
        assertEquals(null, eval(nary("BETWEEN", f("i"), f("z"), v(9, "INTEGER"))));
        assertEquals(false, eval(nary("NOT BETWEEN", f("i"), v(1, "INTEGER"), v(9, "INTEGER"))));
        assertEquals("Ab ", eval(nary("SUBSTRING", f("s"), v(2, "INTEGER"))));
        assertEquals("b", eval(nary("SUBSTRING", f("s"), v(-2, "INTEGER"), v(1, "INTEGER"))));
        assertEquals("", eval(nary("SUBSTRING", f("s"), v(0, "INTEGER"))));
        assertEquals(1_700_000_123L, eval(nary("UNIXTIMESTAMP")));
        assertEquals(1_609_556_645L, eval(nary("UNIXTIMESTAMP", f("date"))));
        assertEquals(1_609_459_200L, eval(nary("UNIXTIMESTAMP", v("2021-01-01 00:00:00", "STRING"), v("yyyy-MM-dd HH:mm:ss", "STRING"))));
        assertEquals(F, eval(nary("UNIXTIMESTAMP", f("s"))));
        assertEquals(70, eval(cast(f("n"), "INTEGER")));
        assertEquals(5.0, eval(cast(v(" 5 ", "STRING"), "DOUBLE")));
        assertEquals(1000L, eval(cast(v("1e3", "STRING"), "LONG")));
        assertEquals(F, eval(cast(f("s"), "DOUBLE")));
        assertEquals(false, eval(cast(f("n"), "BOOLEAN")));
        assertEquals("2.5", eval(cast(f("d"), "STRING")));
        assertEquals(F, eval(cast(f("ls"), "DOUBLE_LIST")), "\"a\" is not a number");
        Map<String, Object> expected = new HashMap<>();
        expected.put("k", "1");
        assertEquals(expected, eval(cast(f("m"), "STRING_MAP")));
        assertEquals(F, eval(cast(f("m"), "STRING")));
        assertEquals(null, eval(cast(f("z"), "STRING")));
    }

    @Test
    void howFiltersAndProjectionsReadAnEvaluation() {
        assertTrue(Evaluators.matches(true));
        assertTrue(Evaluators.matches("true"));
        assertTrue(Evaluators.matches(3L));
        assertFalse(Evaluators.matches(null));
        assertFalse(Evaluators.matches(F));
        assertFalse(Evaluators.matches(List.of()));
        assertEquals(null, Evaluators.projected(F));
        assertEquals(5L, Evaluators.projected(5L));
    }
}

package dev.bullet.querying;

import dev.bullet.testing.Queries;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PostAggregatorTest {

    private static List<Map<String, Object>> apply(String postAggregations, List<Map<String, Object>> rows) {
        PostAggregator p = new PostAggregator(Queries.parse("{\"postAggregations\": [" + postAggregations + "]}").postAggregations());
        List<Map<String, Object>> copy = new ArrayList<>();
        rows.forEach(r -> copy.add(new LinkedHashMap<>(r)));
        return p.apply(copy);
    }

    private static List<Object> column(List<Map<String, Object>> rows, String name) {
        List<Object> values = new ArrayList<>();
        rows.forEach(r -> values.add(r.get(name)));
        return values;
    }

    private static final List<Map<String, Object>> ROWS = List.of(
            mapOf("name", "b", "n", 2L, "x", 1.5),
            mapOf("name", "a", "n", 10L, "x", 0.5),
            mapOf("name", "c", "n", 2L, "x", null),
            mapOf("name", "d", "n", 7L));

    @Test
    void noPostAggregationsLeaveRowsAsTheyAre() {
        assertEquals(ROWS, apply("", ROWS));
    }

    // ------------------------------------------------------------------------------------------ ORDERBY

    @Test
    void orderByAscendingNumbers() {
        List<Map<String, Object>> out = apply("{\"type\": \"ORDERBY\", \"fields\": [\"n\"]}", ROWS);
        assertEquals(List.of("b", "c", "d", "a"), column(out, "name"), "stable for equal keys");
    }

    @Test
    void orderByDescending() {
        List<Map<String, Object>> out = apply("{\"type\": \"ORDERBY\", \"fields\": [\"n\"], \"direction\": \"DESC\"}", ROWS);
        assertEquals(List.of(10L, 7L, 2L, 2L), column(out, "n"));
    }

    @Test
    void orderByStrings() {
        assertEquals(List.of("a", "b", "c", "d"), column(apply("{\"type\": \"ORDERBY\", \"fields\": [\"name\"], \"direction\": \"ASC\"}", ROWS), "name"));
    }

    @Test
    void orderBySeveralFields() {
        List<Map<String, Object>> out = apply("{\"type\": \"ORDERBY\", \"fields\": [\"n\", \"name\"], \"direction\": \"DESC\"}", ROWS);
        assertEquals(List.of("a", "d", "c", "b"), column(out, "name"));
    }

    @Test
    void missingAndNullValuesSortFirstAscendingAndLastDescending() {
        assertEquals(List.of("c", "d", "a", "b"), column(apply("{\"type\": \"ORDERBY\", \"fields\": [\"x\"]}", ROWS), "name"));
        assertEquals(List.of("b", "a", "c", "d"),
                     column(apply("{\"type\": \"ORDERBY\", \"fields\": [\"x\"], \"direction\": \"DESC\"}", ROWS), "name"));
    }

    @Test
    void longsAndDoublesSortTogether() {
        List<Map<String, Object>> rows = List.of(mapOf("v", 2.5), mapOf("v", 2L), mapOf("v", 3L), mapOf("v", -1.0));
        assertEquals(List.of(-1.0, 2L, 2.5, 3L), column(apply("{\"type\": \"ORDERBY\", \"fields\": [\"v\"]}", rows), "v"));
    }

    // -------------------------------------------------------------------------------------- COMPUTATION

    private static String field(String name) {
        return "{\"value\": {\"kind\": \"FIELD\", \"value\": \"" + name + "\"}}";
    }

    private static String value(String literal, String type) {
        return "{\"value\": {\"kind\": \"VALUE\", \"value\": \"" + literal + "\"" + (type == null ? "" : ", \"type\": \"" + type + "\"") + "}}";
    }

    private static String binary(String op, String left, String right) {
        return "{\"operation\": \"" + op + "\", \"left\": " + left + ", \"right\": " + right + "}";
    }

    private static Object compute(String expression, Map<String, Object> row) {
        List<Map<String, Object>> out = apply("{\"type\": \"COMPUTATION\", \"newName\": \"r\", \"expression\": " + expression + "}", List.of(row));
        return out.get(0).get("r");
    }

    @Test
    void arithmeticOnWholeNumbersStaysWhole() {
        Map<String, Object> row = mapOf("a", 7L, "b", 2L);
        assertEquals(9L, compute(binary("+", field("a"), field("b")), row));
        assertEquals(5L, compute(binary("-", field("a"), field("b")), row));
        assertEquals(14L, compute(binary("*", field("a"), field("b")), row));
    }

    @Test
    void divisionGivesADouble() {
        Map<String, Object> row = mapOf("a", 7L, "b", 2L);
        assertEquals(3.5, compute(binary("/", field("a"), field("b")), row));
        assertEquals(2.0, compute(binary("/", value("4", null), value("2", null)), row));
    }

    @Test
    void anyDoubleOperandGivesADouble() {
        Map<String, Object> row = mapOf("a", 7L, "x", 0.5);
        assertEquals(7.5, compute(binary("+", field("a"), field("x")), row));
        assertEquals(3.5, compute(binary("*", field("a"), field("x")), row));
        assertEquals(9.0, compute(binary("+", field("a"), value("2", "DOUBLE")), row));
        assertInstanceOf(Double.class, compute(binary("+", field("a"), value("2.0", null)), row));
    }

    @Test
    void literalsAndTypedLiterals() {
        Map<String, Object> row = mapOf("a", 7L);
        assertEquals(10L, compute(binary("+", field("a"), value("3", null)), row));
        assertEquals(10L, compute(binary("+", field("a"), value("3", "LONG")), row));
        assertEquals(21L, compute(binary("*", value("3", "INTEGER"), field("a")), row));
        assertEquals(4L, compute(value("4", null), row));
    }

    @Test
    void nestedExpressions() {
        Map<String, Object> row = mapOf("a", 6L, "b", 4L, "c", 2L);
        // (a + b) / (a - c) * 2 = 10 / 4 * 2
        String expr = binary("*", binary("/", binary("+", field("a"), field("b")), binary("-", field("a"), field("c"))), value("2", null));
        assertEquals(5.0, compute(expr, row));
    }

    @Test
    void missingOrNonNumericOperandsAndDivisionByZeroGiveNull() {
        Map<String, Object> row = mapOf("a", 7L, "s", "text", "z", 0L, "n", null);
        assertNull(compute(binary("+", field("a"), field("missing")), row));
        assertNull(compute(binary("+", field("a"), field("s")), row));
        assertNull(compute(binary("+", field("a"), field("n")), row));
        assertNull(compute(binary("/", field("a"), field("z")), row));
        assertTrue(apply("{\"type\": \"COMPUTATION\", \"newName\": \"r\", \"expression\": " + binary("/", field("a"), field("z")) + "}",
                         List.of(row)).get(0).containsKey("r"), "the column is present, with null");
    }

    @Test
    void numericStringFieldsAreReadAsNumbers() {
        assertEquals(12L, compute(binary("+", field("s"), value("2", null)), mapOf("s", "10")));
    }

    @Test
    void overflowFallsBackToDouble() {
        Object r = compute(binary("+", field("a"), value("1", null)), mapOf("a", Long.MAX_VALUE));
        assertEquals(9.223372036854775807e18, r);
    }

    @Test
    void computationReplacesAnExistingColumnAndLaterStepsSeeIt() {
        List<Map<String, Object>> out = apply(
                "{\"type\": \"COMPUTATION\", \"newName\": \"n\", \"expression\": " + binary("*", field("n"), value("10", null)) + "},"
                + "{\"type\": \"COMPUTATION\", \"newName\": \"m\", \"expression\": " + binary("+", field("n"), value("1", null)) + "}",
                List.of(mapOf("n", 2L)));
        assertEquals(mapOf("n", 20L, "m", 21L), out.get(0));
    }

    // ------------------------------------------------------------------------------------------- HAVING

    @Test
    void havingKeepsRowsMatchingTheClause() {
        List<Map<String, Object>> out = apply("{\"type\": \"HAVING\", \"filter\": {\"field\": \"n\", \"operation\": \">\", \"values\": [\"5\"]}}", ROWS);
        assertEquals(List.of("a", "d"), column(out, "name"));
    }

    @Test
    void havingTakesLogicalClauses() {
        List<Map<String, Object>> out = apply("{\"type\": \"HAVING\", \"filter\": {\"operation\": \"OR\", \"clauses\": ["
                                              + "{\"field\": \"name\", \"operation\": \"==\", \"values\": [\"b\"]},"
                                              + "{\"field\": \"x\", \"operation\": \"==\", \"values\": [null]}]}}", ROWS);
        assertEquals(List.of("b", "c", "d"), column(out, "name"));
    }

    @Test
    void stepsApplyInOrder() {
        String compute = "{\"type\": \"COMPUTATION\", \"newName\": \"double\", \"expression\": " + binary("*", field("n"), value("2", null)) + "}";
        String having = "{\"type\": \"HAVING\", \"filter\": {\"field\": \"double\", \"operation\": \">=\", \"values\": [\"14\"]}}";
        String order = "{\"type\": \"ORDERBY\", \"fields\": [\"double\"]}";
        List<Map<String, Object>> out = apply(compute + "," + having + "," + order, ROWS);
        assertEquals(List.of("d", "a"), column(out, "name"));
        assertEquals(List.of(14L, 20L), column(out, "double"));
        // HAVING before the computation sees no "double" column: nothing matches
        assertEquals(List.of(), apply(having + "," + compute, ROWS));
    }
}

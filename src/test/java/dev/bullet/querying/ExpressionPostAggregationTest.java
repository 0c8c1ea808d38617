package dev.bullet.querying;

import dev.bullet.common.BulletError;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.MapRecord;
import dev.bullet.testing.Queries;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bullet-core 1.5.2's post-aggregations over expressions (ORDERBY of sort items, COMPUTATION of named columns, HAVING
 * of a condition, CULLING): their JSON forms, their semantics on rows, and a result whose ORDERBY fails.
 */
class ExpressionPostAggregationTest {
    private static final long T0 = 1_000_000L;

    private static List<Map<String, Object>> apply(String postAggregations, List<Map<String, Object>> rows) {
        PostAggregator p = new PostAggregator(Queries.parse("{\"postAggregations\": [" + postAggregations + "]}").postAggregations());
        List<Map<String, Object>> copy = new ArrayList<>();
        rows.forEach(r -> copy.add(new LinkedHashMap<>(r)));
        return p.apply(copy, T0);
    }

    private static List<Object> column(List<Map<String, Object>> rows, String name) {
        List<Object> values = new ArrayList<>();
        rows.forEach(r -> values.add(r.get(name)));
        return values;
    }

    private static String sort(String... items) {
        return "{\"type\": \"ORDERBY\", \"fields\": [" + String.join(", ", items) + "]}";
    }

    private static String item(String expression, String direction) {
        return "{\"expression\": " + expression + ", \"direction\": \"" + direction + "\"}";
    }

    private static final List<Map<String, Object>> ROWS = List.of(
            mapOf("k", "b", "n", 2L, "x", 1.5),
            mapOf("k", "a", "n", 10L, "x", -0.5),
            mapOf("k", "c", "n", 2L),
            mapOf("k", "d", "n", 7L, "x", 3));

    @Test
    void sortByAnExpressionNullsFirstAscendingLastDescending() {
        String minusX = "{\"op\": \"*\", \"left\": {\"field\": \"x\"}, \"right\": {\"value\": -1, \"type\": \"INTEGER\"}}";
        assertEquals(List.of("c", "d", "b", "a"), column(apply(sort(item(minusX, "ASC")), ROWS), "k"));
        assertEquals(List.of("a", "b", "d", "c"), column(apply(sort(item(minusX, "DESC")), ROWS), "k"));
    }

    @Test
    void laterItemsBreakTiesAndTheSortIsStable() {
        List<Map<String, Object>> out = apply(sort(item("{\"field\": \"n\"}", "DESC"), item("{\"field\": \"k\"}", "DESC")), ROWS);
        assertEquals(List.of("a", "d", "c", "b"), column(out, "k"));
        List<Map<String, Object>> same = List.of(mapOf("v", 1L, "i", 0), mapOf("v", 1.0, "i", 1), mapOf("v", 0, "i", 2));
        assertEquals(List.of(2, 0, 1), column(apply(sort(item("{\"field\": \"v\"}", "ASC")), same), "i"));
    }

    @Test
    void aSortOverValuesBulletCoreCannotCompareFails() {
        List<Map<String, Object>> mixed = List.of(mapOf("v", 1L), mapOf("v", "one"));
        PostAggregator.Failure failure = assertThrows(PostAggregator.Failure.class,
                () -> apply(sort(item("{\"field\": \"v\"}", "ASC")), mixed));
        assertTrue(failure.getMessage().contains("cannot compare"), failure.getMessage());
        // one list among nulls is never compared; values that tie on an earlier key only are compared with each other
        apply(sort(item("{\"field\": \"v\"}", "ASC")), List.of(mapOf("v", List.of(1L)), mapOf("w", 1L)));
        apply(sort(item("{\"field\": \"g\"}", "ASC"), item("{\"field\": \"v\"}", "ASC")),
              List.of(mapOf("g", 1L, "v", 1L), mapOf("g", 2L, "v", "one")));
        assertThrows(PostAggregator.Failure.class, () -> apply(sort(item("{\"field\": \"g\"}", "ASC"), item("{\"field\": \"v\"}", "ASC")),
              List.of(mapOf("g", 1L, "v", 1L), mapOf("g", 1L, "v", "one"))));
    }

    @Test
    void aFailedSortGivesAResultWithoutRowsAndSaysWhy() {
        String json = "{\"aggregation\": {\"type\": \"RAW\", \"size\": 10}, \"postAggregations\": ["
                      + sort(item("{\"field\": \"v\"}", "ASC")) + "]}";
        QueryParser.Result parsed = new QueryParser(QuerySettings.defaults()).parse(json);
        assertTrue(parsed.isValid(), () -> parsed.errors().toString());
        FilterQuerier filter = new FilterQuerier("q", parsed.query(), T0, QuerySettings.defaults());
        JoinQuerier join = new JoinQuerier("q", parsed.query(), T0, QuerySettings.defaults(), 1, 0);
        filter.consume(new MapRecord(mapOf("v", 1L)), T0);
        filter.consume(new MapRecord(mapOf("v", "one")), T0);
        List<Result> early = join.combine(filter.takePartial(), true, T0);
        Result result = early.isEmpty() ? join.finish(T0 + 1) : early.get(0);
        assertTrue(result.records().isEmpty(), result.toJson());
        @SuppressWarnings("unchecked")
        List<BulletError> warnings = (List<BulletError>) result.meta().get("warnings");
        assertTrue(warnings.get(0).error().contains("ORDER BY cannot compare"), result.toJson());
        assertFalse(result.meta().containsKey("errors"), result.toJson());
    }

    @Test
    void computeEvaluatesEveryColumnOnTheRowAsItWasThenWritesTheValuesThatAreNotNull() {
        String compute = "{\"type\": \"COMPUTATION\", \"fields\": {"
                         + "\"n\": {\"op\": \"+\", \"left\": {\"field\": \"n\"}, \"right\": {\"value\": 1, \"type\": \"INTEGER\"}}, "
                         + "\"m\": {\"op\": \"*\", \"left\": {\"field\": \"n\"}, \"right\": {\"value\": 10, \"type\": \"INTEGER\"}}, "
                         + "\"x\": {\"op\": \"+\", \"left\": {\"field\": \"missing\"}, \"right\": {\"value\": 1, \"type\": \"INTEGER\"}}}}";
        Map<String, Object> row = apply(compute, List.of(mapOf("n", 2L, "x", "kept"))).get(0);
        assertEquals(3L, row.get("n"));
        assertEquals(20L, row.get("m"), "m reads n as it was before the step");
        assertEquals("kept", row.get("x"), "a null value writes nothing");
    }

    @Test
    void longDivisionStaysWholeAsInBulletCore() {
        String compute = "{\"type\": \"COMPUTATION\", \"fields\": {\"q\": {\"op\": \"/\", \"left\": {\"field\": \"n\"}, "
                         + "\"right\": {\"value\": 4, \"type\": \"INTEGER\"}}}}";
        assertEquals(2L, apply(compute, List.of(mapOf("n", 10L))).get(0).get("q"));
    }

    @Test
    void havingKeepsTheRowsWhoseConditionIsTrue() {
        String having = "{\"type\": \"HAVING\", \"expression\": {\"op\": \">\", \"left\": {\"field\": \"x\"}, "
                        + "\"right\": {\"value\": 0, \"type\": \"INTEGER\"}}}";
        assertEquals(List.of("b", "d"), column(apply(having, ROWS), "k"), "null and false drop the row");
        String count = "{\"type\": \"HAVING\", \"expression\": {\"field\": \"n\"}}";
        assertEquals(4, apply(count, ROWS).size(), "a number is TRUE when not 0");
        String text = "{\"type\": \"HAVING\", \"expression\": {\"field\": \"k\"}}";
        assertEquals(0, apply(text, ROWS).size(), "a string is TRUE only when it reads true");
    }

    @Test
    void cullingRemovesColumns() {
        List<Map<String, Object>> out = apply("{\"type\": \"CULLING\", \"fields\": [\"n\", \"nothing\"]}", ROWS);
        assertEquals(List.of(List.of("k", "x"), List.of("k", "x"), List.of("k"), List.of("k", "x")),
                     out.stream().map(r -> List.copyOf(r.keySet())).collect(Collectors.toList()));
    }

    @Test
    void malformedFormsAreReportedEach() {
        String json = "{\"postAggregations\": ["
                      + "{\"type\": \"ORDERBY\", \"fields\": [{\"expression\": {\"field\": \"a\"}, \"direction\": \"UP\"}]}, "
                      + "{\"type\": \"ORDERBY\", \"fields\": [{\"field\": \"a\"}]}, "
                      + "{\"type\": \"ORDERBY\", \"fields\": [{\"expression\": {\"field\": \"a\"}}], \"direction\": \"DESC\"}, "
                      + "{\"type\": \"COMPUTATION\", \"fields\": {}}, "
                      + "{\"type\": \"COMPUTATION\", \"fields\": {\"a\": {\"op\": \"NOPE\"}}}, "
                      + "{\"type\": \"COMPUTATION\", \"fields\": {\"a\": {\"field\": \"b\"}}, \"newName\": \"c\"}, "
                      + "{\"type\": \"HAVING\", \"expression\": {\"field\": \"a\"}, \"filter\": {\"field\": \"a\", \"operation\": \"==\", \"values\": [\"1\"]}}, "
                      + "{\"type\": \"HAVING\"}, "
                      + "{\"type\": \"CULLING\", \"fields\": []}, "
                      + "{\"type\": \"CULLING\", \"fields\": [5]}]}";
        QueryParser.Result parsed = new QueryParser(QuerySettings.defaults()).parse(json);
        assertFalse(parsed.isValid());
        List<String> errors = parsed.errors().stream().map(BulletError::error).toList();
        for (int i = 0; i < 10; i++) {
            String at = "postAggregations[" + i + "]";
            assertTrue(errors.stream().anyMatch(e -> e.startsWith(at)), at + " in " + errors);
        }
        assertTrue(parsed.errors().stream().allMatch(e -> !e.resolutions().isEmpty()));
    }

    @Test
    void theOriginalFormsKeepTheirMeaning() {
        assertEquals(List.of("b", "c", "d", "a"), column(apply("{\"type\": \"ORDERBY\", \"fields\": [\"n\"]}", ROWS), "k"));
        String division = "{\"type\": \"COMPUTATION\", \"newName\": \"q\", \"expression\": {\"operation\": \"/\", "
                          + "\"left\": {\"value\": {\"kind\": \"FIELD\", \"value\": \"n\"}}, "
                          + "\"right\": {\"value\": {\"kind\": \"VALUE\", \"value\": \"4\", \"type\": \"LONG\"}}}}";
        assertEquals(2.5, apply(division, List.of(mapOf("n", 10L))).get(0).get("q"));
    }
}

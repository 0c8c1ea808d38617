package dev.bullet.querying;

import dev.bullet.common.BulletError;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.MapRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The outer query ({@code "outerQuery"}): run by the Join side on the rows of each result of the inner query. */
class OuterQueryTest {
    private static final long T0 = 1_000_000L;
    private static final String COUNT_ALL = "{\"aggregation\": {\"type\": \"GROUP\", \"attributes\": "
                                            + "{\"operations\": [{\"type\": \"COUNT\", \"newName\": \"n\"}]}}}";
    private static final String GROUP_AB = "\"aggregation\": {\"type\": \"GROUP\", \"fields\": {\"a\": \"a\", \"b\": \"b\"}, "
                                           + "\"attributes\": {\"operations\": [{\"type\": \"COUNT\", \"newName\": \"c\"}]}}";

    private final QueryParser parser = new QueryParser(QuerySettings.defaults());

    private static List<Map<String, Object>> records() {
        List<Map<String, Object>> records = new ArrayList<>();
        String[][] ab = {{"x", "1"}, {"x", "1"}, {"x", "2"}, {"y", "1"}, {"y", "1"}, {"y", "1"}, {"z", "3"}};
        for (String[] r : ab) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("a", r[0]);
            m.put("b", r[1]);
            records.add(m);
        }
        return records;
    }

    /** One partition, every record at T0, then the end of the duration: the final result. */
    private Result run(String json) {
        QueryParser.Result parsed = parser.parse(json);
        assertTrue(parsed.isValid(), () -> parsed.errors().toString());
        FilterQuerier filter = new FilterQuerier("q", parsed.query(), T0, QuerySettings.defaults());
        JoinQuerier join = new JoinQuerier("q", parsed.query(), T0, QuerySettings.defaults(), 1, 0);
        for (Map<String, Object> record : records()) {
            if (!filter.isSatisfied()) {
                filter.consume(new MapRecord(record), T0);
            }
        }
        List<Result> out = join.combine(filter.takePartial(), true, T0);
        return out.isEmpty() ? join.finish(T0 + 1) : out.get(0);
    }

    private List<String> errors(String json) {
        return parser.parse(json).errors().stream().map(BulletError::error).collect(Collectors.toList());
    }

    @Test
    void countsTheRowsOfARawInnerQuery() {
        Result r = run("{\"aggregation\": {\"type\": \"RAW\", \"size\": 5}, \"outerQuery\": " + COUNT_ALL + "}");
        assertEquals(List.of(Map.of("n", 5L)), r.records());
        assertTrue(r.isFinal());
    }

    @Test
    void groupsTheRowsOfAGroupedInnerQuery() {
        Result r = run("{" + GROUP_AB + ", \"outerQuery\": {\"aggregation\": {\"type\": \"GROUP\", \"fields\": {\"a\": \"a\"},"
                       + " \"attributes\": {\"operations\": [{\"type\": \"SUM\", \"field\": \"c\", \"newName\": \"s\"},"
                       + " {\"type\": \"COUNT\", \"newName\": \"k\"}]}}}}");
        Map<Object, Map<String, Object>> byA = new LinkedHashMap<>();
        r.records().forEach(row -> byA.put(row.get("a"), row));
        assertEquals(3, byA.size());
        assertEquals(3.0, ((Number) byA.get("x").get("s")).doubleValue());
        assertEquals(2L, byA.get("x").get("k"));
        assertEquals(3.0, ((Number) byA.get("y").get("s")).doubleValue());
        assertEquals(1L, byA.get("y").get("k"));
        assertEquals(1.0, ((Number) byA.get("z").get("s")).doubleValue());
    }

    @Test
    void filtersAndLimitsTheRowsOfAGroupedInnerQuery() {
        Result r = run("{" + GROUP_AB + ", \"outerQuery\": {\"filters\": [{\"field\": \"c\", \"operation\": \">=\","
                       + " \"values\": [\"2\"]}], \"aggregation\": {\"type\": \"RAW\", \"size\": 1}}}");
        assertEquals(1, r.records().size());
        assertTrue(((Number) r.records().get(0).get("c")).longValue() >= 2);
        Result all = run("{" + GROUP_AB + ", \"outerQuery\": {\"filters\": [{\"field\": \"c\", \"operation\": \">=\","
                         + " \"values\": [\"2\"]}], \"aggregation\": {\"type\": \"RAW\", \"size\": 10}}}");
        assertEquals(2, all.records().size());
    }

    @Test
    void theMetadataIsTheInnerQuerysWithItsWindowAndSketchesUnderInnerQuery() {
        Result r = run("{\"aggregation\": {\"type\": \"COUNT DISTINCT\", \"fields\": {\"a\": \"a\"}},"
                       + " \"outerQuery\": {\"aggregation\": {\"type\": \"RAW\", \"size\": 10}}}");
        assertEquals(1, r.records().size());
        assertEquals(3.0, ((Number) r.records().get(0).get("COUNT DISTINCT")).doubleValue());
        assertEquals("q", r.meta().get("query_id"));
        assertTrue(r.meta().containsKey("query_finish_time"));
        assertFalse(r.meta().containsKey("sketches"));
        @SuppressWarnings("unchecked")
        Map<String, Object> inner = (Map<String, Object>) r.meta().get("inner_query");
        assertTrue(inner.containsKey("sketches"), inner::toString);
    }

    @Test
    void runsOnEveryWindowOfTheInnerQuery() {
        QueryParser.Result parsed = parser.parse("{\"aggregation\": {\"type\": \"RAW\", \"size\": 100},"
                + " \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}}, \"duration\": 3000,"
                + " \"outerQuery\": " + COUNT_ALL + "}");
        assertTrue(parsed.isValid(), () -> parsed.errors().toString());
        FilterQuerier filter = new FilterQuerier("q", parsed.query(), T0, QuerySettings.defaults());
        JoinQuerier join = new JoinQuerier("q", parsed.query(), T0, QuerySettings.defaults(), 1, 0);
        List<Result> out = new ArrayList<>();
        List<Map<String, Object>> records = records();
        for (int i = 0; i < 3; i++) {
            filter.consume(new MapRecord(records.get(i)), T0 + 10);
        }
        out.addAll(join.combine(filter.takePartial(), false, T0 + 10));
        out.addAll(join.tick(T0 + 1000));
        filter.consume(new MapRecord(records.get(3)), T0 + 1500);
        out.addAll(join.combine(filter.takePartial(), true, T0 + 1500));
        out.addAll(join.tick(T0 + 3000));
        List<Object> counts = out.stream().map(r -> r.records().get(0).get("n")).collect(Collectors.toList());
        assertEquals(List.of(3L, 1L, 0L), counts);
        @SuppressWarnings("unchecked")
        Map<String, Object> inner = (Map<String, Object>) out.get(1).meta().get("inner_query");
        @SuppressWarnings("unchecked")
        Map<String, Object> window = (Map<String, Object>) inner.get("window");
        assertEquals(2, window.get("number"));
        assertNull(out.get(1).meta().get("window"));
    }

    @Test
    void anOuterQueryHasNoWindowDurationOrOuterQueryOfItsOwn() {
        List<String> errors = errors("{\"outerQuery\": {\"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}},"
                                     + " \"duration\": 5, \"outerQuery\": {}, \"bogus\": 1,"
                                     + " \"aggregation\": {\"type\": \"NOPE\"}}}");
        assertEquals(5, errors.size(), errors::toString);
        assertTrue(errors.stream().allMatch(e -> e.startsWith("outerQuery: ")), errors::toString);
        assertTrue(errors.contains("outerQuery: An outer query cannot have \"outerQuery\""), errors::toString);
        assertEquals(1, errors("{\"outerQuery\": 3}").size());
        assertTrue(parser.parse("{\"outerQuery\": {}}").isValid());
    }
}

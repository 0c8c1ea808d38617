package dev.bullet.querying;

import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.aggregations.RawAggregator;
import dev.bullet.record.MapRecord;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Table functions (LATERAL VIEW and EXPLODE, bullet-core 1.5.2's) through the Filter engine, index on: each record
 * becomes the records the function generates before the clauses, expression filters, projection and aggregation, so
 * a clause may name an alias (the index must not decide it on the record) or a field of the record.
 */
class LateralViewQueryTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final QuerySettings SETTINGS = QuerySettings.defaults();
    private static final String TAGS = "{\"explode\":{\"field\":\"tags\"},\"keyAlias\":\"tag\"}";
    private static final String OUTER_TAGS = "{\"explode\":{\"field\":\"tags\"},\"keyAlias\":\"tag\",\"outer\":true}";
    private static final String MAP = "{\"explode\":{\"field\":\"m\"},\"keyAlias\":\"k\",\"valueAlias\":\"v\"}";
    private static final String OUTER_MAP = "{\"explode\":{\"field\":\"m\"},\"keyAlias\":\"k\",\"valueAlias\":\"v\","
                                            + "\"outer\":true}";
    private static final String ID_TAG = "{\"fields\":{\"id\":\"id\",\"tag\":\"tag\"}}";
    private static final String ID_K_V = "{\"fields\":{\"id\":\"id\",\"k\":\"k\",\"v\":\"v\"}}";

    /** A list and a map; empty ones; missing ones; a null in the list and in the map; neither a list nor a map. */
    private final List<Record> records = records(
            "{\"id\":0,\"kind\":\"a\",\"tags\":[\"x\",\"y\"],\"m\":{\"p\":1,\"q\":2}}",
            "{\"id\":1,\"kind\":\"b\",\"tags\":[],\"m\":{}}",
            "{\"id\":2,\"kind\":\"a\"}",
            "{\"id\":3,\"kind\":\"b\",\"tags\":[\"z\",null],\"m\":{\"p\":null}}",
            "{\"id\":4,\"kind\":\"a\",\"tags\":\"x\",\"m\":5}");

    @Test
    void aListExplodesIntoOneRecordPerElement() {
        assertEquals(List.of("0:x", "0:y", "3:z", "3:-"), rows(lateral(null, ID_TAG, TAGS), "id", "tag"));
        assertEquals(List.of("0:x", "0:y", "1:-", "2:-", "3:z", "3:-", "4:-"),
                     rows(lateral(null, ID_TAG, OUTER_TAGS), "id", "tag"));
    }

    @Test
    void aMapExplodesIntoOneRecordPerEntry() {
        assertEquals(List.of("0:p:1", "0:q:2", "3:p:-"), rows(lateral(null, ID_K_V, MAP), "id", "k", "v"));
        assertEquals(List.of("0:p:1", "0:q:2", "1:-:-", "2:-:-", "3:p:-", "4:-:-"),
                     rows(lateral(null, ID_K_V, OUTER_MAP), "id", "k", "v"));
        assertEquals(List.of(), rows(lateral(null, ID_K_V, MAP.replace("\"m\"", "\"tags\"")), "id", "k"),
                     "a list exploded as a map gives nothing");
    }

    @Test
    void chainedViewsExplodeTheRecordsTheFirstGenerated() {
        String both = TAGS + "," + MAP;
        assertEquals(List.of("0:x:p:1", "0:x:q:2", "0:y:p:1", "0:y:q:2", "3:z:p:-", "3:-:p:-"),
                     rows(lateral(null, "{\"fields\":{\"id\":\"id\",\"tag\":\"tag\",\"k\":\"k\",\"v\":\"v\"}}", both),
                          "id", "tag", "k", "v"));
    }

    @Test
    void clausesAndExpressionsSeeTheAliasesAndTheRecordsFields() {
        String onAlias = "{\"field\":\"tag\",\"operation\":\"==\",\"values\":[\"y\"]}";
        assertEquals(List.of("0:y"), rows(lateral(onAlias, ID_TAG, TAGS), "id", "tag"));
        String onBase = "{\"field\":\"kind\",\"operation\":\"==\",\"values\":[\"b\"]}";
        assertEquals(List.of("1:-", "3:z", "3:-"), rows(lateral(onBase, ID_TAG, OUTER_TAGS), "id", "tag"));
        String both = "{\"operation\":\"AND\",\"clauses\":[" + onBase + ","
                      + "{\"field\":\"tag\",\"operation\":\"==\",\"values\":[\"z\"]}]}";
        assertEquals(List.of("3:z"), rows(lateral(both, ID_TAG, OUTER_TAGS), "id", "tag"));
        String missingAlias = "{\"expression\":{\"op\":\"IS NULL\",\"operand\":{\"field\":\"tag\"}}}";
        assertEquals(List.of("1:-", "2:-", "3:-", "4:-"), rows(lateral(missingAlias, ID_TAG, OUTER_TAGS), "id", "tag"));
        String expression = "{\"expression\":{\"op\":\"=\",\"left\":{\"field\":\"v\"},"
                            + "\"right\":{\"value\":2,\"type\":\"LONG\"}}}";
        assertEquals(List.of("0:q:2"), rows(lateral(expression, ID_K_V, MAP), "id", "k", "v"));
    }

    @Test
    void aRawRowHoldsTheRecordsFieldsAndTheAliases() {
        List<Map<String, Object>> rows = engineRows(lateral(null, null, TAGS));
        assertEquals(4, rows.size());
        Map<String, Object> first = rows.get(0);
        assertEquals("x", first.get("tag"));
        assertEquals(List.of("x", "y"), first.get("tags"));
        assertEquals("a", first.get("kind"));
        assertEquals(Map.of("p", 1L, "q", 2L), numbersAsLong(first.get("m")));
        assertFalse(rows.get(3).containsKey("tag"), "a null element: no alias");
        String shadow = "{\"explode\":{\"field\":\"tags\"},\"keyAlias\":\"kind\"}";
        assertEquals(List.of("0:x", "0:y", "3:z", "3:b"), rows(lateral(null, null, shadow), "id", "kind"),
                     "the alias wins over the record's field; a null element leaves the record's field visible");
    }

    @Test
    void explodeInSelectGivesTheAliasesOnly() {
        String query = "{\"tableFunction\":" + TAGS + ",\"aggregation\":{\"type\":\"RAW\",\"size\":100}}";
        List<Map<String, Object>> rows = engineRows(query);
        assertEquals(List.of(Map.of("tag", "x"), Map.of("tag", "y"), Map.of("tag", "z"), Map.of()), rows);
    }

    @Test
    void identicalQueriesAreKeptApartByTheirTableFunctions() {
        String group = ",\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}}}";
        FilterEngine engine = new FilterEngine(SETTINGS);
        assertTrue(engine.add("a", "{\"lateralView\":[" + TAGS + "]" + group, T0));
        assertTrue(engine.add("a2", "{\"lateralView\":[" + TAGS + "]" + group, T0));
        assertEquals(1, engine.evaluators());
        assertTrue(engine.add("b", "{\"lateralView\":[" + OUTER_TAGS + "]" + group, T0));
        assertTrue(engine.add("c", "{\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":"
                                   + "[{\"type\":\"COUNT\"}]}}}", T0));
        assertEquals(3, engine.evaluators());
    }

    @Test
    void aTableFunctionThatWouldGenerateTooManyRecordsEndsItsQueriesAndNoOther() {
        StringBuilder pair = new StringBuilder();
        StringBuilder hundred = new StringBuilder();
        for (int i = 0; i <= 100; i++) { // 101 elements: 10,201 records from two explodes of them
            hundred.append(i == 0 ? "" : ",").append(i);
        }
        for (int i = 1; i <= 24; i++) { // 2^24 records from each record, were it not bounded
            pair.append(i == 1 ? "" : ",").append("{\"explode\":{\"field\":\"two\"},\"keyAlias\":\"x").append(i).append("\"}");
        }
        String hundredTwice = "{\"explode\":{\"field\":\"hundred\"},\"keyAlias\":\"a\"},"
                              + "{\"explode\":{\"field\":\"hundred\"},\"keyAlias\":\"b\"}";
        String count = ",\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}},"
                       + "\"duration\":100000}";
        FilterEngine engine = new FilterEngine(SETTINGS);
        assertTrue(engine.add("chain", "{\"lateralView\":[" + pair + "]" + count, T0));
        assertTrue(engine.add("chain2", "{\"lateralView\":[" + pair + "]" + count, T0)); // shares the evaluator
        assertTrue(engine.add("square", "{\"lateralView\":[" + hundredTwice + "],\"aggregation\":{\"type\":\"RAW\","
                                        + "\"size\":5},\"duration\":100000}", T0));
        assertTrue(engine.add("fine", "{\"lateralView\":[" + TAGS + "]" + count, T0));
        List<FilterEngine.Partial> out = new ArrayList<>();
        engine.consume(records("{\"id\":0,\"tags\":[\"x\"],\"two\":[1,2],\"hundred\":[" + hundred + "]}",
                               "{\"id\":1,\"tags\":[\"y\",\"z\"]}"), T0 + 1, out);
        engine.tick(T0 + 2, out);
        Map<String, Object> failures = new LinkedHashMap<>();
        for (FilterEngine.Partial p : out) {
            if (p.payload() instanceof FilterFailure) {
                failures.put(p.id(), p.payload());
            }
        }
        assertEquals(List.of("chain", "chain2", "square"), new ArrayList<>(failures.keySet()).stream().sorted().toList());
        FilterEngine.Partial fine = out.stream().filter(p -> p.id().equals("fine")).findFirst().orElseThrow();
        JoinQuerier join = new JoinQuerier("fine", new QueryParser(SETTINGS).parse("{\"lateralView\":[" + TAGS + "]" + count)
                                                     .query(), T0, SETTINGS, 1, 0);
        assertEquals(List.of(), join.combine(fine.payload(), true, 0, T0 + 3));
        assertEquals(3L, ((Number) join.finish(T0 + 3).records().get(0).get("COUNT")).longValue(), "the others go on");

        JoinQuerier ended = new JoinQuerier("chain", new QueryParser(SETTINGS).parse("{\"lateralView\":[" + pair + "]"
                                                                                    + count).query(), T0, SETTINGS, 1, 0);
        List<Result> results = ended.combine(failures.get("chain"), false, 0, T0 + 3);
        assertEquals(1, results.size());
        assertTrue(results.get(0).isFinal());
        assertTrue(results.get(0).meta().get("errors").toString().contains("more than " + TableFunctor.MAX_GENERATED),
                   results.get(0).meta().toString());
        List<FilterEngine.Partial> later = new ArrayList<>();
        engine.consume(records("{\"id\":2,\"two\":[1,2],\"hundred\":[1,2]}"), T0 + 4, later);
        assertTrue(later.stream().noneMatch(p -> p.id().startsWith("chain") || p.id().equals("square")),
                   "an ended query takes no more records: " + later);
    }

    @Test
    void aTableFunctionIsValidatedWithEveryProblem() {
        QueryParser parser = new QueryParser(SETTINGS);
        QueryParser.Result r = parser.parse("{\"lateralView\":[{\"explode\":{\"op\":\"nope\"},\"keyAlias\":\"\","
                                            + "\"outer\":1,\"extra\":2},{\"keyAlias\":\"k\",\"valueAlias\":\"k\","
                                            + "\"explode\":{\"field\":\"m\"}},3]}");
        assertFalse(r.isValid());
        assertEquals(6, r.errors().size(), r.errors().toString());
        assertFalse(parser.parse("{\"lateralView\":[]}").isValid());
        assertFalse(parser.parse("{\"lateralView\":" + TAGS + "}").isValid());
        assertFalse(parser.parse("{\"lateralView\":[" + TAGS + "],\"tableFunction\":" + TAGS + "}").isValid());
        assertTrue(parser.parse("{\"lateralView\":[" + TAGS + "," + OUTER_MAP + "]}").isValid());
        assertTrue(parser.parse("{\"tableFunction\":" + MAP + "}").isValid());
    }

    private static String lateral(String filter, String projection, String explodes) {
        return "{" + (filter == null ? "" : "\"filters\":[" + filter + "],")
               + (projection == null ? "" : "\"projection\":" + projection + ",")
               + "\"lateralView\":[" + explodes + "],\"aggregation\":{\"type\":\"RAW\",\"size\":1000},"
               + "\"duration\":100000}";
    }

    /** Each row as its values at {@code keys} joined by ':', "-" where absent, numbers as whole numbers. */
    private List<String> rows(String query, String... keys) {
        List<String> out = new ArrayList<>();
        for (Map<String, Object> row : engineRows(query)) {
            List<String> values = new ArrayList<>();
            for (String key : keys) {
                Object v = row.get(key);
                values.add(v == null ? "-" : v instanceof Number n ? String.valueOf(n.longValue()) : v.toString());
            }
            out.add(String.join(":", values));
        }
        return out;
    }

    private List<Map<String, Object>> engineRows(String query) {
        FilterEngine engine = new FilterEngine(SETTINGS);
        assertTrue(engine.add("q", query, T0), () -> new QueryParser(SETTINGS).parse(query).errors().toString());
        List<FilterEngine.Partial> out = new ArrayList<>();
        engine.consume(records, T0 + 1, out);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (FilterEngine.Partial p : out) {
            rows.addAll(RawAggregator.decode(p.data()));
        }
        return rows;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> numbersAsLong(Object map) {
        Map<String, Object> out = new LinkedHashMap<>();
        ((Map<String, Object>) map).forEach((k, v) -> out.put(k, v instanceof Number n ? (Object) n.longValue() : v));
        return out;
    }

    private static List<Record> records(String... json) {
        RecordDecoder decoder = new RecordDecoder(SETTINGS.limits());
        List<Record> out = new ArrayList<>();
        for (int i = 0; i < json.length; i++) {
            Record record = decoder.decode(json[i].getBytes(StandardCharsets.UTF_8));
            out.add(i % 2 == 0 ? record : new MapRecord(record.asMap()));
        }
        return out;
    }
}

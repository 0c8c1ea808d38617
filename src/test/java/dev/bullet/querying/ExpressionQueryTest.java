package dev.bullet.querying;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.bullet.common.Clock;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.query.expr.ExprParser;
import dev.bullet.querying.aggregations.RawAggregator;
import dev.bullet.querying.eval.Evaluator;
import dev.bullet.querying.eval.Evaluators;
import dev.bullet.record.MapRecord;
import dev.bullet.record.Record;
import dev.bullet.record.JsonCodec;
import dev.bullet.record.RecordDecoder;
import dev.bullet.tools.OfflineRunner;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Expression filters ({@code {"expression": ...}} in {@code filters}) and computed columns
 * ({@code projection.computed}) through the Filter engine, index on: a record is kept exactly when its clauses match
 * and every expression is TRUE, whether the index decides the clauses, hands the query out to be tested, or holds it
 * as a match-everything query; a row holds the projected fields and the computed values that are neither null nor
 * failed. The expected rows come from the evaluators alone (tested against bullet-core).
 */
class ExpressionQueryTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final QuerySettings SETTINGS = QuerySettings.defaults();
    /** Expression filters over the records below: arithmetic, casts, functions, three-valued logic, failures. */
    private static final String[] EXPRESSIONS = {
        "{\"op\":\">\",\"left\":{\"op\":\"+\",\"left\":{\"field\":\"n\"},\"right\":{\"field\":\"m\"}},"
            + "\"right\":{\"value\":10,\"type\":\"INTEGER\"}}",
        "{\"op\":\"=\",\"left\":{\"op\":\"%\",\"left\":{\"field\":\"n\"},\"right\":{\"value\":3,\"type\":\"LONG\"}},"
            + "\"right\":{\"value\":0,\"type\":\"LONG\"}}",
        "{\"op\":\">\",\"left\":{\"cast\":{\"field\":\"s\"},\"type\":\"DOUBLE\"},\"right\":{\"value\":2.5,\"type\":\"DOUBLE\"}}",
        "{\"op\":\"NOT\",\"operand\":{\"op\":\"IS NULL\",\"operand\":{\"field\":\"m\"}}}",
        "{\"op\":\"=\",\"left\":{\"op\":\"LOWER\",\"operand\":{\"field\":\"kind\"}},"
            + "\"right\":{\"value\":\"alpha\",\"type\":\"STRING\"}}",
        "{\"op\":\"OR\",\"left\":{\"op\":\"<\",\"left\":{\"field\":\"m\"},\"right\":{\"value\":3,\"type\":\"LONG\"}},"
            + "\"right\":{\"op\":\"=\",\"left\":{\"field\":\"kind\"},\"right\":{\"value\":\"beta\",\"type\":\"STRING\"}}}",
        "{\"op\":\">\",\"left\":{\"field\":\"s\"},\"right\":{\"value\":2,\"type\":\"INTEGER\"}}",
    };
    /** Clauses ANDed with them: one the index decides, one it narrows with, none at all. */
    private static final String[] CLAUSES = {
        "{\"field\":\"kind\",\"operation\":\"==\",\"values\":[\"alpha\"]}",
        "{\"field\":\"n\",\"operation\":\">=\",\"values\":[\"5\"]}",
        "{\"field\":\"tag\",\"operation\":\"RLIKE\",\"values\":[\"t[0-3]\"]}",
        null,
    };
    private static final String COMPUTED = "{\"twice\":{\"op\":\"*\",\"left\":{\"field\":\"n\"},"
                                           + "\"right\":{\"value\":2,\"type\":\"LONG\"}},"
                                           + "\"up\":{\"op\":\"UPPER\",\"operand\":{\"field\":\"kind\"}},"
                                           + "\"ratio\":{\"op\":\"/\",\"left\":{\"field\":\"n\"},\"right\":{\"field\":\"m\"}}}";

    private final List<Record> records = records(new Random(7), 400);

    @Test
    void aRecordIsKeptExactlyWhenItsClausesMatchAndEveryExpressionIsTrue() {
        int checked = 0;
        for (String expression : EXPRESSIONS) {
            for (String clause : CLAUSES) {
                String query = query(clause, expression, "{\"fields\":{\"id\":\"id\"},\"computed\":" + COMPUTED + "}");
                assertEquals(expected(clause, expression), engineRows(query), query);
                checked++;
            }
        }
        assertEquals(EXPRESSIONS.length * CLAUSES.length, checked);
    }

    @Test
    void identicalQueriesAreKeptApartByTheirExpressions() {
        String a = "{\"filters\":[{\"expression\":" + EXPRESSIONS[0] + "}],"
                   + "\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}}}";
        String b = a.replace("\"value\":10", "\"value\":1000");
        FilterEngine engine = new FilterEngine(SETTINGS);
        assertTrue(engine.add("a", a, T0));
        assertTrue(engine.add("a2", a, T0));
        assertEquals(1, engine.evaluators(), "the same expression: one evaluation");
        assertTrue(engine.add("b", b, T0));
        assertEquals(2, engine.evaluators(), "another expression: its own evaluation");
    }

    /** A GROUP over computed columns: projected first, then aggregated, as bullet-core does (filter, projection, GROUP). */
    @Test
    void aGroupAggregatesItsComputedColumns() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            lines.add("{\"n\":" + i + "}");
        }
        lines.add("{\"x\":1}");
        lines.add("{\"n\":null}");
        lines.add("{\"n\":\"7\"}");
        List<Result> results = new ArrayList<>();
        new OfflineRunner(SETTINGS, Clock.SYSTEM).run(GROUP_OVER_COMPUTED, new BufferedReader(new StringReader(String.join("\n", lines))),
                                                       results::add, new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"));
        Map<String, Object> last = JsonCodec.parseMap(results.get(results.size() - 1).toJson());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows = (List<Map<String, Object>>) last.get("records");
        Map<String, String> byGroup = new HashMap<>();
        rows.forEach(r -> byGroup.put(String.valueOf(r.get("r")), r.get("c") + "/" + r.get("s")));
        // n % 3 over 0..29: ten each, summing 2n; no n, a null n and a string n ("7" % 3 fails) make the null group
        assertEquals(Map.of("0", "10/270", "1", "10/290", "2", "10/310", "null", "3/null"), byGroup, rows.toString());
    }

    @Test
    void groupsThatDifferInAComputedColumnDoNotShare() {
        String b = GROUP_OVER_COMPUTED.replace("\"value\":3,", "\"value\":4,");
        FilterEngine engine = new FilterEngine(SETTINGS);
        assertTrue(engine.add("a", GROUP_OVER_COMPUTED, T0));
        assertTrue(engine.add("a2", GROUP_OVER_COMPUTED, T0));
        assertEquals(1, engine.evaluators(), "the same computed columns: one evaluation");
        assertTrue(engine.add("b", b, T0));
        assertEquals(2, engine.evaluators(), "another computed column: its own evaluation");
    }

    private static final String GROUP_OVER_COMPUTED = "{\"projection\":{\"computed\":{"
            + "\"r\":{\"op\":\"%\",\"left\":{\"field\":\"n\"},\"right\":{\"value\":3,\"type\":\"LONG\"}},"
            + "\"twice\":{\"op\":\"*\",\"left\":{\"field\":\"n\"},\"right\":{\"value\":2,\"type\":\"LONG\"}}}},"
            + "\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"r\":\"r\"},\"attributes\":{\"operations\":["
            + "{\"type\":\"COUNT\",\"newName\":\"c\"},{\"type\":\"SUM\",\"field\":\"twice\",\"newName\":\"s\"}]}},"
            + "\"duration\":100000}";

    @Test
    void onlyComputedColumnsProjectOnlyThem() {
        String query = query(null, null, "{\"computed\":{\"five\":{\"value\":5,\"type\":\"INTEGER\"}}}");
        List<Map<String, Object>> rows = engineRows(query);
        assertEquals(records.size(), rows.size());
        assertTrue(rows.stream().allMatch(r -> r.equals(Map.of("five", 5.0))), rows.get(0).toString());
    }

    @Test
    void anExpressionFilterIsValidatedWithEveryProblem() {
        QueryParser parser = new QueryParser(SETTINGS);
        QueryParser.Result r = parser.parse("{\"filters\":[{\"expression\":{\"op\":\"IF\",\"operands\":[]}},"
                                            + "{\"expression\":{\"field\":\"\"},\"extra\":1}],"
                                            + "\"projection\":{\"computed\":{\"x\":{\"op\":\"nope\"}}}}");
        assertFalse(r.isValid());
        assertTrue(r.errors().size() >= 3, r.errors().toString());
        StringBuilder deep = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            deep.append("{\"op\":\"NOT\",\"operand\":");
        }
        deep.append("{\"field\":\"a\"}").append("}".repeat(100_000));
        assertFalse(parser.parse("{\"filters\":[{\"expression\":" + deep + "}]}").isValid());
    }

    private static String query(String clause, String expression, String projection) {
        List<String> filters = new ArrayList<>();
        if (clause != null) {
            filters.add(clause);
        }
        if (expression != null) {
            filters.add("{\"expression\":" + expression + "}");
        }
        return "{\"filters\":[" + String.join(",", filters) + "],\"projection\":" + projection
               + ",\"aggregation\":{\"type\":\"RAW\",\"size\":100000},\"duration\":100000}";
    }

    private List<Map<String, Object>> engineRows(String query) {
        FilterEngine engine = new FilterEngine(SETTINGS);
        assertTrue(engine.add("q", query, T0), query);
        List<FilterEngine.Partial> out = new ArrayList<>();
        for (int from = 0; from < records.size(); from += 100) {
            engine.consume(records.subList(from, Math.min(records.size(), from + 100)), T0 + 1, out);
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        for (FilterEngine.Partial p : out) {
            rows.addAll(normalized(RawAggregator.decode(p.data())));
        }
        return rows;
    }

    /** The rows the query must give, from the evaluators and the legacy predicate alone. */
    private List<Map<String, Object>> expected(String clause, String expression) {
        Evaluator filter = expression == null ? null : compile(expression);
        RecordPredicate predicate = clause == null ? r -> true
                : Predicates.compile(new QueryParser(SETTINGS).parse("{\"filters\":[" + clause + "]}").query().filter());
        JsonObject computed = JsonParser.parseString(COMPUTED).getAsJsonObject();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Record record : records) {
            if (!predicate.test(record) || filter != null && !Evaluators.matches(filter.evaluate(record))) {
                continue;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            if (record.asMap().containsKey("id")) {
                row.put("id", record.asMap().get("id"));
            }
            for (String name : computed.keySet()) {
                Object value = Evaluators.projected(compile(computed.get(name).toString()).evaluate(record));
                if (value != null) {
                    row.put(name, value);
                }
            }
            rows.add(row);
        }
        return normalized(rows);
    }

    private static Evaluator compile(String json) {
        ExprParser.Result parsed = ExprParser.parse(json, SETTINGS.limits());
        assertTrue(parsed.ok(), parsed.errors().toString());
        Clock clock = () -> T0;
        return Evaluators.compile(parsed.expr(), clock, SETTINGS.limits());
    }

    /** Rows as JSON would carry them: numbers compared by value. */
    private static List<Map<String, Object>> normalized(List<Map<String, Object>> rows) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map<String, Object> row : rows) {
            Map<String, Object> n = new LinkedHashMap<>();
            row.forEach((k, v) -> n.put(k, v instanceof Number number ? (Object) number.doubleValue() : v));
            out.add(n);
        }
        return out;
    }

    private static List<Record> records(Random random, int count) {
        String[] kinds = {"alpha", "Alpha", "beta", "gamma"};
        String[] strings = {"1", "2.5", "3", " 4 ", "x", "7e0"};
        RecordDecoder decoder = new RecordDecoder(SETTINGS.limits());
        List<Record> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            JsonObject o = new JsonObject();
            o.addProperty("id", i);
            o.addProperty("n", random.nextInt(12));
            if (random.nextInt(4) > 0) {
                o.addProperty("m", random.nextInt(6));
            } else if (random.nextBoolean()) {
                o.add("m", null);
            }
            o.addProperty("kind", kinds[random.nextInt(kinds.length)]);
            o.addProperty("s", strings[random.nextInt(strings.length)]);
            o.addProperty("tag", "t" + random.nextInt(8));
            JsonArray list = new JsonArray();
            list.add(random.nextInt(3));
            o.add("l", list);
            Record record = decoder.decode(o.toString().getBytes(StandardCharsets.UTF_8));
            out.add(i % 2 == 0 ? record : new MapRecord(record.asMap()));
        }
        return out;
    }
}

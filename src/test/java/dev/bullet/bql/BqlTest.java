package dev.bullet.bql;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.bullet.common.BulletError;
import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** BQL into the JSON model: the invalid-BQL catalogue (with positions) and the mapping rules that golden files do not show. */
class BqlTest {
    private final QueryParser parser = new QueryParser(QuerySettings.defaults());

    /** The catalogue in {@code bql/invalid-catalogue.txt}: every entry fails with its message and a resolution. */
    @TestFactory
    Stream<DynamicTest> invalidCatalogue() throws IOException {
        List<String[]> entries = new ArrayList<>();
        try (InputStream in = BqlTest.class.getResourceAsStream("/bql/invalid-catalogue.txt")) {
            assertNotNull(in, "the catalogue on the test classpath");
            String query = null;
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                if (line.startsWith("=> ")) {
                    entries.add(new String[] {query, line.substring(3)});
                    query = null;
                } else {
                    query = line.replace("\\n", "\n");
                }
            }
        }
        assertTrue(entries.size() >= 40, "about 50 entries, found " + entries.size());
        return entries.stream().map(e -> DynamicTest.dynamicTest(e[0].replace("\n", " / "), () -> {
            QueryParser.Result result = parser.parse(e[0]);
            assertFalse(result.isValid(), "should be invalid: " + e[0]);
            List<BulletError> errors = result.errors();
            assertTrue(errors.stream().anyMatch(x -> x.error().contains(e[1])), "'" + e[1] + "' in " + errors);
            errors.forEach(x -> assertFalse(x.resolutions().isEmpty(), "a resolution for " + x));
        }));
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        QueryParser.Result result = parser.parse("SELECT * FROM STREAM(0, TIME) WHERE IF(5, 1, 2) = 1 AND SUBSTR(b) = 'x' LIMIT 0");
        assertEquals(4, result.errors().size(), result.errors().toString());
    }

    @Test
    void seedQueryInBqlBecomesTheSeedQueryJson() {
        Bql.Translation t = Bql.translate("SELECT * FROM STREAM(30000, TIME) WHERE id = 'c39ba8cfe8' LIMIT 10");
        assertEquals(JsonParser.parseString("{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"c39ba8cfe8\"]}],"
                                            + "\"aggregation\":{\"type\":\"RAW\",\"size\":10},\"duration\":30000}"), t.query());
    }

    @Test
    void keywordsAreCaseInsensitiveAndNamesKeepTheirCase() {
        JsonObject q = Bql.translate("select Id as \"the id\", count from stream() where Id == 'x' limit 1;").query();
        assertEquals("{\"Id\":\"the id\",\"count\":\"count\"}", q.getAsJsonObject("projection").get("fields").toString());
        assertEquals("Id", q.getAsJsonArray("filters").get(0).getAsJsonObject().get("field").getAsString());
    }

    /**
     * A SELECT or GROUP BY of 100,000 columns (a body under the REST service's 1 MiB) translates in linear time: each
     * item's alias and each column's name were looked up among all the others, 17 s for 60,000 grouped columns.
     */
    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void aWideSelectTranslatesInLinearTime() {
        int n = 100_000;
        StringBuilder select = new StringBuilder("SELECT ");
        StringBuilder grouped = new StringBuilder("SELECT ");
        StringBuilder by = new StringBuilder(" FROM STREAM() GROUP BY ");
        for (int i = 0; i < n; i++) {
            select.append(i > 0 ? "," : "").append('a').append(i).append(i % 3 == 0 ? " AS b" + i : "");
            grouped.append('a').append(i).append(", ");
            by.append(i > 0 ? "," : "").append('a').append(i);
        }
        assertTrue(Bql.translate(select.append(" FROM STREAM()").toString()).isValid());
        Bql.Translation group = Bql.translate(grouped.append("COUNT(*)").append(by).toString());
        assertTrue(group.isValid(), group.errors().toString());
        assertEquals(n, group.query().getAsJsonObject("aggregation").getAsJsonObject("fields").size());
    }

    @Test
    void notIsPushedDownNullSafely() {
        JsonObject q = Bql.translate("SELECT * FROM STREAM() WHERE NOT (a RLIKE 'x.*' OR CONTAINSKEY(m, 'k'))").query();
        String filters = q.get("filters").toString();
        // each negated test also requires its field to be present, as BQL's unknown (null) is never true
        assertTrue(filters.contains("{\"field\":\"a\",\"operation\":\"!=\",\"values\":[null]}"), filters);
        assertTrue(filters.contains("{\"field\":\"m\",\"operation\":\"!=\",\"values\":[null]}"), filters);
        assertEquals(3, q.getAsJsonArray("filters").size(),
                     "the AND of the negations is the top-level list, with the exact expression beside: " + filters);
        assertTrue(q.getAsJsonArray("filters").get(2).getAsJsonObject().has("expression"), filters);
    }

    @Test
    void specialKNeedsEveryCondition() {
        String topK = "SELECT a, COUNT(*) FROM STREAM() GROUP BY a ORDER BY COUNT(*) DESC LIMIT 3";
        assertEquals("TOP K", type(topK));
        assertEquals("GROUP", type(topK.replace("DESC", "ASC")));
        assertEquals("GROUP", type(topK.replace(" LIMIT 3", "")));
        assertEquals("GROUP", type("SELECT a, COUNT(*) FROM STREAM() GROUP BY a HAVING COUNT(*) > 2 ORDER BY COUNT(*) DESC LIMIT 3"));
    }

    @Test
    void specialKOverAnExpressionGroupsItsComputedColumn() {
        JsonObject q = Bql.translate("SELECT n % 3 AS r, COUNT(*) FROM STREAM() GROUP BY n % 3 ORDER BY COUNT(*) DESC LIMIT 2")
                .query();
        assertEquals("TOP K", q.getAsJsonObject("aggregation").get("type").getAsString());
        assertEquals("{\"n % 3\":\"r\"}", q.getAsJsonObject("aggregation").get("fields").toString());
        assertEquals("{\"computed\":{\"n % 3\":{\"op\":\"%\",\"left\":{\"field\":\"n\"},"
                     + "\"right\":{\"value\":3,\"type\":\"INTEGER\"}}}}", q.get("projection").toString());
    }

    private static String type(String bql) {
        Bql.Translation t = Bql.translate(bql);
        assertTrue(t.isValid(), t.errors().toString());
        return t.query().getAsJsonObject("aggregation").get("type").getAsString();
    }

    @Test
    void metaQueryIsTheBqlAsSubmittedBareOrWrapped() {
        String bql = "SELECT a FROM STREAM() LIMIT 1";
        Query bare = parser.parse("  " + bql).query();
        assertEquals("  " + bql, bare.original().getAsString());
        Query wrapped = parser.parse("{\"query\": \"" + bql + "\"}").query();
        assertEquals(bql, wrapped.original().getAsString());
        assertEquals(1, wrapped.aggregation().size());
    }

    @Test
    void jsonQueriesAreNotTakenForBql() {
        assertFalse(Bql.looksLikeBql(" {\"aggregation\": {}}"));
        assertFalse(Bql.looksLikeBql("[1]"));
        assertTrue(Bql.looksLikeBql("\n select * from stream()"));
        assertTrue(parser.parse("{\"query\": \"SELECT * FROM STREAM()\", \"duration\": 5}").errors().get(0).error()
                         .contains("\"query\" must be the body's only member, a string of BQL, got it beside 1 other"),
                   "a query member among others is not the BQL wrapper");
        assertTrue(parser.parse("{\"query\": 5}").errors().get(0).error()
                         .contains("\"query\" must be the body's only member, a string of BQL, got the number 5"));
    }

    /** Deep nesting is a clear error naming bullet.query.max.depth, never a stack overflow; long AND/OR chains are fine. */
    @Test
    void nestingIsBoundedByTheQueryDepth() {
        int n = 10_000;
        String where = "SELECT * FROM STREAM() WHERE ";
        for (String deep : List.of(
                where + "NOT ".repeat(n) + "a = 1",
                where + "(".repeat(n) + "a = 1" + ")".repeat(n),
                where + "SIZEOF ".repeat(n) + "a = 1",
                "SELECT " + "ABS(".repeat(n) + "a" + ")".repeat(n) + " FROM STREAM()",
                "SELECT a, a" + " + 1".repeat(n) + " AS b FROM STREAM()",
                where + "a IN [" + "[".repeat(n) + "1" + "]".repeat(n) + "]")) {
            QueryParser.Result result = parser.parse(deep);
            assertFalse(result.isValid());
            assertEquals(1, result.errors().size(), result.errors().toString());
            assertTrue(result.errors().get(0).error().contains("bullet.query.max.depth"), result.errors().toString());
            assertFalse(result.errors().get(0).resolutions().isEmpty());
        }
        // a sign belongs to a number literal only (bullet-bql's grammar): a chain of them is a syntax error at once
        assertTrue(parser.parse(where + "a = " + "-".repeat(n) + "1").errors().get(0).error()
                          .contains("expected an expression, found '-'"));
        int limit = QuerySettings.defaults().limits().queryDepth();
        assertTrue(parser.parse(where + "NOT ".repeat(limit - 4) + "(a = 1)").isValid());
        assertTrue(parser.parse(where + "(".repeat(limit - 4) + "a = 1" + ")".repeat(limit - 4)).isValid());
        assertTrue(parser.parse(where + "a RLIKE '" + "(".repeat(2 * limit) + "x" + ")".repeat(2 * limit) + "'").isValid(),
                   "parentheses in a string do not nest");
        StringBuilder ors = new StringBuilder(where + "a = 0");
        for (int i = 1; i < n; i++) {
            ors.append(" OR a = ").append(i);
        }
        QueryParser.Result many = parser.parse(ors.toString());
        assertTrue(many.errors().stream().noneMatch(e -> e.error().contains("max.depth")), many.errors().toString());
    }

    @Test
    void typeHintsTypeTheFieldForTheTypeChecks() {
        assertTrue(Bql.translate("SELECT a : STRING AS x FROM STREAM() WHERE b : STRING = 'y'").isValid());
        assertEquals(Bql.translate("SELECT a AS x FROM STREAM() WHERE b = 'y'").query(),
                     Bql.translate("SELECT a : STRING AS x FROM STREAM() WHERE b : STRING = 'y'").query(),
                     "a hint is not a cast: the query is the same");
        for (String hint : List.of("LIST[LONG]", "MAP[MAP[DOUBLE]]")) {
            Bql.Translation t = Bql.translate("SELECT a AS x FROM STREAM() WHERE b : " + hint + " = 'y'");
            assertFalse(t.isValid(), hint);
            assertTrue(t.errors().get(0).error().contains("must be comparable"), t.errors().toString());
        }
        assertTrue(Bql.translate("SELECT * FROM STREAM() WHERE a : TEXT = 'y'").errors().get(0).error()
                      .contains("expected a type (INTEGER, LONG"));
    }

    @Test
    void groupValuesAsStringsIsABoolean() {
        String json = "{\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"a\":\"a\"},\"attributes\":{\"groupValuesAsStrings\":%s}}}";
        assertTrue(parser.parse(String.format(json, "true")).query().aggregation().groupValuesAsStrings());
        QueryParser.Result bad = parser.parse(String.format(json, "\"yes\""));
        assertFalse(bad.isValid());
        assertTrue(bad.errors().get(0).error().contains("groupValuesAsStrings must be true or false"), bad.errors().toString());
        assertTrue(parser.parse("SELECT a, COUNT(*) FROM STREAM() GROUP BY a").query().aggregation().groupValuesAsStrings());
    }

    @Test
    void streamMaxAsksForTheLongestDuration() {
        Query q = parser.parse("SELECT * FROM STREAM(MAX, TIME)").query();
        assertEquals(QuerySettings.defaults().maxDurationMs(), q.durationMs());
        assertEquals(1, q.warnings().size(), "the clamping is reported");
    }

    /** bullet-bql's post-aggregation steps, as it builds them: HAVING, COMPUTATION, ORDERBY, then CULLING. */
    @Test
    void postAggregationsAreBuiltAsBulletBqlBuildsThem() {
        assertEquals(JsonParser.parseString("[{\"type\":\"HAVING\",\"expression\":{\"op\":\">\",\"left\":{\"field\":\"c\"},"
                + "\"right\":{\"value\":1,\"type\":\"INTEGER\"}}},"
                + "{\"type\":\"COMPUTATION\",\"fields\":{\"c * 2\":{\"op\":\"*\",\"left\":{\"field\":\"c\"},"
                + "\"right\":{\"value\":2,\"type\":\"INTEGER\"}}}},"
                + "{\"type\":\"ORDERBY\",\"fields\":[{\"expression\":{\"field\":\"SUM(v)\"},\"direction\":\"DESC\"}]},"
                + "{\"type\":\"CULLING\",\"fields\":[\"a\",\"SUM(v)\"]}]"),
                Bql.translate("SELECT COUNT(*) AS c, c * 2 FROM STREAM() GROUP BY a HAVING COUNT(*) > 1 ORDER BY SUM(v) DESC")
                        .query().get("postAggregations"));
        // SELECT *, a renamed: the record copied with the new column, the old name culled
        assertEquals(JsonParser.parseString("[{\"type\":\"COMPUTATION\",\"fields\":{\"b\":{\"field\":\"a\"}}},"
                + "{\"type\":\"CULLING\",\"fields\":[\"a\"]}]"),
                Bql.translate("SELECT *, a AS b FROM STREAM()").query().get("postAggregations"));
        // ORDER BY a field not selected: projected for the sort, then culled
        JsonObject extra = Bql.translate("SELECT a FROM STREAM() ORDER BY b + 1").query();
        assertEquals("{\"a\":\"a\",\"b\":\"b\"}", extra.getAsJsonObject("projection").get("fields").toString());
        assertEquals("[\"b\"]", extra.getAsJsonArray("postAggregations").get(1).getAsJsonObject().get("fields").toString());
        // DISTINCT of an expression groups its computed column
        JsonObject distinct = Bql.translate("SELECT DISTINCT a + 1 AS x FROM STREAM()").query();
        assertEquals("{\"a + 1\":\"x\"}", distinct.getAsJsonObject("aggregation").get("fields").toString());
        assertTrue(distinct.getAsJsonObject("projection").getAsJsonObject("computed").has("a + 1"));
    }
}

package dev.bullet.querying;

import dev.bullet.bql.Bql;
import dev.bullet.query.Query;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import dev.bullet.testing.Queries;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A BQL range {@code WHERE f > k} (k an integer) is its typed clause with the same comparison beside it as an
 * expression filter, and {@code WHERE f BETWEEN (a, b)} the interval {@code f >= a AND f <= b} with BETWEEN beside it: a record the index decides matches the clause passes that expression too, so it is not tested
 * again. Anything else keeps the expression on every match (the partials: {@code BatchAggregationPropertyTest}).
 */
class WhereFollowsDecisionTest {
    private static Query bql(String where) {
        Bql.Translation t = Bql.translate("SELECT COUNT(*) FROM STREAM(30000, TIME) WHERE " + where);
        assertTrue(t.isValid(), where + " " + t.errors());
        return Queries.parse(t.query().toString());
    }

    @Test
    void aBqlIntegerRangeFollowsItsDecision() {
        for (String where : new String[] {"l_1 > 5000", "l_1 >= 5000", "l_1 < -3", "l_1 <= 1", "l_1 > 5000000000",
                                          "l_1 BETWEEN (10, 20)", "l_1 BETWEEN (5000000000, 5000000000)",
                                          "s != 'x'", "s NOT IN ['x', 'y']", "NOT (s = 'x')", "NOT (s IN ['x'])"}) {
            assertTrue(FilterQuerier.whereFollowsDecision(bql(where)), where);
        }
    }

    @Test
    void otherFiltersKeepTheirExpression() {
        for (String where : new String[] {"l_1 > 5000.5", "l_1 = 5", "l_1 != 5", "l_1 > 5 AND l_2 > 3", "l_1 + 1 > 5",
                                          "l_1 > 5 OR l_2 > 3", "NOT (l_1 > 5)", "m.k > 5", "s = 'x'", "l_1 IN (1, 2)",
                                          "l_1 BETWEEN (1, 2.5)", "l_1 NOT BETWEEN (1, 2)", "m.k BETWEEN (1, 2)",
                                          "l_1 BETWEEN (1, 9007199254740993)", "l_1 BETWEEN (1, 2) AND l_2 > 3",
                                          "l_1 BETWEEN (-9007199254740992, -9007199254740992)",
                                          "l_1 >= 1 AND l_1 <= 2", "l_1 >= 0", "l_1 <= 0", "l_1 > 0", "l_1 < 0",
                                          "m.k != 'x'", "s != 'x' AND t != 'y'", "s != 5", "NOT (s = 5)",
                                          "NOT (s != 'x')"}) {
            assertFalse(FilterQuerier.whereFollowsDecision(bql(where)), where);
        }
        // the JSON query: an expression that is not the clause's comparison
        assertFalse(FilterQuerier.whereFollowsDecision(Queries.parse(
            "{\"filters\":[{\"field\":\"n\",\"operation\":\">\",\"values\":[{\"kind\":\"VALUE\",\"value\":\"3\",\"type\":"
            + "\"LONG\"}]},{\"expression\":{\"op\":\">\",\"left\":{\"field\":\"n\"},\"right\":{\"value\":4,\"type\":"
            + "\"LONG\"}}}]}")));
        assertFalse(FilterQuerier.whereFollowsDecision(Queries.parse(
            "{\"filters\":[{\"field\":\"n\",\"operation\":\">\",\"values\":[\"3\"]},{\"expression\":{\"op\":\">\","
            + "\"left\":{\"field\":\"n\"},\"right\":{\"value\":3,\"type\":\"LONG\"}}}]}")));
    }

    /** What a record's {@code n} holds: integers, numbers the range reads but the expression does not, or nothing. */
    private static final String[] VALUES = {"5", "-3", "0", "5000", "5001", "4999", "5000000001", "9223372036854775807",
        "\"6000\"", "\"x\"", "5000.5", "4999.9", "-0.0", "1e4", "null", "true", "[5001]", "{\"a\":5001}", "\"\""};

    /**
     * RAW queries in BQL ({@code WHERE n > 5000 LIMIT 500}) whose matches the index decides take the rows that testing
     * each record with the query's clauses and expression gives, in order, over values the expression cannot compare
     * (strings of digits, booleans, containers) or does not see (missing, null), read from bytes and decoded; so do
     * those whose expression does not follow from the decision.
     */
    @Test
    void rawRowsOfDecidedRangesAreThoseOfEveryRecordTested() {
        Random r = new Random(41);
        RecordDecoder decoder = new RecordDecoder();
        String[] wheres = {"n > 5000", "n >= 5000", "n < 1", "n <= 5000", "n > 5000000000", "n < -2",
                           "n BETWEEN (0, 5000)", "n BETWEEN (-3, 5001)", "n BETWEEN (5000, 5000)",
                           // negations of strings, decided on a string value only: the numbers, booleans and
                           // containers of n are tested, and the expression drops them
                           "n != 'x'", "n NOT IN ['x', '6000']", "NOT (n = '')", "s != 'w1'",
                           // beside them, expressions that do not follow: tested on every match
                           "n > 5000.5", "s = 'w1' AND n > 5000", "n <= 5000 AND s != 'w2'", "s = 'w3'",
                           "n NOT BETWEEN (0, 5000)", "n BETWEEN (0, 5000.5)", "n >= 0 AND n < 5000",
                           "n BETWEEN (0, 5000) AND s != 'w4'",
                           // a JSON interval the index decides, no expression
                           "{\"filters\":[{\"operation\":\"AND\",\"clauses\":[{\"field\":\"n\",\"operation\":\">\",\"values\":"
                           + "[\"-3\"]},{\"field\":\"n\",\"operation\":\"<\",\"values\":[\"5001\"]}]}],\"aggregation\":{\"type\":"
                           + "\"RAW\",\"size\":500}}",
                           // a clause the index decides, and a narrower expression
                           "{\"filters\":[{\"field\":\"n\",\"operation\":\">\",\"values\":[{\"kind\":\"VALUE\",\"value\":"
                           + "\"5000\",\"type\":\"LONG\"}]},{\"expression\":{\"op\":\">\",\"left\":{\"field\":\"n\"},"
                           + "\"right\":{\"value\":5001,\"type\":\"LONG\"}}}],\"aggregation\":{\"type\":\"RAW\",\"size\":500}}"};
        int rows = 0;
        for (int round = 0; round < 20; round++) {
            List<Record> records = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                String json = "{\"i\":" + i + (r.nextInt(8) == 0 ? "" : ",\"n\":" + VALUES[r.nextInt(VALUES.length)])
                              + ",\"s\":\"w" + r.nextInt(5) + "\"}";
                records.add(r.nextBoolean() ? decoder.decode(json.getBytes(StandardCharsets.UTF_8)) : decoder.decode(json));
            }
            FilterEngine engine = new FilterEngine(QuerySettings.defaults());
            List<FilterQuerier> alone = new ArrayList<>();
            for (int q = 0; q < wheres.length; q++) {
                Query query = wheres[q].startsWith("{") ? Queries.parse(wheres[q]) : Queries.parse(Bql.translate(
                        "SELECT * FROM STREAM(30000, TIME) WHERE " + wheres[q] + " LIMIT 500").query().toString());
                assertEquals(q < 13, FilterQuerier.whereFollowsDecision(query), wheres[q]);
                engine.add("q" + q, query, 0L);
                alone.add(new FilterQuerier("q" + q, query, 0L, QuerySettings.defaults()));
            }
            List<FilterEngine.Partial> out = new ArrayList<>();
            engine.consume(records, 10L, out);
            engine.tick(10L, out);
            for (int q = 0; q < wheres.length; q++) {
                for (Record record : records) {
                    alone.get(q).consume(record, 10L);
                }
                byte[] expected = alone.get(q).takePartial();
                List<byte[]> got = new ArrayList<>();
                for (FilterEngine.Partial partial : out) {
                    if (partial.id().equals("q" + q) && partial.data() != null) {
                        got.add(partial.data());
                    }
                }
                if (expected == null) {
                    assertEquals(0, got.size(), wheres[q]);
                    continue;
                }
                assertEquals(1, got.size(), wheres[q]);
                assertArrayEquals(expected, got.get(0), wheres[q] + " in round " + round);
                rows++;
            }
        }
        assertTrue(rows > 60, "compared " + rows);
    }
}

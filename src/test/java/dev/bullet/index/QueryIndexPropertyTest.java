package dev.bullet.index;

import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.Predicates;
import dev.bullet.querying.RecordPredicate;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The index may only widen the set of queries a record meets, never narrow it (SPEC §10): over random queries and
 * random records, every query whose filter matches a record is among the record's candidates, so results are
 * identical with and without the index. Also checks that the index does narrow for indexable queries.
 */
class QueryIndexPropertyTest {
    private static final String[] FIELDS = {"id", "n", "m.k", "l.0.a", "b"};
    private static final String[] LITERALS = {"1", "2", "1.0", "-0", "0", "x", "X", "true", "TRUE", "false", " 2",
                                              "1e0", "9007199254740993", "abc", "2.5", "-3", "-NaN", "9007199254740992"};
    private static final String[] VALUES = {"1", "2", "1.0", "-0.0", "0", "\"x\"", "\"1\"", "true", "false", "null",
                                            "\" 2\"", "9007199254740993", "2.5", "-3", "\"abc\"", "[1]", "{\"a\":1}",
                                            "9007199254740992", "9007199254740994", "1e400", "-1e400", "-2.5",
                                            "3", "-1", "-2", "-0", "4", "123456789012345", "-99999999999999",
                                            "1234567890123456", "999999999999999999", "2.0", "-3.0", "0.5"};

    private static String literal(Random r) {
        return "\"" + LITERALS[r.nextInt(LITERALS.length)] + "\"";
    }

    private static String clause(Random r, int depth) {
        int kind = r.nextInt(depth > 1 ? 6 : 9);
        String field = FIELDS[r.nextInt(FIELDS.length)];
        switch (kind) {
            case 0:
            case 1:
            case 2: {
                StringBuilder values = new StringBuilder(literal(r));
                for (int i = r.nextInt(3); i > 0; i--) {
                    values.append(',').append(literal(r));
                }
                return "{\"field\":\"" + field + "\",\"operation\":\"==\",\"values\":[" + values + "]}";
            }
            case 3:
            case 4: {
                String[] ops = {">", ">=", "<", "<="};
                String v = r.nextBoolean() ? "\"" + (r.nextInt(7) - 3) + (r.nextBoolean() ? ".5" : "") + "\"" : literal(r);
                if (r.nextInt(4) == 0) { // several literals: any of them
                    v += "," + (r.nextBoolean() ? "\"" + (r.nextInt(7) - 3) + "\"" : literal(r));
                }
                return "{\"field\":\"" + field + "\",\"operation\":\"" + ops[r.nextInt(4)] + "\",\"values\":[" + v + "]}";
            }
            case 5:
                return "{\"field\":\"" + field + "\",\"operation\":\"!=\",\"values\":[" + literal(r) + "]}";
            case 6:
                return "{\"operation\":\"AND\",\"clauses\":[" + clause(r, depth + 1) + "," + clause(r, depth + 1) + "]}";
            case 7:
                return "{\"operation\":\"OR\",\"clauses\":[" + clause(r, depth + 1) + "," + clause(r, depth + 1) + "]}";
            default:
                return "{\"operation\":\"NOT\",\"clauses\":[" + clause(r, depth + 1) + "]}";
        }
    }

    private static String record(Random r) {
        String v = VALUES[r.nextInt(VALUES.length)];
        String json = "{\"id\":" + VALUES[r.nextInt(VALUES.length)] + ",\"n\":" + v + ",\"m\":{\"k\":" + VALUES[r.nextInt(VALUES.length)]
               + "},\"l\":[{\"a\":" + VALUES[r.nextInt(VALUES.length)] + "}],\"b\":" + VALUES[r.nextInt(VALUES.length)] + "}";
        if (r.nextInt(4) == 0) { // a missing field: negated ranges and NOT match it
            json = json.replace(new String[] {"\"id\":", "\"n\":", "\"b\":"}[r.nextInt(3)], "\"zz\":");
        }
        return json;
    }

    @Test
    void everyMatchingQueryIsACandidate() {
        Random r = new Random(42);
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        RecordDecoder decoder = new RecordDecoder();
        int decided = 0;
        for (int round = 0; round < 200; round++) {
            QueryIndex<Integer> index = new QueryIndex<>();
            List<RecordPredicate> predicates = new ArrayList<>();
            for (int q = 0; q < 50; q++) {
                String json = "{\"filters\":[" + clause(r, 0) + (r.nextInt(4) == 0 ? "," + clause(r, 0) : "") + "]}";
                QueryParser.Result parsed = parser.parse(json);
                assertTrue(parsed.isValid(), json + " " + parsed.errors());
                Query query = parsed.query();
                predicates.add(Predicates.compile(query.filter()));
                index.add(q, query.filter());
            }
            // remove and re-add some, to exercise removal
            for (int q = 0; q < 50; q += 7) {
                assertTrue(index.remove(q));
            }
            for (int q = 0; q < 50; q += 7) {
                index.add(q, parser.parse("{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"1\"]}]}").query().filter());
                predicates.set(q, Predicates.compile(parser.parse(
                        "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"1\"]}]}").query().filter()));
            }
            for (int k = 0; k < 100; k++) {
                String json = record(r);
                // the lazy record (read from its bytes by the index) and the eager one (read through get)
                Record rec = k % 2 == 0 ? decoder.decode(json) : RecordDecoder.decodeEagerly(json);
                Set<Integer> candidates = new HashSet<>();
                Set<Integer> matched = new HashSet<>();
                index.candidates(rec, candidates::add, matched::add);
                for (int q = 0; q < predicates.size(); q++) {
                    boolean matches = predicates.get(q).test(rec);
                    if (matches) {
                        assertTrue(candidates.contains(q) || matched.contains(q),
                                   "query " + q + " matches " + json + " but was not a candidate");
                    }
                    if (matched.contains(q)) { // the index decided it (a whole equality or range): it must be right
                        assertTrue(matches, "query " + q + " was decided a match for " + json + " but does not match");
                        decided++;
                    }
                }
            }
        }
        assertTrue(decided > 1000, "matches the index decided: " + decided);
    }

    /**
     * A range that is the whole filter is decided by the value read (past the threshold: a match; at it: a match for
     * {@code >=} and {@code <=} only): every decision, over every operator, literal and number a record may hold (read
     * from its bytes, or decoded), is the filter's own answer, ties, NaN literals, infinities, -0 and longs past 2^53
     * included.
     */
    @Test
    void decidedRangesAgreeWithTheFilterOnEveryNumber() {
        String[] literals = {"NaN", "-NaN", "Infinity", "-Infinity", "1e400", "-1e400", "-0", "0", "-0.0", "0.0", "1",
                             "3", "2.5", "-3", "9223372036854775807", "9223372036854775808", "9007199254740993",
                             "9007199254740992", "123456789012345", "1e-400", "1e0"};
        String[] values = {"1", "3", "2.5", "-3", "0", "-0", "-0.0", "1e400", "-1e400", "9223372036854775807",
                           "9007199254740993", "9007199254740992", "123456789012345", "-123456789012345", "1.0", "3e0",
                           "\"3\"", "true", "null"};
        int decided = 0;
        int skipped = 0;
        for (String op : new String[] {">", ">=", "<", "<="}) {
            for (String literal : literals) {
                for (String second : new String[] {null, "1", "NaN", "3"}) {
                    String json = "{\"filters\":[{\"field\":\"n\",\"operation\":\"" + op + "\",\"values\":[\"" + literal
                                  + "\"" + (second == null ? "" : ",\"" + second + "\"") + "]}]}";
                    int[] met = meetValuesOfN(json, values, true);
                    decided += met[0];
                    skipped += met[2];
                }
            }
        }
        assertTrue(decided > 1000 && skipped > 1000, "decided " + decided + ", skipped " + skipped);
    }

    /**
     * A one-query index of {@code json} met by {@code {"n": value}} for each value, read from its bytes and decoded:
     * every decision is the filter's own answer, every match is handed out, and nothing is decided unless
     * {@code mayDecide}. Returns the decisions, the candidates handed out to be tested, and the records that met
     * neither.
     */
    private static int[] meetValuesOfN(String json, String[] values, boolean mayDecide) {
        QueryParser.Result parsed = new QueryParser(QuerySettings.defaults()).parse(json);
        assertTrue(parsed.isValid(), json + " " + parsed.errors());
        QueryIndex<Integer> index = new QueryIndex<>();
        index.add(0, parsed.query().filter());
        RecordPredicate predicate = Predicates.compile(parsed.query().filter());
        RecordDecoder decoder = new RecordDecoder();
        int[] met = new int[3];
        for (String value : values) {
            String text = "{\"n\":" + value + "}";
            for (Record rec : List.of(decoder.decode(text), RecordDecoder.decodeEagerly(text))) {
                Set<Integer> candidates = new HashSet<>();
                Set<Integer> matched = new HashSet<>();
                index.candidates(rec, candidates::add, matched::add);
                boolean matches = predicate.test(rec);
                assertTrue(!matched.contains(0) || matches, json + " decided a match for " + text);
                assertTrue(!matches || matched.contains(0) || candidates.contains(0),
                           json + " matches " + text + " but was not handed out");
                assertTrue(mayDecide || matched.isEmpty(), json + " decided where it must be tested");
                met[0] += matched.size();
                met[1] += candidates.size();
                met[2] += candidates.isEmpty() && matched.isEmpty() ? 1 : 0;
            }
        }
        return met;
    }

    /**
     * An interval whose filter is its two bounds (as BQL's {@code BETWEEN} and {@code x >= a AND x < b} give) is
     * decided at both ends: every decision, over both bounds' operators, plain and typed literals, several literals
     * on a bound, and values at, inside and past either bound (read from the bytes or decoded), is the filter's own
     * answer; an interval beside a third conjunct is tested.
     */
    @Test
    void decidedIntervalsAgreeWithTheFilterAtBothBounds() {
        String[] lowers = {"-3", "0", "1", "2.5", "-0", "9007199254740992", "123456789012345", "NaN"};
        String[] uppers = {"3", "1", "2.5", "0", "-0.0", "9007199254740993", "123456789012346", "1e400"};
        String[] values = {"1", "3", "2.5", "-3", "0", "-0", "-0.0", "1e400", "-1e400", "9007199254740993",
                           "9007199254740992", "123456789012345", "123456789012346", "1.0", "3e0", "2", "-1", "4",
                           "\"3\"", "\"2\"", "true", "null", "[1]"};
        int decided = 0;
        int tested = 0;
        for (String low : new String[] {">", ">="}) {
            for (String high : new String[] {"<", "<="}) {
                for (String lower : lowers) {
                    for (String upper : uppers) {
                        for (int shape = 0; shape < 4; shape++) {
                            if (shape == 1 && lower.equals("NaN")) {
                                continue; // no DOUBLE-typed literal
                            }
                            String lo = shape == 1 ? "{\"kind\":\"VALUE\",\"value\":\"" + lower + "\",\"type\":\"DOUBLE\"}"
                                                   : "\"" + lower + "\"";
                            String hi = "\"" + upper + "\"" + (shape == 2 ? ",\"-1\"" : "");
                            String bounds = "{\"field\":\"n\",\"operation\":\"" + low + "\",\"values\":[" + lo + "]},"
                                            + "{\"field\":\"n\",\"operation\":\"" + high + "\",\"values\":[" + hi + "]}";
                            if (shape == 3) { // the bounds the other way round, beside a third conjunct: tested
                                bounds = "{\"field\":\"n\",\"operation\":\"" + high + "\",\"values\":[" + hi + "]},"
                                         + "{\"field\":\"n\",\"operation\":\"" + low + "\",\"values\":[" + lo + "]},"
                                         + "{\"field\":\"n\",\"operation\":\"!=\",\"values\":[\"2\"]}";
                            }
                            String json = "{\"filters\":[{\"operation\":\"AND\",\"clauses\":[" + bounds + "]}]}";
                            int[] met = meetValuesOfN(json, values, shape != 3);
                            decided += met[0];
                            tested += met[1];
                        }
                    }
                }
            }
        }
        assertTrue(decided > 500 && tested > 500, "decided " + decided + ", tested " + tested);
    }

    @Test
    void equalityAndRangeQueriesOnlyMeetRecordsThatCanMatch() {
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        QueryIndex<Integer> index = new QueryIndex<>();
        for (int q = 0; q < 1000; q++) {
            index.add(q, parser.parse("{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"v" + q + "\"]}]}")
                                .query().filter());
        }
        for (int q = 1000; q < 2000; q++) {
            index.add(q, parser.parse("{\"filters\":[{\"field\":\"n\",\"operation\":\">\",\"values\":[\"" + q + "\"]}]}")
                                .query().filter());
        }
        assertEquals(0, index.scanned());
        Set<Integer> candidates = new HashSet<>();
        index.candidates(new RecordDecoder().decode("{\"id\":\"v7\",\"n\":1500}"), candidates::add);
        Set<Integer> expected = new HashSet<>(List.of(7));
        for (int q = 1000; q < 1500; q++) { // n > 1500 is decided false at its threshold: not handed out
            expected.add(q);
        }
        assertEquals(expected, candidates);
    }
}

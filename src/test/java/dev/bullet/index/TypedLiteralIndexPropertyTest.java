package dev.bullet.index;

import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.FilterEngine;
import dev.bullet.querying.Predicates;
import dev.bullet.querying.RecordPredicate;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Typed literals ({@code {"kind": "VALUE", "value": "5", "type": "LONG"}}, what BQL writes for its numbers and
 * booleans) in the index: a typed number compares with a string value by the string's number reading, not as text,
 * so over every kind of record value — longs, doubles, numeric strings ({@code "70"}, {@code " 7"}, {@code "1e3"},
 * {@code "-0"}, {@code "NaN"}, past 2^53), other strings, booleans, null, maps, lists, a missing field — and every
 * operator ({@code ==}, IN, {@code !=}, ranges, CONTAINSVALUE, CONTAINSKEY, NOT, AND, OR) every query
 * that matches is handed out, every match the index decides is one, and an engine deciding them gives the partials,
 * byte for byte, of one testing every query on every record.
 */
class TypedLiteralIndexPropertyTest {
    private static final String[] FIELDS = {"n", "s", "m.k", "l.0", "missing"};
    private static final String[] TYPES = {"LONG", "LONG", "DOUBLE", "DOUBLE", "INTEGER", "FLOAT", "STRING", "BOOLEAN",
                                           null};
    private static final String[] TEXTS = {"5", "7", "70", "-0", "0", "5.5", "5.0", "1e3", "1000", "-5", "-7.25",
                                           "9007199254740993", "9007199254740992", "9007199254740992.0",
                                           "9223372036854775807", "1e30", "Infinity", "-Infinity", "NaN", "abc", "true",
                                           "TRUE", "false", " 7", "0x10", ".5", "+5", "1e400"};
    private static final String[] VALUES = {
        "5", "7", "70", "0", "-0", "-5", "1000", "9007199254740992", "9007199254740993", "9223372036854775807",
        "-9223372036854775808", "123456789012345678901", "5.0", "5.5", "-0.0", "1e3", "7.0", "-7.25", "1e400", "-1e400",
        "\"70\"", "\" 7\"", "\"7 \"", "\"1e3\"", "\"NaN\"", "\"-NaN\"", "\"-0\"", "\"+5\"", "\"5.0\"", "\"5\"", "\".5\"",
        "\"0x10\"", "\"9007199254740993\"", "\"1e400\"", "\"Infinity\"", "\"-Infinity\"", "\"5d\"", "\"abc\"", "\"\"",
        "\"true\"", "\" TRUE\"", "\"x5\"", "\"\\u0035\"", "\"\\t7\"", "\"5\u00e9\"", "true", "false", "null", "{\"a\":5}",
        "[5]", "[]", "{\"a\":\"5\",\"b\":true}", "{\"5\":1,\"abc\":\" 7\"}", "[\" 7\",70,\"abc\",{\"a\":5.0}]"};

    private static String literal(Random r) {
        String type = TYPES[r.nextInt(TYPES.length)];
        String text = TEXTS[r.nextInt(TEXTS.length)];
        return type == null ? "\"" + text + "\""
                : "{\"kind\":\"VALUE\",\"value\":\"" + text + "\",\"type\":\"" + type + "\"}";
    }

    private static String clause(Random r, int depth) {
        String field = FIELDS[r.nextInt(FIELDS.length)];
        String[] ops = {"==", "==", "!=", ">", ">=", "<", "<=", "CONTAINSVALUE", "CONTAINSKEY"};
        int kind = r.nextInt(depth > 1 ? 9 : 12);
        if (kind < 9) {
            StringBuilder values = new StringBuilder(literal(r));
            for (int i = r.nextInt(4) == 0 ? 1 + r.nextInt(2) : 0; i > 0; i--) { // IN lists, several bounds
                values.append(',').append(literal(r));
            }
            return "{\"field\":\"" + field + "\",\"operation\":\"" + ops[kind] + "\",\"values\":[" + values + "]}";
        }
        String logical = kind == 9 ? "AND" : kind == 10 ? "OR" : "NOT";
        String inner = clause(r, depth + 1) + (logical.equals("NOT") ? "" : "," + clause(r, depth + 1));
        return "{\"operation\":\"" + logical + "\",\"clauses\":[" + inner + "]}";
    }

    /** A filter: one clause (often a lone typed comparison, which the index decides), or an AND of two. */
    private static String filter(Random r) {
        String one = clause(r, r.nextInt(3) == 0 ? 0 : 2);
        return r.nextInt(4) == 0 ? "{\"operation\":\"AND\",\"clauses\":[" + one + "," + clause(r, 1) + "]}" : one;
    }

    private static String value(Random r) {
        return VALUES[r.nextInt(VALUES.length)];
    }

    private static String record(Random r) {
        String json = "{\"n\":" + value(r) + ",\"s\":" + value(r) + ",\"m\":{\"k\":" + value(r) + "},\"l\":[" + value(r)
                      + "]}";
        return r.nextInt(5) == 0 ? json.replace(r.nextBoolean() ? "\"n\":" : "\"s\":", "\"zz\":") : json;
    }

    /** Parses a query, or null when the parser refuses it (a typed literal that does not cast to its type). */
    private static Query parse(QueryParser parser, String json) {
        QueryParser.Result parsed = parser.parse(json);
        return parsed.isValid() ? parsed.query() : null;
    }

    @Test
    void everyMatchIsHandedOutAndEveryDecisionIsRight() {
        Random r = new Random(7);
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        RecordDecoder decoder = new RecordDecoder();
        int decided = 0;
        int skipped = 0;
        int queries = 0;
        for (int round = 0; round < 200; round++) {
            QueryIndex<Integer> index = new QueryIndex<>();
            List<RecordPredicate> predicates = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            while (predicates.size() < 40) {
                String json = "{\"filters\":[" + filter(r) + "]}";
                Query query = parse(parser, json);
                if (query == null) {
                    continue;
                }
                index.add(predicates.size(), query.filter());
                predicates.add(Predicates.compile(query.filter()));
                texts.add(json);
            }
            queries += predicates.size();
            for (int q = 0; q < predicates.size(); q += 6) { // removal leaves nothing behind
                assertTrue(index.remove(q));
                predicates.set(q, record -> false);
            }
            for (int k = 0; k < 60; k++) {
                String json = record(r);
                // the lazy record (read from its bytes by the index) and the eager one (read through get)
                for (Record rec : List.of(decoder.decode(json), RecordDecoder.decodeEagerly(json))) {
                    Set<Integer> candidates = new HashSet<>();
                    Set<Integer> matched = new HashSet<>();
                    index.candidates(rec, candidates::add, matched::add);
                    for (int q = 0; q < predicates.size(); q++) {
                        boolean matches = predicates.get(q).test(rec);
                        assertTrue(!matches || candidates.contains(q) || matched.contains(q),
                                   texts.get(q) + " matches " + json + " but was not handed out");
                        assertTrue(!matched.contains(q) || matches,
                                   texts.get(q) + " was decided a match for " + json + " but does not match");
                        decided += matched.contains(q) ? 1 : 0;
                        skipped += q % 6 != 0 && !candidates.contains(q) && !matched.contains(q) ? 1 : 0;
                    }
                }
            }
        }
        assertTrue(queries >= 8_000, "queries " + queries);
        assertTrue(decided > 15_000 && skipped > 200_000, "decided " + decided + ", skipped " + skipped);
    }

    /**
     * Typed numbers alone ({@code ==}, IN, ranges, {@code !=}, NOT of each but {@code !=}) are served by the index, none left to meet
     * every record; a typed BOOLEAN is not (its comparison with a string reads the string as a boolean).
     */
    @Test
    void typedNumbersAreIndexed() {
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        QueryIndex<Integer> index = new QueryIndex<>();
        String[] filters = {"{\"field\":\"n\",\"operation\":\"%s\",\"values\":[%s]}",
                            "{\"operation\":\"NOT\",\"clauses\":[{\"field\":\"n\",\"operation\":\"%s\",\"values\":[%s]}]}"};
        int q = 0;
        for (String op : new String[] {"==", "!=", ">", ">=", "<", "<="}) {
            for (String type : new String[] {"LONG", "DOUBLE", "INTEGER", "FLOAT", "STRING"}) {
                for (String shape : filters) {
                    if (op.equals("!=") && shape.startsWith("{\"operation\":\"NOT\"")) {
                        continue; // NOT !=: a missing value or an equal one, not served for plain literals either
                    }
                    String value = "{\"kind\":\"VALUE\",\"value\":\"5\",\"type\":\"" + type + "\"}";
                    String json = "{\"filters\":[" + String.format(shape, op, value + "," + value.replace("5", "7"))
                                  + "]}";
                    index.add(q++, parse(parser, json).filter());
                }
            }
        }
        assertEquals(0, index.scanned());
        index.add(q, parse(parser, "{\"filters\":[{\"field\":\"n\",\"operation\":\"==\",\"values\":[{\"kind\":\"VALUE\","
                                   + "\"value\":\"true\",\"type\":\"BOOLEAN\"}]}]}").filter());
        assertEquals(1, index.scanned());
    }

    @Test
    void decidingEnginesGiveThePartialsOfTestingEveryRecord() {
        Random r = new Random(11);
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        int partials = 0;
        for (int round = 0; round < 30; round++) {
            List<Query> indexed = new ArrayList<>();
            List<Query> tested = new ArrayList<>();
            while (indexed.size() < 60) {
                String filter = filter(r);
                String tail = r.nextInt(3) == 0
                        ? ",\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"s\":\"s\"},\"attributes\":{\"operations\":"
                          + "[{\"type\":\"COUNT\"}]}}}"
                        : ",\"aggregation\":{\"type\":\"RAW\",\"size\":" + (1 + r.nextInt(20)) + "}}";
                Query query = parse(parser, "{\"filters\":[" + filter + "]" + tail);
                if (query == null) {
                    continue;
                }
                // NOT NOT of the filter: the same test, which no index serves, so every record meets the query
                indexed.add(query);
                tested.add(parse(parser, "{\"filters\":[{\"operation\":\"NOT\",\"clauses\":[{\"operation\":\"NOT\","
                                         + "\"clauses\":[" + filter + "]}]}]" + tail));
            }
            List<String> records = new ArrayList<>();
            for (int k = 0; k < 300; k++) {
                records.add(record(r));
            }
            List<FilterEngine.Partial> expected = run(new FilterEngine(QuerySettings.defaults(),
                                                                       EnumSet.noneOf(IndexFeature.class)), tested, records);
            partials += expected.size();
            for (EnumSet<IndexFeature> features : List.of(IndexFeature.all(), EnumSet.noneOf(IndexFeature.class))) {
                List<FilterEngine.Partial> actual = run(new FilterEngine(QuerySettings.defaults(), features), indexed,
                                                        records);
                assertEquals(expected.size(), actual.size(), "partials with " + features);
                for (int i = 0; i < expected.size(); i++) {
                    assertEquals(expected.get(i).id(), actual.get(i).id(), "with " + features);
                    assertArrayEquals(expected.get(i).data(), actual.get(i).data(), "partial of " + expected.get(i).id()
                                      + " with " + features + ": "
                                      + indexed.get(Integer.parseInt(expected.get(i).id().substring(1))).original());
                }
            }
        }
        assertTrue(partials > 1_000, "too few partials compared: " + partials);
    }

    /** Feeds the records in batches of 50, ticking after each batch; partials in a fixed order. */
    private static List<FilterEngine.Partial> run(FilterEngine engine, List<Query> queries, List<String> records) {
        for (int q = 0; q < queries.size(); q++) {
            engine.add("q" + q, queries.get(q), 0L);
        }
        RecordDecoder decoder = new RecordDecoder();
        List<FilterEngine.Partial> out = new ArrayList<>();
        for (int start = 0; start < records.size(); start += 50) {
            List<Record> batch = new ArrayList<>();
            for (String json : records.subList(start, Math.min(records.size(), start + 50))) {
                batch.add(decoder.decode(json));
            }
            List<FilterEngine.Partial> step = new ArrayList<>();
            engine.consume(batch, 10L + start, step);
            engine.tick(10L + start, step);
            step.sort((a, b) -> a.id().compareTo(b.id()) != 0 ? a.id().compareTo(b.id())
                    : Boolean.compare(a.data() == null, b.data() == null));
            out.addAll(step);
        }
        return out;
    }
}

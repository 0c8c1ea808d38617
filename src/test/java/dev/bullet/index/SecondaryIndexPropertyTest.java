package dev.bullet.index;

import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.FilterEngine;
import dev.bullet.querying.Predicates;
import dev.bullet.querying.RecordPredicate;
import dev.bullet.querying.aggregations.Aggregator;
import dev.bullet.querying.aggregations.Aggregators;
import dev.bullet.querying.aggregations.RawAggregator;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Identical results with and without each optimisation of {@link IndexFeature}: over random filters mixing
 * equality, ranges, RLIKE, {@code !=}, NOT, CONTAINSKEY, CONTAINSVALUE and SIZEIS (alone, in ANDs, ORs and NOTs) and
 * random records, every query that matches a record is among its candidates, and two engines — every optimisation
 * on, and none — hand out the same partials, byte for byte.
 */
class SecondaryIndexPropertyTest {
    private static final String[] FIELDS = {"s", "n", "m", "m.k", "l", "l.0.a", "missing"};
    private static final String[] LITERALS = {"1", "2", "x", "X", "k", "a", "abc", "error", "ERROR", "true", "0", "3",
                                              "v", ""};
    private static final String[] SIZES = {"0", "1", "2", "3", "5", "2.0"};
    private static final String[] PATTERNS = {".*error.*", "(?i).*ERROR.*", "ab.*", "abc", "(x|abc)", "[ax]bc", ".*",
                                              "[0-9]+", "1", "(?i)X", "e.*r", ".*(err|ab)[a-z]*", "a\\.b.*", "^t.*e$",
                                              "K", "(?i)k.*", "\\d", ".*rr.*", "(?i)AB.*", ".*bc$", "^abc$", "an ERROR here",
                                              "(?i).*k.*", ".*x", "(?i)abc", "a.*", ".*(err|ab).*", "(?i)(X|abc)",
                                              "^(abc|x).*", ".*(rr|bc)", "[0-9]{1}[a-c]+.*", "[a-c]b.*", "e{1}r+.*",
                                              "ab?c", "[xa](b|bc).*", "\\d[.]\\d*", "a\\sb", "(?i)\u00e9rror", ".*\\S",
                                              "[^x]*", "(?i).*\\sERROR"};
    private static final String[] VALUES = {"1", "2", "0", "-0.0", "\"x\"", "\"X\"", "\"abc\"", "\"error\"",
                                            "\"an ERROR here\"", "\"a.bc\"", "\"\\u212A\"", "\"k\"", "true", "false",
                                            "null", "\"\"", "[1,\"x\"]", "{\"k\":\"v\",\"a\":1}", "[{\"a\":\"x\"},{\"k\":2}]",
                                            "\"line\\nerror\"", "3", "2.5", "\"Abc\"", "\"xabcx\"", "\"ab\"", "\"AB\\\"c\"",
                                            "\"\u00e9rror\"", "\"error\\r\"", "\"a\\u000bb\"", "\"x\\u2028error\"",
                                            "\"\u00c9rror\"", "\"a\\r error\"",
                                            // a duplicate key overrides an inner map (and a value): what the filter reads
                                            "{\"a\":{\"k\":1},\"a\":{\"j\":2}}", "{\"k\":\"x\",\"k\":{\"v\":1}}",
                                            "{\"k\":\"x\",\"j\":\"abc\",\"k\":\"v\"}", "{\"j\":{\"k\":\"x\",\"k\":1}}",
                                            "[{\"k\":1,\"k\":2},{\"a\":{\"k\":1}}]"};

    private static String values(Random r, String[] pool) {
        StringBuilder v = new StringBuilder("\"" + pool[r.nextInt(pool.length)].replace("\\", "\\\\") + "\"");
        for (int i = r.nextInt(3); i > 0; i--) {
            v.append(",\"").append(pool[r.nextInt(pool.length)].replace("\\", "\\\\")).append('"');
        }
        return v.toString();
    }

    static String clause(Random r, int depth) {
        String field = FIELDS[r.nextInt(FIELDS.length)];
        String[] ops = {"==", "!=", ">", "<=", "RLIKE", "RLIKE", "SIZEIS", "CONTAINSKEY", "CONTAINSVALUE"};
        int kind = r.nextInt(depth > 1 ? 9 : 12);
        if (kind < 9) {
            String op = ops[kind];
            String vals = op.equals("RLIKE") ? values(r, PATTERNS)
                    : op.equals("SIZEIS") ? values(r, SIZES)
                    : op.equals("!=") && r.nextInt(5) == 0 ? "null" : values(r, LITERALS);
            return "{\"field\":\"" + field + "\",\"operation\":\"" + op + "\",\"values\":[" + vals + "]}";
        }
        String logical = kind == 9 ? "AND" : kind == 10 ? "OR" : "NOT";
        String inner = clause(r, depth + 1) + (logical.equals("NOT") ? "" : "," + clause(r, depth + 1));
        return "{\"operation\":\"" + logical + "\",\"clauses\":[" + inner + "]}";
    }

    private static String record(Random r) {
        return "{\"s\":" + VALUES[r.nextInt(VALUES.length)] + ",\"n\":" + VALUES[r.nextInt(VALUES.length)]
               + ",\"m\":" + (r.nextBoolean() ? "{\"k\":" + VALUES[r.nextInt(VALUES.length)] + ",\"j\":\"v\"}"
                                              : VALUES[r.nextInt(VALUES.length)])
               + ",\"l\":" + (r.nextBoolean() ? "[{\"a\":" + VALUES[r.nextInt(VALUES.length)] + "},{\"k\":\"x\"}]"
                                              : VALUES[r.nextInt(VALUES.length)]) + "}";
    }

    private static String query(Random r) {
        String filters = "\"filters\":[" + clause(r, 0) + (r.nextInt(4) == 0 ? "," + clause(r, 0) : "") + "]";
        switch (r.nextInt(4)) {
            case 0:
                return "{" + filters + ",\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"s\":\"s\"},\"attributes\":"
                       + "{\"operations\":[{\"type\":\"COUNT\"}]}}}";
            case 1:
                return "{" + filters + ",\"aggregation\":{\"type\":\"COUNT DISTINCT\",\"fields\":{\"n\":\"n\"}}}";
            default:
                return "{" + filters + ",\"aggregation\":{\"type\":\"RAW\",\"size\":" + (1 + r.nextInt(30)) + "}}";
        }
    }

    @Test
    void everyMatchingQueryIsACandidate() {
        Random r = new Random(2026);
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        RecordDecoder decoder = new RecordDecoder();
        for (int round = 0; round < 200; round++) {
            QueryIndex<Integer> index = new QueryIndex<>();
            List<RecordPredicate> predicates = new ArrayList<>();
            for (int q = 0; q < 60; q++) {
                String json = query(r);
                QueryParser.Result parsed = parser.parse(json);
                assertTrue(parsed.isValid(), json + " " + parsed.errors());
                predicates.add(Predicates.compile(parsed.query().filter()));
                index.add(q, parsed.query().filter());
            }
            for (int q = 0; q < 60; q += 5) {
                assertTrue(index.remove(q));
                predicates.set(q, record -> false);
            }
            Set<Integer> present = new HashSet<>();
            for (int q = 0; q < 60; q++) {
                if (q % 5 != 0) {
                    present.add(q);
                }
            }
            for (int k = 0; k < 100; k++) {
                if (k % 7 == 6) { // queries come and go between records: nothing remembered may outlive them
                    int gone = new ArrayList<>(present).get(r.nextInt(present.size()));
                    assertTrue(index.remove(gone));
                    present.remove(gone);
                    predicates.set(gone, record -> false);
                    String json = query(r);
                    QueryParser.Result parsed = parser.parse(json);
                    int id = predicates.size();
                    predicates.add(Predicates.compile(parsed.query().filter()));
                    index.add(id, parsed.query().filter());
                    present.add(id);
                }
                String json = record(r);
                checkCandidates(index, predicates, present, json, decoder);
            }
        }
    }

    /**
     * Hands the record to the index and checks what it hands out: only running queries ({@code present}; null: any),
     * every query that matches among them, every decided one a match. Returns how many it decided.
     */
    private static int checkCandidates(QueryIndex<Integer> index, List<RecordPredicate> predicates, Set<Integer> present,
                                       String json, RecordDecoder decoder) {
        Record rec = decoder.decode(json);
        Set<Integer> candidates = new HashSet<>();
        Set<Integer> matched = new HashSet<>();
        index.candidates(rec, candidates::add, matched::add);
        if (present != null) {
            assertTrue(present.containsAll(candidates) && present.containsAll(matched),
                       "only running queries are handed out: " + candidates + " " + matched);
        }
        for (int q = 0; q < predicates.size(); q++) {
            boolean matches = predicates.get(q).test(rec);
            if (matches) {
                assertTrue(candidates.contains(q) || matched.contains(q),
                           "query " + q + " matches " + json + " but was not a candidate");
            }
            if (matched.contains(q)) { // the index decided it: it must be right
                assertTrue(matches, "query " + q + " was decided a match for " + json + " but does not match");
            }
        }
        return matched.size();
    }

    @Test
    void resultsAreIdenticalWithAndWithoutEachOptimisation() {
        Random r = new Random(99);
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        List<EnumSet<IndexFeature>> variants = new ArrayList<>();
        variants.add(EnumSet.noneOf(IndexFeature.class));
        for (IndexFeature f : IndexFeature.values()) {
            EnumSet<IndexFeature> without = IndexFeature.all();
            without.remove(f);
            variants.add(without);
        }
        int partials = 0;
        for (int round = 0; round < 40; round++) {
            List<Query> queries = new ArrayList<>();
            for (int q = 0; q < 80; q++) {
                // duplicates, so that shared evaluation has work to share
                String json = q > 0 && r.nextInt(4) == 0 ? queries.get(r.nextInt(q)).original().toString() : query(r);
                QueryParser.Result parsed = parser.parse(json);
                assertTrue(parsed.isValid(), json + " " + parsed.errors());
                queries.add(parsed.query());
            }
            List<String> records = new ArrayList<>();
            for (int k = 0; k < 300; k++) {
                records.add(record(r));
            }
            List<FilterEngine.Partial> expected = run(new FilterEngine(QuerySettings.defaults(), IndexFeature.all()),
                                                      queries, records);
            partials += expected.size();
            for (EnumSet<IndexFeature> features : variants) {
                List<FilterEngine.Partial> actual = run(new FilterEngine(QuerySettings.defaults(), features), queries, records);
                assertEquals(expected.size(), actual.size(), "partials with " + features);
                for (int i = 0; i < expected.size(); i++) {
                    assertEquals(expected.get(i).id(), actual.get(i).id(), "with " + features);
                    assertEquals(expected.get(i).last(), actual.get(i).last(), "with " + features);
                    assertArrayEquals(expected.get(i).data(), actual.get(i).data(),
                                      "partial of " + expected.get(i).id() + " with " + features + ": "
                                      + queries.get(Integer.parseInt(expected.get(i).id().substring(1))).original());
                }
            }
            // every optimisation, and ANDs moved between their conjuncts every 20 records (FilterEngine.adapt)
            FilterEngine adapting = new FilterEngine(QuerySettings.defaults(), IndexFeature.all());
            adapting.adaptWindow(20);
            List<FilterEngine.Partial> moved = run(adapting, queries, records);
            assertEquals(expected.size(), moved.size(), "partials while placements move");
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.get(i).id(), moved.get(i).id());
                assertArrayEquals(expected.get(i).data(), moved.get(i).data(), "partial of " + expected.get(i).id()
                                  + " while placements move: "
                                  + queries.get(Integer.parseInt(expected.get(i).id().substring(1))).original());
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

    /**
     * Queries joining a shared group while records flow: the evaluator's partial so far goes to the earlier members
     * first, so every query's merged result equals the one it gets evaluated alone.
     */
    @Test
    void queriesJoiningASharedGroupLateGetOnlyTheirOwnRecords() {
        Random r = new Random(5);
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        for (int round = 0; round < 30; round++) {
            List<Query> queries = new ArrayList<>();
            for (int q = 0; q < 40; q++) {
                String json = q > 0 && r.nextInt(2) == 0 ? queries.get(r.nextInt(q)).original().toString() : query(r);
                queries.add(parser.parse(json).query());
            }
            List<String> records = new ArrayList<>();
            for (int k = 0; k < 400; k++) {
                records.add(record(r));
            }
            Map<String, List<Map<String, Object>>> shared =
                    merged(new FilterEngine(QuerySettings.defaults(), IndexFeature.all()), queries, records, r.nextLong());
            EnumSet<IndexFeature> alone = IndexFeature.all();
            alone.remove(IndexFeature.SHARED);
            assertEquals(merged(new FilterEngine(QuerySettings.defaults(), alone), queries, records, 0L).toString(),
                         shared.toString());
        }
    }

    /** Adds the queries over time (one every few records), then merges every query's partials as its Join would. */
    private static Map<String, List<Map<String, Object>>> merged(FilterEngine engine, List<Query> queries,
                                                                                   List<String> records, long unused) {
        RecordDecoder decoder = new RecordDecoder();
        Map<String, Aggregator> joins = new TreeMap<>();
        List<FilterEngine.Partial> out = new ArrayList<>();
        for (int k = 0; k < records.size(); k++) {
            if (k % 10 == 0 && k / 10 < queries.size()) {
                int q = k / 10;
                engine.add("q" + q, queries.get(q), 0L);
                joins.put("q" + q, queries.get(q).isRaw() ? new RawAggregator(10_000)
                        : Aggregators.create(queries.get(q).aggregation(),
                                                                              QuerySettings.defaults()));
            }
            engine.consume(List.of(decoder.decode(records.get(k))), 10L, out);
            if (k % 7 == 0) {
                engine.tick(10L, out);
            }
        }
        engine.tick(10L, out);
        for (FilterEngine.Partial p : out) {
            if (p.data() != null) {
                joins.get(p.id()).combine(p.data());
            }
        }
        Map<String, List<Map<String, Object>>> result = new TreeMap<>();
        joins.forEach((id, aggregator) -> result.put(id, aggregator.records()));
        return result;
    }

    private static final String[] KEYS = {"k", "j", "a", "v", "x"};
    private static final String[] CONTAINERS = {"{\"k\":1}", "{\"j\":1,\"k\":2}", "{\"j\":1,\"a\":2,\"k\":\"v\"}",
                                                "{\"a\":{\"k\":1},\"k\":2}", "{\"a\":{\"k\":1},\"j\":2}",
                                                "{\"k\":{\"j\":1},\"k\":3}", "{\"j\":\"k\",\"v\":[\"k\"]}", "{}",
                                                "[{\"j\":1},{\"k\":2}]", "[{\"a\":{\"k\":1}},{\"j\":2}]", "[\"k\",{\"k\":1}]",
                                                "[]", "\"k\"", "3", "null", "{\"a\":{\"k\":1},\"a\":{\"j\":2}}", "[{\"k\":1,\"k\":2},{\"x\":1,\"k\":{\"j\":1}}]"};

    /**
     * A path that waits for one key only stops walking a container where it found the key: few queries a path, the key
     * anywhere (first, last, in an inner map before the top one, duplicated, in a list's maps), sizes beside or not.
     */
    @Test
    void aPathWaitingForOneKeyFindsEveryMatchAndDecidesOnlyMatches() {
        Random r = new Random(4242);
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        RecordDecoder decoder = new RecordDecoder();
        int decided = 0;
        for (int round = 0; round < 300; round++) {
            QueryIndex<Integer> index = new QueryIndex<>();
            List<RecordPredicate> predicates = new ArrayList<>();
            for (int q = 0, n = 1 + r.nextInt(3); q < n; q++) {
                String field = r.nextBoolean() ? "m" : "l";
                int kind = r.nextInt(10);
                String filter = kind < 6 ? "{\"field\":\"" + field + "\",\"operation\":\"CONTAINSKEY\",\"values\":[\""
                                           + KEYS[r.nextInt(2)] + "\"]}"
                        : kind < 8 ? "{\"operation\":\"AND\",\"clauses\":[{\"field\":\"" + field
                                     + "\",\"operation\":\"CONTAINSKEY\",\"values\":[\"k\"]},{\"field\":\"s\","
                                     + "\"operation\":\"!=\",\"values\":[\"x\"]}]}"
                        : kind < 9 ? "{\"field\":\"" + field + "\",\"operation\":\"SIZEIS\",\"values\":[\""
                                     + r.nextInt(3) + "\"]}"
                        : "{\"field\":\"" + field + "\",\"operation\":\"CONTAINSVALUE\",\"values\":[\"v\"]}";
                String json = "{\"filters\":[" + filter + "]}";
                QueryParser.Result parsed = parser.parse(json);
                assertTrue(parsed.isValid(), json + " " + parsed.errors());
                predicates.add(Predicates.compile(parsed.query().filter()));
                index.add(q, parsed.query().filter());
            }
            for (int k = 0; k < 20; k++) {
                String json = "{\"s\":\"" + KEYS[r.nextInt(KEYS.length)] + "\",\"m\":"
                              + CONTAINERS[r.nextInt(CONTAINERS.length)] + ",\"l\":"
                              + CONTAINERS[r.nextInt(CONTAINERS.length)] + "}";
                decided += checkCandidates(index, predicates, null, json, decoder);
            }
        }
        assertTrue(decided > 500, "too few decided matches to show anything: " + decided);
    }

    @Test
    void sizesAndKeysOfLargeMapsWithDuplicateKeysFindTheirQueries() {
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        RecordDecoder decoder = new RecordDecoder();
        QueryIndex<Integer> index = new QueryIndex<>();
        List<RecordPredicate> predicates = new ArrayList<>();
        for (int size = 0; size < 60; size++) {
            String json = "{\"filters\":[{\"field\":\"m\",\"operation\":\"SIZEIS\",\"values\":[\"" + size + "\"]}]}";
            predicates.add(Predicates.compile(parser.parse(json).query().filter()));
            index.add(size, parser.parse(json).query().filter());
        }
        for (int keys : new int[] {5, 31, 32, 33, 50}) {
            for (int dups : new int[] {0, 1, 3}) { // duplicate keys count once in a map's size
                StringBuilder json = new StringBuilder("{\"m\":{");
                for (int i = 0; i < keys + dups; i++) {
                    json.append(i > 0 ? "," : "").append("\"k").append(i < keys ? i : i - keys).append("\":").append(i);
                }
                json.append("}}");
                Record rec = decoder.decode(json.toString());
                Set<Integer> candidates = new HashSet<>();
                index.candidates(rec, candidates::add);
                for (int q = 0; q < predicates.size(); q++) {
                    if (predicates.get(q).test(rec)) {
                        assertTrue(candidates.contains(q), "SIZEIS " + q + " matches " + keys + " keys and " + dups
                                                           + " duplicates but was not a candidate");
                    }
                }
            }
        }
    }

    @Test
    void featuresParse() {
        assertEquals(EnumSet.of(IndexFeature.REGEX, IndexFeature.SHARED), IndexFeature.parse("regex, Shared"));
        assertEquals(IndexFeature.all(), IndexFeature.parse("all"));
        assertEquals(Arrays.asList(IndexFeature.values()).size(), IndexFeature.all().size());
    }
}

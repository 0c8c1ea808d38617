package dev.bullet.querying;

import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Isolation is an invariant: no query changes another query's results. Random sets of queries with
 * adversarial literals ({@code NaN}, {@code -NaN}, infinities, {@code -0}, {@code 1e400}, integers beyond a long,
 * empty and non-ASCII strings, duplicates, mixed types) run together in one {@link FilterEngine} (with its shared
 * index) over random records holding the same kinds of values; every query must return exactly the records that
 * evaluating it alone ({@link Predicates}) on every record matches.
 */
class IsolationDifferentialTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final String[] FIELDS = {"n", "n", "s", "m.k", "l.0.a", "m", "l"};
    private static final String[] LITERALS = {"NaN", "-NaN", "+NaN", "Infinity", "-Infinity", "+Infinity", "1e400",
                                              "-1e400", "-0", "0", "-0.0", "0.0", "1", "3", "2.5", "-3",
                                              "9223372036854775807", "9223372036854775808", "-9223372036854775809",
                                              "99999999999999999999999", "9007199254740993", "", " ", "é", "日本", "x",
                                              "true", "TRUE", "false", "1e-400", "0x1p3", "1d", "k", "a"};
    private static final String[] RECORD_VALUES = {"1", "3", "2.5", "-3", "0", "-0", "-0.0", "1e400", "-1e400",
                                                   "9223372036854775807", "9223372036854775808", "99999999999999999999999",
                                                   "9007199254740993", "\"NaN\"", "\"-NaN\"", "\"Infinity\"", "\"\"",
                                                   "\"é\"", "\"日本\"", "\"x\"", "\"3\"", "true", "false", "null",
                                                   "[1,\"x\"]", "{\"k\":1,\"a\":\"x\"}", "\"1e400\""};
    private static final String[] OPERATIONS = {"==", "!=", ">", "<", ">=", "<=", "RLIKE", "SIZEIS", "CONTAINSKEY",
                                                "CONTAINSVALUE"};
    private static final String[] REGEXES = {"", ".*", "x", "N.*", "[0-9]+", "é", "-?N.*", "x.*", "(?i).*X.*", "^x$",
                                             ".*aN", "(?i)nan"};

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String value(Random r, String op) {
        if (op.equals("RLIKE")) {
            return quote(REGEXES[r.nextInt(REGEXES.length)]);
        }
        switch (r.nextInt(12)) {
            case 0:
                return "null";
            case 1:
                return "{\"kind\":\"FIELD\",\"value\":" + quote(FIELDS[r.nextInt(FIELDS.length)]) + "}";
            case 2:
                return "{\"kind\":\"VALUE\",\"value\":" + quote(LITERALS[r.nextInt(LITERALS.length)])
                       + ",\"type\":" + quote(new String[]{"DOUBLE", "LONG", "STRING", "BOOLEAN"}[r.nextInt(4)]) + "}";
            default:
                return quote(LITERALS[r.nextInt(LITERALS.length)]);
        }
    }

    private static String clause(Random r, int depth) {
        int kind = r.nextInt(depth > 2 ? 10 : 14);
        if (kind >= 10) {
            String[] logical = {"AND", "OR", "NOT", "OR"};
            String op = logical[kind - 10];
            int n = op.equals("NOT") ? 1 : 1 + r.nextInt(3);
            StringBuilder b = new StringBuilder("{\"operation\":\"" + op + "\",\"clauses\":[");
            for (int i = 0; i < n; i++) {
                b.append(i > 0 ? "," : "").append(clause(r, depth + 1));
            }
            return b.append("]}").toString();
        }
        String op = OPERATIONS[kind < 6 ? r.nextInt(6) : r.nextInt(OPERATIONS.length)];
        StringBuilder values = new StringBuilder();
        for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
            String v = value(r, op);
            values.append(i > 0 ? "," : "").append(v);
            if (r.nextInt(8) == 0) {
                values.append(',').append(v); // duplicates
            }
        }
        return "{\"field\":" + quote(FIELDS[r.nextInt(FIELDS.length)]) + ",\"operation\":\"" + op
               + "\",\"values\":[" + values + "]}";
    }

    private static String record(Random r, int i) {
        return "{\"_i\":" + i + ",\"n\":" + RECORD_VALUES[r.nextInt(RECORD_VALUES.length)]
               + ",\"s\":" + RECORD_VALUES[r.nextInt(RECORD_VALUES.length)]
               + ",\"m\":{\"k\":" + RECORD_VALUES[r.nextInt(RECORD_VALUES.length)] + "}"
               + ",\"l\":[{\"a\":" + RECORD_VALUES[r.nextInt(RECORD_VALUES.length)] + "}]}";
    }

    @Test
    void everyQueryGetsExactlyWhatItMatchesAloneWhateverRunsNextToIt() {
        QuerySettings settings = QuerySettings.defaults();
        QueryParser parser = new QueryParser(settings);
        RecordDecoder decoder = new RecordDecoder();
        Random r = new Random(11);
        int checked = 0;
        for (int round = 0; round < 60; round++) {
            FilterEngine engine = new FilterEngine(settings);
            List<String> ids = new ArrayList<>();
            List<Query> queries = new ArrayList<>();
            addQueries(engine, parser, ids, queries, () -> "{\"filters\":[" + clause(r, 0)
                    + (r.nextInt(3) == 0 ? "," + clause(r, 0) : "")
                    + "],\"projection\":{\"fields\":{\"_i\":\"_i\"}},\"aggregation\":{\"type\":\"RAW\",\"size\":500}}");
            List<Record> records = new ArrayList<>();
            for (int i = 0; i < 120; i++) {
                records.add(decoder.decode(record(r, i)));
            }
            Map<String, List<FilterEngine.Partial>> partials = new HashMap<>();
            List<FilterEngine.Partial> out = new ArrayList<>();
            for (int from = 0; from < records.size(); from += 30) {
                engine.consume(records.subList(from, from + 30), T0 + 1, out);
            }
            engine.tick(T0 + settings.defaultDurationMs() + 1, out);
            byQuery(out, partials);
            for (int q = 0; q < ids.size(); q++) {
                RecordPredicate alone = Predicates.compile(queries.get(q).filter());
                TreeSet<Long> expected = new TreeSet<>();
                for (int i = 0; i < records.size(); i++) {
                    if (alone.test(records.get(i))) {
                        expected.add((long) i);
                    }
                }
                assertEquals(expected, results(ids.get(q), queries.get(q), settings, partials.get(ids.get(q))),
                             "query " + ids.get(q) + " of round " + round);
                checked++;
            }
        }
        assertTrue(checked > 1000, "too few valid queries were drawn: " + checked);
    }

    /**
     * The index reads records in batches of {@link FilterEngine#INDEX_BATCH}, path by path; queries must still meet
     * records in their order: a RAW query of size n returns exactly the first n records it matches, in order, however
     * the records are cut into consume calls and index batches (calls of 1 record, of a batch and one more, of several
     * batches and a part).
     */
    @Test
    void rawQueriesKeepTheFirstRecordsTheyMatchInOrderAcrossIndexBatches() {
        QuerySettings settings = QuerySettings.defaults();
        QueryParser parser = new QueryParser(settings);
        RecordDecoder decoder = new RecordDecoder();
        Random r = new Random(23);
        int batch = FilterEngine.INDEX_BATCH;
        int[][] cuts = {{1}, {batch + 1}, {batch - 1, batch}, {3 * batch + 5}, {7, 2 * batch}};
        int checked = 0;
        for (int round = 0; round < 20; round++) {
            FilterEngine engine = new FilterEngine(settings);
            List<String> ids = new ArrayList<>();
            List<Query> queries = new ArrayList<>();
            addQueries(engine, parser, ids, queries, () -> "{\"filters\":[" + clause(r, 0)
                    + "],\"projection\":{\"fields\":{\"_i\":\"_i\"}},\"aggregation\":{\"type\":\"RAW\",\"size\":"
                    + (1 + r.nextInt(6)) + "}}");
            List<Record> records = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                records.add(decoder.decode(record(r, i)));
            }
            Map<String, List<FilterEngine.Partial>> partials = new HashMap<>();
            List<FilterEngine.Partial> out = new ArrayList<>();
            int[] cut = cuts[round % cuts.length];
            for (int from = 0, k = 0; from < records.size(); k++) {
                int to = Math.min(records.size(), from + cut[k % cut.length]);
                engine.consume(records.subList(from, to), T0 + 1, out);
                from = to;
            }
            engine.tick(T0 + settings.defaultDurationMs() + 1, out);
            byQuery(out, partials);
            for (int q = 0; q < ids.size(); q++) {
                Query query = queries.get(q);
                RecordPredicate alone = Predicates.compile(query.filter());
                List<Long> expected = new ArrayList<>();
                for (int i = 0; i < records.size() && expected.size() < query.aggregation().size(); i++) {
                    if (alone.test(records.get(i))) {
                        expected.add((long) i);
                    }
                }
                assertEquals(expected, inOrder(ids.get(q), query, settings, partials.get(ids.get(q))),
                             "query " + ids.get(q) + " of round " + round);
                checked++;
            }
        }
        assertTrue(checked > 500, "too few valid queries were drawn: " + checked);
    }

    private static List<Long> inOrder(String id, Query query, QuerySettings settings, List<FilterEngine.Partial> partials) {
        JoinQuerier join = new JoinQuerier(id, query, T0, settings, 1, 1000);
        List<Result> results = new ArrayList<>();
        long end = T0 + settings.defaultDurationMs() + 1;
        for (FilterEngine.Partial p : partials == null ? List.<FilterEngine.Partial>of() : partials) {
            results.addAll(join.combine(p.data(), p.last(), end));
        }
        results.addAll(join.tick(end + 1000));
        List<Long> found = new ArrayList<>();
        for (Result result : results) {
            for (Map<String, Object> row : result.records()) {
                found.add(((Number) row.get("_i")).longValue());
            }
        }
        return found;
    }

    private static TreeSet<Long> results(String id, Query query, QuerySettings settings, List<FilterEngine.Partial> partials) {
        return new TreeSet<>(inOrder(id, query, settings, partials));
    }

    /** Draws queries until 40 valid ones run in the engine (or 200 draws): their ids and parsed queries. */
    private static void addQueries(FilterEngine engine, QueryParser parser, List<String> ids, List<Query> queries,
                                   Supplier<String> draw) {
        for (int q = 0; ids.size() < 40 && q < 200; q++) {
            String json = draw.get();
            QueryParser.Result parsed = parser.parse(json);
            if (!parsed.isValid()) {
                continue;
            }
            String id = "q" + ids.size();
            assertTrue(engine.add(id, json, T0));
            ids.add(id);
            queries.add(parsed.query());
        }
    }

    private static void byQuery(List<FilterEngine.Partial> out, Map<String, List<FilterEngine.Partial>> partials) {
        for (FilterEngine.Partial p : out) {
            partials.computeIfAbsent(p.id(), k -> new ArrayList<>()).add(p);
        }
    }
}

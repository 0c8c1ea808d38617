package dev.bullet.querying;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.index.IndexFeature;
import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Aggregations fed a batch at a time ({@link IndexFeature#BATCH}) give the partials, byte for byte, of feeding them
 * record by record: over GROUP (with and without fields, COUNT alone and with SUM/MIN/MAX/AVG), COUNT DISTINCT, TOP K
 * and DISTRIBUTION, under filters the index decides (equality, ranges, negations, CONTAINS, SIZEIS, RLIKE), filters
 * it leaves to a test (ORs, ANDs, typed literals), no filter, with expression filters (tested on the batch's matches;
 * beside a typed range clause that is the same comparison, as BQL writes {@code WHERE n > 3}, only on those it tests)
 * and beside queries that are not batched (RAW, a projection), with dashboards (identical queries) and several queries over the same fields;
 * and with the sketches at their smallest over keys of many values, so batches cross the sketches' resizes, rebuilds
 * and purges (each sketch is updated once per distinct key of a batch: {@code BatchKeys}).
 */
class BatchAggregationPropertyTest {
    /** Expression filters: on numbers (of either type, strings of digits, missing), and one on the clock. */
    private static final String[] EXPRESSIONS = {
        "{\"expression\":{\"op\":\">\",\"left\":{\"field\":\"n\"},\"right\":{\"value\":0,\"type\":\"INTEGER\"}}}",
        "{\"expression\":{\"op\":\"<=\",\"left\":{\"field\":\"d\"},\"right\":{\"value\":2.5,\"type\":\"DOUBLE\"}}}",
        "{\"expression\":{\"op\":\"!=\",\"left\":{\"field\":\"id\"},\"right\":{\"value\":7,\"type\":\"LONG\"}}}",
    };
    private static final String[] WORDS = {"alpha", "bravo", "charlie", "delta", "echo", "\u00e9t\u00e9", "a\\\"q", "7"};

    @Test
    void batchedAggregationsGiveThePartialsOfRecordByRecord() {
        compareEngines(new Random(23), QuerySettings.defaults(), false, 25, 2_000);
    }

    /**
     * With sketches as small as the settings allow, keys of up to a thousand values (a record's id) and records read
     * from their bytes, as the firehose's are: batches whose sketch updates cross resizes, rebuilds and purges.
     */
    @Test
    void batchedSketchesAtTheirBoundsGiveThePartialsOfRecordByRecord() {
        QuerySettings small = QuerySettings.from(BulletSettings.defaults().withOverrides(Map.of(
                SettingsTable.TOP_K_SKETCH_ENTRIES, 16, SettingsTable.GROUP_SKETCH_ENTRIES, 16,
                SettingsTable.COUNT_DISTINCT_SKETCH_ENTRIES, 16)));
        compareEngines(new Random(29), small, true, 12, 1_000);
    }

    private static void compareEngines(Random r, QuerySettings settings, boolean wide, int rounds, int minPartials) {
        QueryParser parser = new QueryParser(settings);
        EnumSet<IndexFeature> unbatched = IndexFeature.all();
        unbatched.remove(IndexFeature.BATCH);
        EnumSet<IndexFeature> batchedOnly = EnumSet.of(IndexFeature.BATCH);
        int partials = 0;
        for (int round = 0; round < rounds; round++) {
            List<Query> queries = new ArrayList<>();
            while (queries.size() < 80) {
                Query query = parse(parser, query(r, wide));
                if (query != null) {
                    int copies = r.nextInt(8) == 0 ? 3 : 1; // a dashboard opened by several
                    for (int c = 0; c < copies; c++) {
                        queries.add(query);
                    }
                }
            }
            List<String> records = new ArrayList<>();
            for (int k = 0; k < 400; k++) {
                records.add(record(r));
            }
            int batch = 40 + r.nextInt(200);
            List<FilterEngine.Partial> expected = run(new FilterEngine(settings, unbatched), queries, records, batch, wide);
            List<FilterEngine.Partial> plain = run(new FilterEngine(settings, EnumSet.noneOf(IndexFeature.class)),
                                                   queries, records, batch, wide);
            partials += expected.size();
            for (EnumSet<IndexFeature> features : List.of(IndexFeature.all(), batchedOnly)) {
                List<FilterEngine.Partial> actual = run(new FilterEngine(settings, features), queries, records, batch, wide);
                compare(features.contains(IndexFeature.SHARED) ? expected : plain, actual, queries, features);
            }
        }
        assertTrue(partials > minPartials, "too few partials compared: " + partials);
    }

    private static void compare(List<FilterEngine.Partial> expected, List<FilterEngine.Partial> actual,
                                List<Query> queries, EnumSet<IndexFeature> features) {
        assertEquals(expected.size(), actual.size(), "partials with " + features);
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i).id(), actual.get(i).id(), "with " + features);
            assertArrayEquals(expected.get(i).data(), actual.get(i).data(), "partial of " + expected.get(i).id() + " with "
                              + features + ": " + queries.get(Integer.parseInt(expected.get(i).id().substring(1))).original());
        }
    }

    private static String query(Random r, boolean wide) {
        String filter = r.nextInt(8) == 0 ? "" : "\"filters\":[" + filter(r, 0) + "],";
        if (r.nextInt(5) == 0) { // BQL's WHERE f > k: the typed range clause and the same comparison as an expression
            String field = r.nextBoolean() ? "n" : "d";
            String op = new String[] {">", ">=", "<", "<="}[r.nextInt(4)];
            String type = r.nextBoolean() ? "LONG" : "INTEGER";
            int k = r.nextInt(21) - 10;
            filter = "\"filters\":[" + clause(field, op, "{\"kind\":\"VALUE\",\"value\":\"" + k + "\",\"type\":\"" + type
                     + "\"}") + ",{\"expression\":{\"op\":\"" + op + "\",\"left\":{\"field\":\"" + field
                     + "\"},\"right\":{\"value\":" + k + ",\"type\":\"" + type + "\"}}}],";
        }
        if (r.nextInt(4) == 0) { // an expression filter (BQL's beside each comparison with a number), alone or beside
            String expression = EXPRESSIONS[r.nextInt(EXPRESSIONS.length)];
            filter = filter.isEmpty() ? "\"filters\":[" + expression + "]," : filter.replace("\"filters\":[",
                                                                                      "\"filters\":[" + expression + ",");
        }
        String fields = wide && r.nextBoolean() ? (r.nextBoolean() ? "{\"id\":\"id\"}" : "{\"s\":\"s\",\"id\":\"id\"}")
                        : r.nextBoolean() ? "{\"s\":\"s\"}" : r.nextBoolean() ? "{\"m.k\":\"k\"}" : "{\"s\":\"s\",\"n\":\"n\"}";
        switch (r.nextInt(9)) {
            case 0:
                return "{" + filter + "\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":[{\"type\":"
                       + "\"COUNT\"}]}}}";
            case 1:
                return "{" + filter + "\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":[{\"type\":"
                       + "\"COUNT\"},{\"type\":\"SUM\",\"field\":\"n\"},{\"type\":\"AVG\",\"field\":\"d\"},{\"type\":"
                       + "\"MIN\",\"field\":\"d\"},{\"type\":\"MAX\",\"field\":\"n\"}]}}}";
            case 2:
                return "{" + filter + "\"aggregation\":{\"type\":\"GROUP\",\"fields\":" + fields + ",\"attributes\":"
                       + "{\"operations\":[{\"type\":\"COUNT\"},{\"type\":\"AVG\",\"field\":\"d\"}]}}}";
            case 3:
                return "{" + filter + "\"aggregation\":{\"type\":\"COUNT DISTINCT\",\"fields\":" + fields + "}}";
            case 4:
                return "{" + filter + "\"aggregation\":{\"type\":\"TOP K\",\"size\":3,\"fields\":" + fields + "}}";
            case 5:
                return "{" + filter + "\"aggregation\":{\"type\":\"DISTRIBUTION\",\"fields\":{\"d\":\"v\"},"
                       + "\"attributes\":{\"type\":\"QUANTILE\",\"points\":[0.5,0.9]}}}";
            case 6:
                // not batched: a projection
                return "{" + filter + "\"projection\":{\"fields\":{\"s\":\"s\",\"n\":\"n\"}},\"aggregation\":{\"type\":"
                       + "\"GROUP\",\"fields\":{\"s\":\"s\"},\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}}}";
            case 7:
                return "{" + filter + "\"aggregation\":{\"type\":\"RAW\",\"size\":" + (1 + r.nextInt(30)) + "}}";
            default:
                return "{" + filter + "\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"s\":\"s\"},\"attributes\":"
                       + "{\"operations\":[{\"type\":\"COUNT\"},{\"type\":\"SUM\",\"field\":\"n\"}]}}}";
        }
    }

    private static String filter(Random r, int depth) {
        int kind = r.nextInt(depth > 0 ? 9 : 11);
        String word = WORDS[r.nextInt(WORDS.length)];
        switch (kind) {
            case 0:
                return clause("s", "==", "\"" + word + "\"");
            case 1:
                return clause("s", "!=", "\"" + word + "\"");
            case 2:
                return "{\"operation\":\"NOT\",\"clauses\":[" + clause(r.nextBoolean() ? "s" : "m.k", "==", "\"" + word
                       + "\"") + "]}";
            case 3:
                return clause(r.nextBoolean() ? "n" : "d", new String[] {">", ">=", "<", "<="}[r.nextInt(4)],
                              "\"" + (r.nextInt(21) - 10) + "\"");
            case 4:
                return clause("m", "CONTAINSKEY", "\"k\"");
            case 5:
                return clause("l", "SIZEIS", "\"" + r.nextInt(3) + "\"");
            case 6:
                return clause("s", "RLIKE", "\"" + (r.nextBoolean() ? "[a-d].*" : ".*ha.*") + "\"");
            case 7:
                return clause("m", "CONTAINSVALUE", "\"" + word + "\"");
            case 8:
                return clause("n", "!=", "{\"kind\":\"VALUE\",\"value\":\"" + (r.nextInt(5) - 2) + "\",\"type\":\"LONG\"}");
            case 9:
                return "{\"operation\":\"OR\",\"clauses\":[" + filter(r, depth + 1) + "," + filter(r, depth + 1) + "]}";
            default:
                return "{\"operation\":\"AND\",\"clauses\":[" + filter(r, depth + 1) + "," + filter(r, depth + 1) + "]}";
        }
    }

    private static String clause(String field, String op, String value) {
        return "{\"field\":\"" + field + "\",\"operation\":\"" + op + "\",\"values\":[" + value + "]}";
    }

    private static String record(Random r) {
        StringBuilder sb = new StringBuilder("{\"id\":").append(r.nextInt(1000));
        if (r.nextInt(6) > 0) {
            sb.append(",\"s\":").append(r.nextInt(10) == 0 ? String.valueOf(r.nextInt(9))
                                                          : "\"" + WORDS[r.nextInt(WORDS.length)] + "\"");
        }
        if (r.nextInt(6) > 0) {
            sb.append(",\"n\":").append(r.nextInt(10) == 0 ? "\"" + (r.nextInt(21) - 10) + "\"" : r.nextInt(21) - 10);
        }
        if (r.nextInt(6) > 0) {
            sb.append(",\"d\":").append(r.nextInt(8) == 0 ? String.valueOf(r.nextInt(7) - 3)
                                                          : String.valueOf((r.nextInt(2001) - 1000) / 97.0));
        }
        if (r.nextInt(3) > 0) {
            sb.append(",\"m\":{\"k\":\"").append(WORDS[r.nextInt(WORDS.length)]).append("\"}");
        }
        if (r.nextInt(3) > 0) {
            sb.append(",\"l\":[");
            for (int i = 0, n = r.nextInt(3); i < n; i++) {
                sb.append(i > 0 ? "," : "").append(r.nextInt(5));
            }
            sb.append(']');
        }
        return sb.append('}').toString();
    }

    private static Query parse(QueryParser parser, String json) {
        QueryParser.Result parsed = parser.parse(json);
        return parsed.isValid() ? parsed.query() : null;
    }

    /**
     * Feeds the records in batches of {@code batch}, ticking after each batch; partials in a fixed order. Records are
     * read from their bytes (lazily) with {@code fromBytes}, else decoded at once.
     */
    private static List<FilterEngine.Partial> run(FilterEngine engine, List<Query> queries, List<String> records, int batch,
                                                  boolean fromBytes) {
        for (int q = 0; q < queries.size(); q++) {
            engine.add("q" + q, queries.get(q), 0L);
        }
        RecordDecoder decoder = new RecordDecoder();
        List<FilterEngine.Partial> out = new ArrayList<>();
        for (int start = 0; start < records.size(); start += batch) {
            List<Record> records1 = new ArrayList<>();
            for (String json : records.subList(start, Math.min(records.size(), start + batch))) {
                records1.add(fromBytes ? decoder.decode(json.getBytes(StandardCharsets.UTF_8)) : decoder.decode(json));
            }
            List<FilterEngine.Partial> step = new ArrayList<>();
            engine.consume(records1, 10L + start, step);
            engine.tick(10L + start, step);
            step.sort((a, b) -> a.id().compareTo(b.id()) != 0 ? a.id().compareTo(b.id())
                    : Boolean.compare(a.data() == null, b.data() == null));
            out.addAll(step);
        }
        return out;
    }
}

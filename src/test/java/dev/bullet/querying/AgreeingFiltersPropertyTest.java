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
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Queries that ride on their pool's aggregation while their filters take every record ({@link AgreeingFilters},
 * {@link IndexFeature#AGREEING}) give the partials, byte for byte, of each query aggregating on its own: filters
 * that take every record (none, a negation of a value that never comes, a key every record has), filters that leave
 * out one record somewhere in the stream (the rider goes alone there, after the batches before it are fed to it again),
 * a few, or many; batches of any size, several between partials; queries added beside a running dashboard (its
 * evaluator's partial taken between ticks) and removed mid-stream; sketches at their smallest; and the records held for
 * the riders capped low, so that the riders go alone all at once. A DISTRIBUTION's field is rare: past twice its
 * sketch's k values a quantiles sketch compacts at random (DataSketches' one unseeded generator), so its partials
 * differ from run to run whoever feeds it.
 */
class AgreeingFiltersPropertyTest {
    private static final String[] WORDS = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"};

    private static final String[] AGGREGATIONS = {
        "{\"type\":\"GROUP\",\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}}",
        "{\"type\":\"GROUP\",\"attributes\":{\"operations\":[{\"type\":\"COUNT\"},{\"type\":\"SUM\",\"field\":\"n\"},"
            + "{\"type\":\"AVG\",\"field\":\"d\"},{\"type\":\"MIN\",\"field\":\"d\"},{\"type\":\"MAX\",\"field\":\"n\"}]}}",
        "{\"type\":\"COUNT DISTINCT\",\"fields\":{\"s\":\"s\"}}",
        "{\"type\":\"COUNT DISTINCT\",\"fields\":{\"id\":\"id\"}}",
        "{\"type\":\"TOP K\",\"size\":3,\"fields\":{\"s\":\"s\"}}",
        "{\"type\":\"TOP K\",\"size\":3,\"fields\":{\"k\":\"k\"}}",
        "{\"type\":\"DISTRIBUTION\",\"fields\":{\"e\":\"v\"},\"attributes\":{\"type\":\"QUANTILE\",\"points\":[0.5,0.9]}}",
        "{\"type\":\"GROUP\",\"fields\":{\"s\":\"s\"},\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}}",
        "{\"type\":\"GROUP\",\"fields\":{\"k\":\"k\",\"s\":\"s\"},\"attributes\":{\"operations\":[{\"type\":\"COUNT\"},"
            + "{\"type\":\"SUM\",\"field\":\"n\"}]}}",
        // the same state as one above, read otherwise at the Join (size, names, points, threshold): same pool
        "{\"type\":\"COUNT DISTINCT\",\"fields\":{\"s\":\"distinct\"},\"attributes\":{\"newName\":\"n\"}}",
        "{\"type\":\"TOP K\",\"size\":7,\"fields\":{\"k\":\"key\"},\"attributes\":{\"threshold\":2}}",
        "{\"type\":\"DISTRIBUTION\",\"fields\":{\"e\":\"e\"},\"attributes\":{\"type\":\"PMF\",\"points\":[10,100]}}",
        "{\"type\":\"GROUP\",\"size\":3,\"fields\":{\"s\":\"word\"},\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}}",
    };

    @Test
    void ridersGiveThePartialsOfQueriesOnTheirOwn() {
        compare(new Random(41), QuerySettings.defaults(), Integer.MAX_VALUE, 12);
    }

    @Test
    void ridersWithSketchesAtTheirBoundsGiveThePartialsOfQueriesOnTheirOwn() {
        QuerySettings small = QuerySettings.from(BulletSettings.defaults().withOverrides(Map.of(
                SettingsTable.TOP_K_SKETCH_ENTRIES, 16, SettingsTable.GROUP_SKETCH_ENTRIES, 16,
                SettingsTable.COUNT_DISTINCT_SKETCH_ENTRIES, 16)));
        compare(new Random(43), small, Integer.MAX_VALUE, 8);
    }

    /** With at most a few batches held: the riders go alone all at once when the cap is reached. */
    @Test
    void ridersPastTheRecordsHeldGiveThePartialsOfQueriesOnTheirOwn() {
        compare(new Random(47), QuerySettings.defaults(), 150, 8);
    }

    /**
     * Members ride after partials in which their filters took every record; one that leaves a record out now and then
     * needs twice as many such partials each time it leaves, so it stops costing its pool updates and replays: one
     * whose filter leaves a record out every third partial rides after two, leaves, and needs four from then on.
     */
    @Test
    void aFilterThatLeavesRecordsOutNowAndThenStopsRiding() {
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        FilterEngine engine = new FilterEngine(QuerySettings.defaults());
        String count = "\"aggregation\":{\"type\":\"COUNT DISTINCT\",\"fields\":{\"s\":\"s\"}}}";
        for (int q = 0; q < 3; q++) { // filters every record passes
            engine.add("all" + q, parse(parser, "{\"filters\":[" + clause("s", "!=", "\"zulu" + q + "\"") + "]," + count), 0L);
        }
        for (int q = 0; q < 3; q++) { // filters that each leave out one record, met every third partial
            engine.add("most" + q, parse(parser, "{\"filters\":[" + clause("id", "!=", "\"" + (-1 - q) + "\"") + "],"
                                          + count), 0L);
        }
        RecordDecoder decoder = new RecordDecoder();
        Random r = new Random(53);
        List<FilterEngine.Partial> out = new ArrayList<>();
        List<Integer> riders = new ArrayList<>();
        for (int partial = 0; partial < 60; partial++) {
            List<Record> batch = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                batch.add(decoder.decode(record(r, i).getBytes(StandardCharsets.UTF_8)));
            }
            for (int q = 0; partial % 3 == 2 && q < 3; q++) {
                batch.set(64 + 40 * q + r.nextInt(40), decoder.decode(record(r, -1 - q).getBytes(StandardCharsets.UTF_8)));
            }
            engine.consume(batch.subList(0, 64), 10L, out); // the records before any left out
            riders.add(engine.riders());
            engine.consume(batch.subList(64, batch.size()), 10L, out);
            engine.tick(10L, out);
        }
        assertTrue(riders.subList(2, 9).stream().anyMatch(n -> n == 6), "the members that leave never rode: " + riders);
        assertEquals(List.of(3, 3, 3, 3, 3, 3, 3, 3, 3, 3), riders.subList(50, 60), "riders at the end: " + riders);
        assertEquals(1, riders.stream().filter(n -> n == 6).count(), "partials with every member riding: " + riders);
    }

    /** Aggregations read otherwise only at the Join (size, names, points, threshold) ride on one aggregation. */
    @Test
    void aggregationsReadOtherwiseOnlyAtTheJoinShareAPool() {
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        FilterEngine engine = new FilterEngine(QuerySettings.defaults());
        String[] filters = {"", "\"filters\":[" + clause("s", "!=", "\"zulu\"") + "],"};
        for (int f = 0; f < 2; f++) {
            engine.add("top" + f, parse(parser, "{" + filters[f] + "\"aggregation\":{\"type\":\"TOP K\",\"size\":" + (3 + 4 * f)
                                               + ",\"fields\":{\"k\":\"k" + f + "\"}}}"), 0L);
            engine.add("quantiles" + f, parse(parser, "{" + filters[f] + "\"aggregation\":{\"type\":\"DISTRIBUTION\","
                                                     + "\"fields\":{\"d\":\"v\"},\"attributes\":{\"type\":\""
                                                     + (f == 0 ? "QUANTILE\",\"points\":[0.5]" : "PMF\",\"points\":[0,1]")
                                                     + "}}}"), 0L);
        }
        RecordDecoder decoder = new RecordDecoder();
        Random r = new Random(59);
        List<FilterEngine.Partial> out = new ArrayList<>();
        int riders = 0;
        for (int partial = 0; partial < 4; partial++) {
            List<Record> batch = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                batch.add(decoder.decode(record(r, i).getBytes(StandardCharsets.UTF_8)));
            }
            engine.consume(batch, 10L, out);
            riders = engine.riders();
            engine.tick(10L, out);
        }
        assertEquals(4, riders);
    }

    private static void compare(Random r, QuerySettings settings, int maxHeld, int rounds) {
        QueryParser parser = new QueryParser(settings);
        EnumSet<IndexFeature> alone = IndexFeature.all();
        alone.remove(IndexFeature.AGREEING);
        long ridden = 0;
        int partials = 0;
        for (int round = 0; round < rounds; round++) {
            int records = 1_500 + r.nextInt(1_500);
            List<String> queries = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                queries.add(query(r, records));
            }
            List<String> stream = new ArrayList<>();
            for (int id = 0; id < records; id++) {
                stream.add(record(r, id));
            }
            long seed = r.nextLong();
            FilterEngine expectedEngine = new FilterEngine(settings, alone);
            FilterEngine actualEngine = new FilterEngine(settings, IndexFeature.all());
            actualEngine.maxHeldForRiders(maxHeld);
            List<String> expected = run(expectedEngine, parser, queries, stream, new Random(seed), null);
            long[] riders = new long[1];
            List<String> actual = run(actualEngine, parser, queries, stream, new Random(seed), riders);
            assertEquals(0, riders(expectedEngine));
            ridden += riders[0];
            partials += expected.size();
            assertEquals(expected.size(), actual.size(), "partials in round " + round);
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.get(i), actual.get(i), "partial " + i + " of round " + round + " of " + queryOf(queries, expected.get(i)));
            }
        }
        assertTrue(partials > 1_000, "too few partials compared: " + partials);
        assertTrue(ridden > 100, "too few riders: " + ridden);
    }

    /** The query a partial ("step id bytes") is of, as sent. */
    private static String queryOf(List<String> queries, String partial) {
        int id = Integer.parseInt(partial.split(" ")[1].substring(1));
        return id < queries.size() ? queries.get(id) : "a query added mid-stream";
    }

    private static int riders(FilterEngine engine) {
        return engine.riders();
    }

    /** A query whose filter takes every record, all but one ({@code id} of the stream), or a few. */
    private static String query(Random r, int records) {
        String filter;
        switch (r.nextInt(8)) {
            case 0:
                filter = "";
                break;
            case 1:
                filter = clause("s", "!=", "\"zulu\"");
                break;
            case 2:
                filter = "{\"operation\":\"NOT\",\"clauses\":[" + clause("s", "==", "\"yankee\"") + "]}";
                break;
            case 3:
                filter = clause("m", "CONTAINSKEY", "\"k\"");
                break;
            case 4:
                filter = clause("id", "!=", "\"" + r.nextInt(records) + "\"");
                break;
            case 5:
                filter = clause("id", "<", "\"" + r.nextInt(records) + "\"");
                break;
            case 6:
                filter = clause("s", "!=", "\"" + WORDS[r.nextInt(WORDS.length)] + "\"");
                break;
            default:
                filter = clause("s", "==", "\"" + WORDS[r.nextInt(WORDS.length)] + "\"");
                break;
        }
        String filters = filter.isEmpty() ? "" : "\"filters\":[" + filter + "],";
        return "{" + filters + "\"aggregation\":" + AGGREGATIONS[r.nextInt(AGGREGATIONS.length)] + "}";
    }

    private static String clause(String field, String op, String value) {
        return "{\"field\":\"" + field + "\",\"operation\":\"" + op + "\",\"values\":[" + value + "]}";
    }

    private static String record(Random r, int id) {
        StringBuilder sb = new StringBuilder("{\"id\":").append(id);
        sb.append(",\"s\":\"").append(WORDS[r.nextInt(WORDS.length)]).append('"');
        if (r.nextInt(8) > 0) {
            sb.append(",\"n\":").append(r.nextInt(2001) - 1000);
        }
        sb.append(",\"d\":").append((r.nextInt(20001) - 10000) / 97.0);
        if (r.nextInt(20) == 0) {
            sb.append(",\"e\":").append(r.nextInt(1000));
        }
        sb.append(",\"k\":\"v").append(r.nextInt(200)).append('"');
        sb.append(",\"m\":{\"k\":").append(r.nextInt(5)).append('}');
        return sb.append('}').toString();
    }

    /**
     * Feeds the stream in batches of random sizes, ticking after some; between batches adds a copy of a running query
     * (it joins its dashboard) or a new one, or removes one. Each step's partials, sorted, as "step id bytes".
     */
    private static List<String> run(FilterEngine engine, QueryParser parser, List<String> queries, List<String> stream,
                                    Random r, long[] riders) {
        int next = 0;
        for (String query : queries) {
            engine.add("q" + next++, parse(parser, query), 0L);
        }
        List<String> running = new ArrayList<>();
        for (int i = 0; i < next; i++) {
            running.add("q" + i);
        }
        RecordDecoder decoder = new RecordDecoder();
        List<String> out = new ArrayList<>();
        int step = 0;
        for (int start = 0; start < stream.size(); step++) {
            int end = Math.min(stream.size(), start + 1 + r.nextInt(r.nextBoolean() ? 64 : 300));
            List<Record> batch = new ArrayList<>();
            for (String json : stream.subList(start, end)) {
                batch.add(decoder.decode(json.getBytes(StandardCharsets.UTF_8)));
            }
            start = end;
            List<FilterEngine.Partial> partials = new ArrayList<>();
            engine.consume(batch, 10L, partials);
            if (riders != null) {
                riders[0] += engine.riders();
            }
            if (r.nextInt(3) == 0) {
                engine.tick(10L, partials);
            }
            int change = r.nextInt(10);
            if (change == 0) {
                String copied = queries.get(r.nextInt(queries.size()));
                engine.add("q" + next, parse(parser, copied), 0L);
                running.add("q" + next++);
            } else if (change == 1 && !running.isEmpty()) {
                engine.remove(running.remove(r.nextInt(running.size())));
            }
            record(out, step, partials);
        }
        List<FilterEngine.Partial> last = new ArrayList<>();
        engine.tick(10L, last);
        record(out, step, last);
        return out;
    }

    private static void record(List<String> out, int step, List<FilterEngine.Partial> partials) {
        partials.sort((a, b) -> a.id().compareTo(b.id()));
        for (FilterEngine.Partial p : partials) {
            out.add(step + " " + p.id() + " " + (p.data() == null ? "none" : Arrays.toString(p.data())));
        }
    }

    private static Query parse(QueryParser parser, String json) {
        QueryParser.Result parsed = parser.parse(json);
        assertTrue(parsed.isValid(), json + ": " + parsed.errors());
        return parsed.query();
    }
}

package dev.bullet.querying;

import dev.bullet.query.Query;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.testing.Queries;
import dev.bullet.testing.Records;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Filter/Join protocol (SPEC §3.4, §3.5, §6.4): the same records split round-robin over 1, 2 and 4
 * {@link FilterQuerier}s, their partials shipped into one {@link JoinQuerier}, give exactly the single-pass result for
 * exact aggregations and sketches below capacity, and stay within the reported bounds above capacity.
 */
class FilterJoinSplitTest {
    private static final long T0 = 1_600_000_000_000L;
    private static final long DURATION = 30_000L; // the default duration
    private static final List<Record> RECORDS = records(600, 7);
    /** Sketches large enough to hold every value of {@link #RECORDS}: every result is exact. */
    private static final QuerySettings LARGE = Queries.withSketchEntries(16_384, 512, 1024, 1024);

    /** Records with a few groups, numbers of both kinds, missing and null values. */
    private static List<Record> records(int count, long seed) {
        Random random = new Random(seed);
        String[] colors = {"red", "green", "blue", "black", "white"};
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Records r = Records.of("id", "r" + i, "color", colors[random.nextInt(colors.length)], "size", (long) random.nextInt(4));
            int kind = random.nextInt(10);
            if (kind < 6) {
                r.put("v", (long) random.nextInt(1000));
            } else if (kind < 9) {
                r.put("v", random.nextInt(100_000) / 100.0);
            } else if (kind == 9 && i % 2 == 0) {
                r.put("v", null);
            }
            r.map("m", "k", "key" + random.nextInt(30));
            records.add(r.build());
        }
        return records;
    }

    /** Runs the query over the records split over {@code partitions} Filter tasks; returns every result. */
    static List<Result> run(String json, QuerySettings settings, List<Record> records, int partitions) {
        Query query = Queries.parse(json, settings);
        List<FilterQuerier> filters = new ArrayList<>();
        for (int i = 0; i < partitions; i++) {
            filters.add(new FilterQuerier("q", query, T0, settings));
        }
        JoinQuerier join = new JoinQuerier("q", query, T0, settings, partitions, 1000);
        List<Result> results = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            long now = T0 + 1 + i;
            filters.get(i % partitions).consume(records.get(i), now);
            // every 25 records each Filter task ships what it has (a tick), in turn
            if (i % 25 == 24) {
                for (FilterQuerier f : filters) {
                    results.addAll(join.combine(f.takePartial(), false, now));
                }
            }
        }
        long end = T0 + DURATION;
        for (FilterQuerier f : filters) {
            assertTrue(f.isExpired(end));
            results.addAll(join.combine(f.takePartial(), true, end));
        }
        results.addAll(join.tick(end));
        assertTrue(join.isDone());
        return results;
    }

    private static Result finalResult(String json, QuerySettings settings, List<Record> records, int partitions) {
        List<Result> results = run(json, settings, records, partitions);
        assertEquals(1, results.size(), "no window: one final result");
        assertTrue(results.get(0).isFinal());
        return results.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> sketches(Result r) {
        return (Map<String, Object>) r.meta().getOrDefault("sketches", Map.of());
    }

    @SuppressWarnings("unchecked")
    private static double bound(Result r, String sd, String which) {
        Map<String, Map<String, Double>> sds = (Map<String, Map<String, Double>>) sketches(r).get("standard_deviations");
        return sds.get(sd).get(which);
    }

    // ------------------------------------------------------------------------------ exact: equals one pass

    static Stream<Arguments> exactAggregations() {
        String[] queries = {
            "{\"aggregation\": {\"type\": \"RAW\", \"size\": 500},"
            + " \"filters\": [{\"field\": \"color\", \"operation\": \"==\", \"values\": [\"red\", \"blue\"]}]}",
            "{\"aggregation\": {\"type\": \"GROUP\", \"fields\": {\"color\": \"color\", \"size\": \"size\"}, \"attributes\": {\"operations\": ["
            + "{\"type\": \"COUNT\"}, {\"type\": \"SUM\", \"field\": \"v\"}, {\"type\": \"MIN\", \"field\": \"v\"},"
            + " {\"type\": \"MAX\", \"field\": \"v\"}, {\"type\": \"AVG\", \"field\": \"v\"}]}}}",
            "{\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\": ["
            + "{\"type\": \"COUNT\"}, {\"type\": \"SUM\", \"field\": \"size\"}, {\"type\": \"MIN\", \"field\": \"v\"},"
            + " {\"type\": \"MAX\", \"field\": \"v\"}, {\"type\": \"AVG\", \"field\": \"size\"}]}}}",
            "{\"aggregation\": {\"type\": \"GROUP\", \"fields\": {\"m.k\": \"k\"}}}",
            "{\"aggregation\": {\"type\": \"COUNT DISTINCT\", \"fields\": {\"color\": \"c\", \"m.k\": \"k\"}}}",
            "{\"aggregation\": {\"type\": \"DISTRIBUTION\", \"fields\": {\"v\": \"v\"}, \"attributes\": {\"type\": \"QUANTILE\", \"points\": [0, 0.1, 0.5, 0.9, 1]}}}",
            "{\"aggregation\": {\"type\": \"DISTRIBUTION\", \"fields\": {\"v\": \"v\"}, \"attributes\": {\"type\": \"PMF\", \"points\": [10, 100, 500, 900]}}}",
            "{\"aggregation\": {\"type\": \"DISTRIBUTION\", \"fields\": {\"v\": \"v\"}, \"attributes\": {\"type\": \"CDF\", \"numberOfPoints\": 7}}}",
            "{\"aggregation\": {\"type\": \"TOP K\", \"size\": 5, \"fields\": {\"m.k\": \"k\", \"size\": \"s\"}}}",
            "{\"aggregation\": {\"type\": \"TOP K\", \"size\": 50, \"fields\": {\"color\": \"c\"}, \"attributes\": {\"threshold\": 100}}}",
        };
        List<Arguments> arguments = new ArrayList<>();
        for (String q : queries) {
            for (int partitions : new int[] {1, 2, 4}) {
                arguments.add(Arguments.of(q, partitions));
            }
        }
        return arguments.stream();
    }

    @ParameterizedTest(name = "[{index}] {1} partitions: {0}")
    @MethodSource("exactAggregations")
    void splitResultEqualsTheSinglePass(String json, int partitions) {
        QuerySettings settings = LARGE;
        Result single = finalResult(json, settings, RECORDS, 1);
        Result split = finalResult(json, settings, RECORDS, partitions);
        if (Queries.parse(json).isRaw()) {
            assertEquals(multiset(single.records()), multiset(split.records()), "the same records, in any order");
        } else {
            assertSameRows(single.records(), split.records());
        }
        assertFalse(single.records().isEmpty());
        assertEquals(false, sketches(split).getOrDefault("was_estimated", false));
    }

    /**
     * Equal rows, value types included; doubles may differ in the last bits only, since a sum of doubles depends on
     * the order it was added in, and the partitions add in another order than the single pass.
     */
    private static void assertSameRows(List<Map<String, Object>> expected, List<Map<String, Object>> actual) {
        assertEquals(expected.size(), actual.size(), () -> expected + " vs " + actual);
        for (int i = 0; i < expected.size(); i++) {
            Map<String, Object> e = expected.get(i);
            Map<String, Object> a = actual.get(i);
            assertEquals(List.copyOf(e.keySet()), List.copyOf(a.keySet()));
            for (String key : e.keySet()) {
                Object x = e.get(key);
                Object y = a.get(key);
                if (x instanceof Double && y instanceof Double) {
                    double tolerance = 1e-12 * Math.max(1.0, Math.abs((Double) x));
                    assertEquals((Double) x, (Double) y, tolerance, key + " of " + e + " vs " + a);
                } else {
                    assertEquals(x, y, key + " of " + e + " vs " + a);
                }
            }
        }
    }

    private static Map<Map<String, Object>, Integer> multiset(List<Map<String, Object>> rows) {
        Map<Map<String, Object>, Integer> counts = new HashMap<>();
        rows.forEach(r -> counts.merge(r, 1, Integer::sum));
        return counts;
    }

    @ParameterizedTest(name = "{0} partitions")
    @ValueSource(ints = {1, 2, 4})
    void rawStopsAtSizeRecordsWhicheverPartitionsFoundThem(int partitions) {
        String json = "{\"aggregation\": {\"type\": \"RAW\", \"size\": 40}, \"filters\": [{\"field\": \"size\", \"operation\": \">\", \"values\": [\"0\"]}]}";
        List<Result> results = run(json, LARGE, RECORDS, partitions);
        assertEquals(1, results.size());
        List<Map<String, Object>> rows = results.get(0).records();
        assertEquals(40, rows.size());
        Set<Map<String, Object>> matching = new HashSet<>();
        RECORDS.stream().filter(r -> (Long) r.asMap().get("size") > 0).forEach(r -> matching.add(r.asMap()));
        assertTrue(matching.containsAll(rows));
        assertEquals(40, new HashSet<>(rows).size(), "no record twice");
    }

    @ParameterizedTest(name = "{0} partitions")
    @ValueSource(ints = {1, 2, 4})
    void groupMetricsEqualAnIndependentCount(int partitions) {
        String json = "{\"aggregation\": {\"type\": \"GROUP\", \"fields\": {\"color\": \"color\"}, \"attributes\": {\"operations\": ["
                      + "{\"type\": \"COUNT\"}, {\"type\": \"SUM\", \"field\": \"size\"}]}}}";
        Map<String, long[]> truth = new TreeMap<>();
        for (Record r : RECORDS) {
            long[] t = truth.computeIfAbsent((String) r.asMap().get("color"), k -> new long[2]);
            t[0]++;
            t[1] += (Long) r.asMap().get("size");
        }
        Result result = finalResult(json, LARGE, RECORDS, partitions);
        assertEquals(truth.size(), result.records().size());
        for (Map<String, Object> row : result.records()) {
            long[] t = truth.get((String) row.get("color"));
            assertEquals(t[0], row.get("COUNT"));
            assertEquals(t[1], row.get("SUM_size"));
        }
    }

    @ParameterizedTest(name = "{0} partitions")
    @ValueSource(ints = {1, 2, 4})
    void countDistinctEqualsAnIndependentCount(int partitions) {
        Set<List<Object>> truth = new HashSet<>();
        RECORDS.forEach(r -> truth.add(List.of(r.asMap().get("color"), ((Map<?, ?>) r.asMap().get("m")).get("k"))));
        Result result = finalResult("{\"aggregation\": {\"type\": \"COUNT DISTINCT\", \"fields\": {\"color\": \"c\", \"m.k\": \"k\"}}}",
                                    LARGE, RECORDS, partitions);
        assertEquals((long) truth.size(), result.records().get(0).get("COUNT DISTINCT"));
    }

    // ------------------------------------------------------------------- beyond capacity: within bounds

    private static final QuerySettings SMALL = Queries.withSketchEntries(16, 16, 16, 16);
    private static final List<Record> MANY = manyRecords();

    /** 4000 records: u unique, g in 0..299 (g = i % 300), x = a permutation of 0..3999, h heavy for a third. */
    private static List<Record> manyRecords() {
        List<Record> records = new ArrayList<>();
        for (long i = 0; i < 4000; i++) {
            records.add(Records.of("u", "u" + i, "g", i % 300, "x", (i * 2654435761L) % 4000, "n", i % 7,
                                   "h", i % 3 == 0 ? "heavy" + (i % 4) : "rare" + i).build());
        }
        return records;
    }

    @ParameterizedTest(name = "{0} partitions")
    @ValueSource(ints = {1, 2, 4})
    void countDistinctBeyondCapacityIsWithinThreeStandardDeviations(int partitions) {
        Result r = finalResult("{\"aggregation\": {\"type\": \"COUNT DISTINCT\", \"fields\": {\"u\": \"u\"}}}", SMALL, MANY, partitions);
        assertEquals(true, sketches(r).get("was_estimated"));
        double estimate = (Double) r.records().get(0).get("COUNT DISTINCT");
        assertTrue(bound(r, "3", "lowerBound") <= 4000 && 4000 <= bound(r, "3", "upperBound"),
                   "4000 within " + sketches(r).get("standard_deviations"));
        assertTrue(bound(r, "3", "lowerBound") <= estimate && estimate <= bound(r, "3", "upperBound"));
    }

    @ParameterizedTest(name = "{0} partitions")
    @ValueSource(ints = {1, 2, 4})
    void groupBeyondCapacityIsAnExactSampleOfGroups(int partitions) {
        String json = "{\"aggregation\": {\"type\": \"GROUP\", \"fields\": {\"g\": \"g\"}, \"attributes\": {\"operations\": ["
                      + "{\"type\": \"COUNT\"}, {\"type\": \"SUM\", \"field\": \"n\"}]}}}";
        Result r = finalResult(json, SMALL, MANY, partitions);
        assertEquals(true, sketches(r).get("was_estimated"));
        assertTrue(bound(r, "3", "lowerBound") <= 300 && 300 <= bound(r, "3", "upperBound"),
                   "300 groups within " + sketches(r).get("standard_deviations"));
        Map<Long, long[]> truth = new HashMap<>();
        for (Record rec : MANY) {
            long[] t = truth.computeIfAbsent((Long) rec.asMap().get("g"), k -> new long[2]);
            t[0]++;
            t[1] += (Long) rec.asMap().get("n");
        }
        assertFalse(r.records().isEmpty());
        assertTrue(r.records().size() < 300);
        for (Map<String, Object> row : r.records()) {
            long[] t = truth.get((Long) row.get("g"));
            assertEquals(t[0], row.get("COUNT"), "a sampled group's metrics are exact: " + row);
            assertEquals(t[1], row.get("SUM_n"), "a sampled group's metrics are exact: " + row);
        }
    }

    @ParameterizedTest(name = "{0} partitions")
    @ValueSource(ints = {1, 2, 4})
    void quantilesBeyondCapacityAreWithinTheRankError(int partitions) {
        Result r = finalResult("{\"aggregation\": {\"type\": \"DISTRIBUTION\", \"fields\": {\"x\": \"x\"}, \"attributes\": "
                               + "{\"type\": \"QUANTILE\", \"points\": [0.05, 0.25, 0.5, 0.75, 0.95]}}}", SMALL, MANY, partitions);
        assertEquals(true, sketches(r).get("was_estimated"));
        assertEquals(4000L, sketches(r).get("items_seen"));
        double epsilon = (Double) sketches(r).get("normalized_rank_error");
        for (Map<String, Object> row : r.records()) {
            // x is a permutation of 0..3999: the true rank of value v is v / 4000
            double trueRank = (Double) row.get("Value") / 4000.0;
            assertTrue(Math.abs(trueRank - (Double) row.get("Quantile")) <= epsilon, row + " rank error " + epsilon);
        }
    }

    @ParameterizedTest(name = "{0} partitions")
    @ValueSource(ints = {1, 2, 4})
    void cdfBeyondCapacityIsWithinTheRankError(int partitions) {
        Result r = finalResult("{\"aggregation\": {\"type\": \"DISTRIBUTION\", \"fields\": {\"x\": \"x\"}, \"attributes\": "
                               + "{\"type\": \"CDF\", \"points\": [400, 1000, 2000, 3000, 3600]}}}", SMALL, MANY, partitions);
        double epsilon = (Double) sketches(r).get("normalized_rank_error");
        double[] points = {400, 1000, 2000, 3000, 3600};
        for (int i = 0; i < points.length; i++) {
            double probability = (Double) r.records().get(i).get("Probability");
            assertTrue(Math.abs(probability - points[i] / 4000.0) <= epsilon, r.records().get(i) + " rank error " + epsilon);
        }
        assertEquals(1.0, r.records().get(points.length).get("Probability"));
        assertEquals(4000.0, r.records().get(points.length).get("Count"));
    }

    @ParameterizedTest(name = "{0} partitions")
    @ValueSource(ints = {1, 2, 4})
    void topKBeyondCapacityFindsTheHeavyHittersWithinTheErrorBound(int partitions) {
        Result r = finalResult("{\"aggregation\": {\"type\": \"TOP K\", \"size\": 4, \"fields\": {\"h\": \"h\"}}}", SMALL, MANY, partitions);
        assertEquals(true, sketches(r).get("was_estimated"));
        long maxError = (Long) sketches(r).get("maximum_count_error");
        Map<String, Long> truth = new HashMap<>();
        MANY.forEach(rec -> truth.merge((String) rec.asMap().get("h"), 1L, Long::sum));
        assertEquals(4, r.records().size());
        for (Map<String, Object> row : r.records()) {
            String item = (String) row.get("h");
            assertTrue(item.startsWith("heavy"), r.records().toString());
            long estimate = (Long) row.get("COUNT");
            long actual = truth.get(item);
            assertTrue(estimate - maxError <= actual && actual <= estimate, row + " true " + actual + " error " + maxError);
        }
    }
}

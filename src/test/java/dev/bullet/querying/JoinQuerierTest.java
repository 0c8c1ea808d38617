package dev.bullet.querying;

import dev.bullet.common.BulletError;
import dev.bullet.query.Query;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import dev.bullet.testing.Queries;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Windows, duration, RAW size and rate limit on the Join side, with time moved only through {@code now}. */
class JoinQuerierTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final String COUNT = "\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\": [{\"type\": \"COUNT\"}]}}";

    /** One Filter task feeding one Join, as the topology does for a single partition. */
    private static final class Pipeline {
        final FilterQuerier filter;
        final JoinQuerier join;
        final List<Result> results = new ArrayList<>();

        Pipeline(String json, QuerySettings settings, long graceMs) {
            Query query = Queries.parse(json, settings);
            filter = new FilterQuerier("q", query, T0, settings);
            join = new JoinQuerier("q", query, T0, settings, 1, graceMs);
        }

        Pipeline(String json) {
            this(json, QuerySettings.defaults(), 0);
        }

        Pipeline send(long at, Record... records) {
            for (Record r : records) {
                filter.consume(r, T0 + at);
                if (filter.isRaw()) {
                    results.addAll(join.combine(filter.takePartial(), false, T0 + at));
                }
            }
            return this;
        }

        /** A tick at T0 + at: the Filter ships its partial, then the Join moves time. */
        Pipeline tick(long at) {
            results.addAll(join.combine(filter.takePartial(), filter.isExpired(T0 + at), T0 + at));
            results.addAll(join.tick(T0 + at));
            return this;
        }
    }

    private static Record rec(long i) {
        return Records.of("i", i).build();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> window(Result r) {
        return (Map<String, Object>) r.meta().get("window");
    }

    private static Object count(Result r) {
        return r.records().get(0).get("COUNT");
    }

    // -------------------------------------------------------------------------------------- no window

    @Test
    void withoutAWindowOneFinalResultWhenTheDurationEnds() {
        Pipeline p = new Pipeline("{" + COUNT + ", \"duration\": 10000}");
        p.send(10, rec(1), rec(2)).tick(100).send(5000, rec(3)).tick(5100).tick(9999);
        assertEquals(List.of(), p.results);
        p.tick(10000);
        assertEquals(1, p.results.size());
        Result last = p.results.get(0);
        assertTrue(last.isFinal());
        assertTrue(p.join.isDone());
        assertEquals(List.of(mapOf("COUNT", 3L)), last.records());
        assertEquals(T0 + 10000, last.meta().get("query_finish_time"));
        assertEquals(T0, last.meta().get("query_receive_time"));
        assertEquals("q", last.meta().get("query_id"));
        assertFalse(last.meta().containsKey("window"));
        p.send(15000, rec(4)).tick(20000);
        assertEquals(1, p.results.size(), "nothing after the final result");
    }

    @Test
    void theFinalResultWaitsForTheLastPartialsUntilTheGraceRunsOut() {
        Query query = Queries.parse("{" + COUNT + ", \"duration\": 1000}");
        JoinQuerier join = new JoinQuerier("q", query, T0, QuerySettings.defaults(), 2, 500);
        FilterQuerier a = new FilterQuerier("q", query, T0, QuerySettings.defaults());
        FilterQuerier b = new FilterQuerier("q", query, T0, QuerySettings.defaults());
        a.consume(rec(1), T0 + 10);
        b.consume(rec(2), T0 + 20);
        assertTrue(join.combine(a.takePartial(), true, T0 + 1000).isEmpty());
        assertTrue(join.tick(T0 + 1000).isEmpty(), "one of two partitions still owes its last partial");
        assertTrue(join.isExpired(T0 + 1000));
        assertTrue(join.combine(b.takePartial(), true, T0 + 1010).isEmpty());
        List<Result> out = join.tick(T0 + 1010);
        assertEquals(1, out.size());
        assertEquals(List.of(mapOf("COUNT", 2L)), out.get(0).records());

        JoinQuerier late = new JoinQuerier("q", query, T0, QuerySettings.defaults(), 2, 500);
        assertTrue(late.tick(T0 + 1499).isEmpty());
        assertEquals(1, late.tick(T0 + 1500).size(), "the grace ran out");
    }

    @Test
    void rawWithoutAWindowEndsAsSoonAsSizeRecordsArrive() {
        Pipeline p = new Pipeline("{\"aggregation\": {\"type\": \"RAW\", \"size\": 3}, \"duration\": 10000}");
        p.send(10, rec(1), rec(2));
        assertEquals(List.of(), p.results);
        p.send(20, rec(3));
        assertEquals(1, p.results.size());
        Result r = p.results.get(0);
        assertTrue(r.isFinal());
        assertTrue(p.join.isDone());
        assertEquals(List.of(mapOf("i", 1L), mapOf("i", 2L), mapOf("i", 3L)), r.records());
        assertEquals(T0 + 20, r.meta().get("query_finish_time"));
        p.send(30, rec(4)).tick(10000);
        assertEquals(1, p.results.size(), "nothing after the final result");
    }

    @Test
    void rawEndsMidPartialWhenSizeIsReached() {
        Query query = Queries.parse("{\"aggregation\": {\"size\": 2}}");
        JoinQuerier join = new JoinQuerier("q", query, T0, QuerySettings.defaults(), 1, 0);
        FilterQuerier f = new FilterQuerier("q", query, T0, QuerySettings.defaults());
        f.consume(rec(1), T0);
        f.consume(rec(2), T0);
        List<Result> out = join.combine(f.takePartial(), false, T0 + 5);
        assertEquals(1, out.size());
        assertEquals(2, out.get(0).records().size());
    }

    @Test
    void rawThatFindsFewerThanSizeRecordsEndsWithTheDuration() {
        Pipeline p = new Pipeline("{\"aggregation\": {\"size\": 5}, \"duration\": 2000}");
        p.send(10, rec(1)).tick(1000);
        assertEquals(List.of(), p.results);
        p.tick(2000);
        assertEquals(List.of(mapOf("i", 1L)), p.results.get(0).records());
    }

    // ---------------------------------------------------------------------------------- tumbling windows

    @Test
    void tumblingWindowsEmitOneResultPerWindow() {
        Pipeline p = new Pipeline("{" + COUNT + ", \"duration\": 3500,"
                                  + " \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}, \"include\": {\"type\": \"TIME\", \"first\": 1000}}}");
        p.send(100, rec(1), rec(2)).tick(500).tick(999);
        assertEquals(0, p.results.size());
        p.tick(1000);
        p.send(1500, rec(3)).tick(2003);
        p.tick(3000);
        p.send(3200, rec(4)).tick(3500);
        assertEquals(4, p.results.size());
        assertEquals(List.of(2L, 1L, 0L, 1L), p.results.stream().map(JoinQuerierTest::count).toList());
        for (int i = 0; i < 4; i++) {
            Map<String, Object> w = window(p.results.get(i));
            assertEquals("Tumbling", w.get("name"));
            assertEquals(i + 1, w.get("number"));
            assertEquals(1, w.get("size"));
            assertEquals(i == 3, p.results.get(i).isFinal());
        }
        assertEquals(T0 + 1000, window(p.results.get(0)).get("expected_emit_time"));
        assertEquals(T0 + 1000, window(p.results.get(0)).get("emit_time"));
        assertEquals(T0 + 2000, window(p.results.get(1)).get("expected_emit_time"));
        assertEquals(T0 + 2003, window(p.results.get(1)).get("emit_time"));
        assertEquals(T0 + 3000, window(p.results.get(2)).get("expected_emit_time"));
        assertNull(window(p.results.get(3)).get("expected_emit_time"), "the last window was cut short by the duration");
        assertEquals(T0 + 3500, p.results.get(3).meta().get("query_finish_time"));
        assertFalse(p.results.get(0).meta().containsKey("query_finish_time"));
    }

    @Test
    void aWindowEndingWithTheDurationIsTheFinalResult() {
        Pipeline p = new Pipeline("{" + COUNT + ", \"duration\": 2000, \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}}}");
        p.send(10, rec(1)).tick(1000).send(1500, rec(2), rec(3)).tick(2000);
        assertEquals(2, p.results.size());
        Result last = p.results.get(1);
        assertTrue(last.isFinal());
        assertEquals(2L, count(last));
        assertEquals(2, window(last).get("number"));
        assertEquals(T0 + 2000, window(last).get("expected_emit_time"));
    }

    @Test
    void aLateTickClosesEveryWindowThatWasDue() {
        Pipeline p = new Pipeline("{" + COUNT + ", \"duration\": 10000, \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}}}");
        p.send(10, rec(1)).tick(3500);
        assertEquals(3, p.results.size());
        assertEquals(List.of(T0 + 1000, T0 + 2000, T0 + 3000),
                     p.results.stream().map(r -> window(r).get("expected_emit_time")).toList());
        assertEquals(List.of(1, 2, 3), p.results.stream().map(r -> window(r).get("number")).toList());
        assertTrue(p.join.isWindowDue(T0 + 4000));
        assertFalse(p.join.isWindowDue(T0 + 3999));
    }

    @Test
    void rawTumblingWindowsHoldAtMostSizeRecordsEach() {
        Pipeline p = new Pipeline("{\"aggregation\": {\"size\": 2}, \"duration\": 2000, \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}}}");
        p.send(10, rec(1), rec(2), rec(3)).tick(1000).send(1100, rec(4)).tick(2000);
        assertEquals(2, p.results.size());
        assertEquals(List.of(mapOf("i", 1L), mapOf("i", 2L)), p.results.get(0).records());
        assertEquals(List.of(mapOf("i", 4L)), p.results.get(1).records());
        assertTrue(p.results.get(1).isFinal());
    }

    // ---------------------------------------------------------------------------------- additive windows

    @Test
    void additiveTumblingWindowsAccumulateSinceTheStart() {
        Pipeline p = new Pipeline("{" + COUNT + ", \"duration\": 3000, \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}, \"include\": {\"type\": \"ALL\"}}}");
        p.send(100, rec(1), rec(2)).tick(1000).send(1500, rec(3)).tick(2000).tick(2500).send(2600, rec(4)).tick(3000);
        assertEquals(List.of(2L, 3L, 4L), p.results.stream().map(JoinQuerierTest::count).toList());
        assertEquals("Additive Tumbling", window(p.results.get(0)).get("name"));
        assertEquals(List.of(1, 2, 3), p.results.stream().map(r -> window(r).get("number")).toList());
        assertTrue(p.results.get(2).isFinal());
    }

    @Test
    void additiveRawWindowsKeepAtMostSizeRecordsInAll() {
        Pipeline p = new Pipeline("{\"aggregation\": {\"size\": 2}, \"duration\": 3000, \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}, \"include\": {\"type\": \"ALL\"}}}");
        p.send(10, rec(1)).tick(1000).send(1100, rec(2), rec(3)).tick(2000).tick(3000);
        assertEquals(List.of(1, 2, 2), p.results.stream().map(r -> r.records().size()).toList());
        assertEquals(List.of(mapOf("i", 1L), mapOf("i", 2L)), p.results.get(2).records());
    }

    // ----------------------------------------------------------------------------------- sliding windows

    @Test
    void slidingRecordWindowsCloseEveryNRecords() {
        Pipeline p = new Pipeline("{\"duration\": 10000, \"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 2}, \"include\": {\"type\": \"RECORD\", \"first\": 2}}}");
        p.send(10, rec(1));
        assertEquals(0, p.results.size());
        p.send(20, rec(2), rec(3), rec(4), rec(5)).tick(500);
        assertEquals(2, p.results.size());
        assertEquals(List.of(mapOf("i", 1L), mapOf("i", 2L)), p.results.get(0).records());
        assertEquals(List.of(mapOf("i", 3L), mapOf("i", 4L)), p.results.get(1).records());
        Map<String, Object> w = window(p.results.get(1));
        assertEquals("Sliding", w.get("name"));
        assertEquals(2, w.get("number"));
        assertEquals(2, w.get("size"));
        assertEquals(T0 + 20, w.get("emit_time"));
        assertFalse(w.containsKey("expected_emit_time"));
        p.tick(10000);
        assertEquals(3, p.results.size());
        Result last = p.results.get(2);
        assertTrue(last.isFinal());
        assertEquals(List.of(mapOf("i", 5L)), last.records(), "the open window, partial, is the final result");
        assertEquals(3, window(last).get("number"));
    }

    @Test
    void slidingWindowsSplitOnePartialHoldingSeveralWindows() {
        Query query = Queries.parse("{\"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 2}}}");
        FilterQuerier f = new FilterQuerier("q", query, T0, QuerySettings.defaults());
        JoinQuerier join = new JoinQuerier("q", query, T0, QuerySettings.defaults(), 1, 0);
        for (long i = 1; i <= 5; i++) {
            f.consume(rec(i), T0);
        }
        List<Result> out = join.combine(f.takePartial(), false, T0 + 1);
        assertEquals(2, out.size());
        assertEquals(List.of(mapOf("i", 3L), mapOf("i", 4L)), out.get(1).records());
        assertEquals(List.of(mapOf("i", 5L)), join.finish(T0 + 2).records());
    }

    // --------------------------------------------------------------------------------------- rate limit

    @Test
    void aQueryEmittingTooFastIsStoppedWithAnErrorResult() {
        QuerySettings settings = Queries.withRateLimit(true, 3, 1000);
        Pipeline p = new Pipeline("{\"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 1}}}", settings, 0);
        p.send(10, rec(1), rec(2), rec(3));
        assertEquals(3, p.results.size());
        assertFalse(p.join.isDone());
        p.send(20, rec(4));
        assertEquals(4, p.results.size());
        Result stopped = p.results.get(3);
        assertTrue(stopped.isFinal());
        assertTrue(p.join.isDone());
        assertEquals(List.of(), stopped.records());
        @SuppressWarnings("unchecked")
        List<BulletError> errors = (List<BulletError>) stopped.meta().get("errors");
        assertEquals(1, errors.size());
        assertTrue(errors.get(0).error().contains("more than 3 results in 1000 ms"), errors.get(0).error());
        Map<?, ?> window = (Map<?, ?>) stopped.meta().get("window");
        assertEquals(0, window.get("size"), "the window's size is this result's rows: " + window);
        p.send(30, rec(5));
        assertEquals(4, p.results.size(), "a stopped query emits nothing more");
    }

    @Test
    void emittingWithinTheRateIsNeverStopped() {
        QuerySettings settings = Queries.withRateLimit(true, 2, 1000);
        Pipeline p = new Pipeline("{\"duration\": 100000, \"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 1}}}", settings, 0);
        for (long t = 0; t < 10; t++) {
            p.send(t * 1000 + 1, rec(t), rec(t));
        }
        assertEquals(20, p.results.size());
        assertFalse(p.join.isDone());
        assertTrue(p.results.stream().noneMatch(r -> r.meta().containsKey("errors")));
    }

    @Test
    void theRateLimitCanBeTurnedOff() {
        QuerySettings settings = Queries.withRateLimit(false, 1, 1000);
        Pipeline p = new Pipeline("{\"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 1}}}", settings, 0);
        for (long i = 0; i < 100; i++) {
            p.send(5, rec(i));
        }
        assertEquals(100, p.results.size());
        assertFalse(p.join.isDone());
    }

    // ------------------------------------------------------------------------------------------- meta

    @Test
    void failEndsTheQueryWithItsErrors() {
        Pipeline p = new Pipeline("{" + COUNT + "}");
        p.send(1, rec(1));
        Result r = p.join.fail(List.of(BulletError.of("killed", "resubmit")), T0 + 5);
        assertTrue(r.isFinal());
        assertTrue(p.join.isDone());
        assertEquals(List.of(), r.records());
        assertEquals(List.of(BulletError.of("killed", "resubmit")), r.meta().get("errors"));
        assertEquals(T0 + 5, r.meta().get("query_finish_time"));
    }

    @Test
    void metadataEchoesTheQueryAndReportsClamping() {
        Pipeline p = new Pipeline("{\"aggregation\": {\"size\": 1000}, \"duration\": 1000}");
        Result r = p.tick(1000).results.get(0);
        assertEquals(Queries.parse("{\"aggregation\": {\"size\": 1000}, \"duration\": 1000}").original(), r.meta().get("query"));
        @SuppressWarnings("unchecked")
        List<BulletError> warnings = (List<BulletError>) r.meta().get("warnings");
        assertEquals(1, warnings.size());
        assertFalse(r.meta().containsKey("sketches"));
        assertFalse(r.meta().containsKey("errors"));
    }

    @Test
    void sketchMetadataIsReportedForSketchAggregations() {
        Pipeline p = new Pipeline("{\"aggregation\": {\"type\": \"COUNT DISTINCT\", \"fields\": {\"i\": \"i\"}}, \"duration\": 1000}");
        Result r = p.send(1, rec(1), rec(2), rec(1)).tick(1000).results.get(0);
        assertEquals(List.of(mapOf("COUNT DISTINCT", 2L)), r.records());
        @SuppressWarnings("unchecked")
        Map<String, Object> sketches = (Map<String, Object>) r.meta().get("sketches");
        assertEquals(false, sketches.get("was_estimated"));
        assertEquals(2.0, sketches.get("uniques_estimate"));
    }

    @Test
    void metadataCanBeRenamedOrTurnedOff() {
        QuerySettings d = QuerySettings.defaults();
        QuerySettings renamed = new QuerySettings(d.defaultDurationMs(), d.maxDurationMs(), d.defaultSize(), d.maxSize(), d.rawMaxSize(),
                d.distributionMaxPoints(), d.generatedPointsRounding(), d.countDistinctEntries(), d.groupEntries(),
                d.distributionEntries(), d.topKEntries(), d.minEmitEveryMs(), d.rateLimitEnabled(), d.rateLimitMaxEmitCount(),
                d.rateLimitIntervalMs(), true, Map.of("query_id", "id", "window", "w", "number", "n"), false, d.timestampKey(), d.limits());
        Pipeline p = new Pipeline("{\"duration\": 2000, \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}}}", renamed, 0);
        Result r = p.send(1, rec(1)).tick(1000).results.get(0);
        assertEquals("q", r.meta().get("id"));
        assertFalse(r.meta().containsKey("query_id"));
        @SuppressWarnings("unchecked")
        Map<String, Object> w = (Map<String, Object>) r.meta().get("w");
        assertEquals(1, w.get("n"));

        QuerySettings off = new QuerySettings(d.defaultDurationMs(), d.maxDurationMs(), d.defaultSize(), d.maxSize(), d.rawMaxSize(),
                d.distributionMaxPoints(), d.generatedPointsRounding(), d.countDistinctEntries(), d.groupEntries(),
                d.distributionEntries(), d.topKEntries(), d.minEmitEveryMs(), d.rateLimitEnabled(), d.rateLimitMaxEmitCount(),
                d.rateLimitIntervalMs(), false, Map.of(), false, d.timestampKey(), d.limits());
        Pipeline quiet = new Pipeline("{\"duration\": 1000}", off, 0);
        Result q = quiet.send(1, rec(1)).tick(1000).results.get(0);
        assertEquals(Map.of(), q.meta());
        assertEquals(List.of(mapOf("i", 1L)), q.records());
    }

    // -------------------------------------------------------------------------------------- RAW rows as bytes

    /** The result's JSON as writing its rows as maps gives (the way every result was written before rows as bytes). */
    private static String writtenFromMaps(Result r) {
        return new Result(new ArrayList<>(r.records()), r.meta(), r.isFinal()).toJson();
    }

    private static Record decoded(String json) {
        return new RecordDecoder().decode(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void rawRowsCarriedAsTheirBytesWriteTheSameResultAsRowsWrittenFromMaps() {
        String[] rows = {"{\"id\":\"a\",\"n\":1,\"m\":{\"k\":[true,null,\"<&>\"]}}", "{\"id\":\"b\",\"n\":-7}",
                         "{\"id\":\"c\", \"n\" : 2}", "{\"id\":\"d\",\"n\":-0}", "{\"id\":\"e\",\"n\":1.50}",
                         "{\"id\":\"f\",\"id\":\"g\"}", "{\"id\":\"h\\u0041\",\"n\":1e400}", "{\"id\":\"\u00e9\"}", "{}"};
        for (String projection : List.of("", ", \"projection\": {\"fields\": {\"id\": \"who\", \"m.k\": \"list\"}}")) {
            for (int first = 0; first < rows.length; first++) {
                Pipeline p = new Pipeline("{\"aggregation\": {\"type\": \"RAW\", \"size\": 2}" + projection
                                          + ", \"duration\": 10000}");
                p.send(10, decoded(rows[first]), decoded(rows[(first + 3) % rows.length]));
                assertEquals(1, p.results.size());
                Result r = p.results.get(0);
                assertEquals(writtenFromMaps(r), r.toJson(), "rows " + first + " and " + (first + 3) % rows.length);
            }
        }
        Pipeline plain = new Pipeline("{\"aggregation\": {\"type\": \"RAW\", \"size\": 2}, \"duration\": 10000}");
        plain.send(10, decoded(rows[0]), decoded(rows[1]));
        assertTrue(plain.results.get(0).records() instanceof RawRows, "canonical rows travel as their bytes");
        assertEquals(mapOf("id", "b", "n", -7L), plain.results.get(0).records().get(1));
        Pipeline spaced = new Pipeline("{\"aggregation\": {\"type\": \"RAW\", \"size\": 2}, \"duration\": 10000}");
        spaced.send(10, decoded(rows[0]), decoded(rows[2]));
        assertFalse(spaced.results.get(0).records() instanceof RawRows, "a row with whitespace is written again");
        assertTrue(spaced.results.get(0).toJson().contains("{\"id\":\"c\",\"n\":2}"));
    }

    @Test
    void rawRowsWithAPostAggregationAreWrittenFromMaps() {
        Pipeline p = new Pipeline("{\"aggregation\": {\"type\": \"RAW\", \"size\": 3}, \"duration\": 10000,"
                                  + " \"postAggregations\": [{\"type\": \"ORDERBY\", \"fields\": [\"n\"], \"direction\": \"DESC\"}]}");
        p.send(10, decoded("{\"n\":1}"), decoded("{\"n\":3}"), decoded("{\"n\":2}"));
        Result r = p.results.get(0);
        assertFalse(r.records() instanceof RawRows);
        assertEquals(List.of(mapOf("n", 3L), mapOf("n", 2L), mapOf("n", 1L)), r.records());
    }
    /** A progress that tells what the test sets. */
    private static final class Progress implements ReadProgress {
        boolean settled;
        long unsettled;
        long lost;

        @Override
        public boolean settled(long end) {
            return settled;
        }

        @Override
        public long unsettled(long start, long end) {
            return unsettled;
        }

        @Override
        public long lost(long start, long end) {
            return lost;
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theFinalResultWaitsForTheBatchesReadBeforeTheEndThenSaysHowManyItMisses() {
        Pipeline p = new Pipeline("{" + COUNT + ", \"duration\": 1000}");
        Progress progress = new Progress();
        progress.unsettled = 3;
        p.join.combine(null, true, T0 + 1000);
        assertEquals(List.of(), p.join.tick(T0 + 1000, progress, 5000), "a batch read before the end is in flight");
        assertEquals(List.of(), p.join.tick(T0 + 5999, progress, 5000));
        List<Result> out = p.join.tick(T0 + 6000, progress, 5000);
        assertEquals(1, out.size());
        Map<String, Object> incomplete = (Map<String, Object>) out.get(0).meta().get(JoinQuerier.INCOMPLETE);
        assertEquals(3L, incomplete.get("batches"));
    }

    @Test
    void aSettledQueryEndsAtOnceWithoutFlag() {
        Pipeline p = new Pipeline("{" + COUNT + ", \"duration\": 1000}");
        Progress progress = new Progress();
        p.join.combine(null, true, T0 + 1000);
        assertEquals(List.of(), p.join.tick(T0 + 1000, progress, 5000));
        progress.settled = true;
        List<Result> out = p.join.tick(T0 + 1100, progress, 5000);
        assertEquals(1, out.size());
        assertFalse(out.get(0).meta().containsKey(JoinQuerier.INCOMPLETE));
    }

    @Test
    @SuppressWarnings("unchecked")
    void batchesLostForGoodEndTheQueryAtOnceWithTheirCount() {
        Pipeline p = new Pipeline("{" + COUNT + ", \"duration\": 1000}");
        Progress progress = new Progress();
        progress.lost = 2;
        p.join.combine(null, true, T0 + 1000);
        List<Result> out = p.join.tick(T0 + 1000, progress, 5000);
        assertEquals(1, out.size());
        assertEquals(2L, ((Map<String, Object>) out.get(0).meta().get(JoinQuerier.INCOMPLETE)).get("batches"));
    }
}

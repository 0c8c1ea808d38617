package dev.bullet.querying;

import dev.bullet.query.Query;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.testing.Queries;
import dev.bullet.testing.Records;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Join querier restored from its snapshot goes on exactly as the original: fed the same partials after the
 * snapshot, it gives the same results (records and meta), for every aggregation type and window, and drops a batch
 * sent again that the original had merged before the snapshot.
 */
class JoinSnapshotTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final String[] COLORS = {"red", "green", "blue", "black", "white"};

    /** Two Filter tasks feeding one Join querier, every 100 ms, with the batches' spans; a copy restored at a step. */
    private static final class Run {
        final Query query;
        final FilterQuerier[] filters = new FilterQuerier[2];
        final long[] offsets = new long[2];
        final long[] reported = new long[2];
        final JoinQuerier original;
        JoinQuerier restored;
        final List<String> originalAfter = new ArrayList<>();
        final List<String> restoredAfter = new ArrayList<>();
        final Random random = new Random(42);
        long first;

        Run(String json) {
            QuerySettings settings = QuerySettings.defaults();
            query = Queries.parse(json, settings);
            for (int i = 0; i < 2; i++) {
                filters[i] = new FilterQuerier("q", query, T0, settings);
            }
            original = new JoinQuerier("q", query, T0, settings, 2, 500);
        }

        Record next(long i) {
            return Records.of("i", i, "color", COLORS[random.nextInt(COLORS.length)], "v", random.nextInt(1000),
                              "u", random.nextInt(50_000), "m", Records.mapOf("k", "k" + random.nextInt(12))).build();
        }

        /** Runs to {@code steps} ticks of 100 ms, restoring a copy from a snapshot after step {@code at}. */
        void run(int steps, int at) {
            long record = 0;
            for (int step = 1; step <= steps; step++) {
                long now = T0 + step * 100L;
                for (int f = 0; f < 2; f++) {
                    int n = 1 + random.nextInt(6);
                    for (int k = 0; k < n; k++) {
                        offsets[f]++;
                        filters[f].consume(next(record++), now);
                        if (filters[f].isRaw()) {
                            send(f, filters[f].takePartial(), false, new long[] {f, offsets[f], offsets[f]}, now);
                            reported[f] = offsets[f];
                        }
                    }
                }
                for (int f = 0; f < 2; f++) {
                    long[] span = reported[f] < offsets[f] ? new long[] {f, reported[f] + 1, offsets[f]} : new long[0];
                    reported[f] = offsets[f];
                    send(f, filters[f].isRaw() ? null : filters[f].takePartial(), filters[f].isExpired(now), span, now);
                }
                tick(now);
                if (step == at) {
                    byte[] snapshot = JoinSnapshot.of(original);
                    restored = new JoinQuerier("q", query, T0, QuerySettings.defaults(), 2, 500);
                    JoinSnapshot.restore(restored, snapshot);
                    first = step;
                }
            }
        }

        void send(int task, byte[] partial, boolean last, long[] span, long now) {
            for (JoinQuerier q : restored == null ? List.of(original) : List.of(original, restored)) {
                Object data = q.mergedBefore(span, false) ? null : partial;
                List<String> into = q == original ? originalAfter : restoredAfter;
                for (Result r : q.combine(data, last, task, now)) {
                    if (restored != null) {
                        into.add(r.toJson());
                    }
                }
            }
        }

        void tick(long now) {
            for (JoinQuerier q : restored == null ? List.of(original) : List.of(original, restored)) {
                List<String> into = q == original ? originalAfter : restoredAfter;
                for (Result r : q.tick(now)) {
                    if (restored != null) {
                        into.add(r.toJson());
                    }
                }
            }
        }
    }

    private static final String DURATION = ", \"duration\": 3000";

    @ParameterizedTest
    @ValueSource(strings = {
        // COUNT, GROUP (with and without fields), COUNT DISTINCT, DISTRIBUTION, TOP K
        "{\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\": [{\"type\": \"COUNT\"}]}}" + DURATION + "}",
        "{\"aggregation\": {\"type\": \"GROUP\", \"fields\": {\"color\": \"c\"}, \"attributes\": {\"operations\": "
            + "[{\"type\": \"COUNT\"}, {\"type\": \"SUM\", \"field\": \"v\"}, {\"type\": \"AVG\", \"field\": \"v\"},"
            + " {\"type\": \"MIN\", \"field\": \"v\"}]}}" + DURATION + "}",
        "{\"aggregation\": {\"type\": \"COUNT DISTINCT\", \"fields\": {\"u\": \"u\"}}" + DURATION + "}",
        "{\"aggregation\": {\"type\": \"COUNT DISTINCT\", \"fields\": {\"color\": \"c\", \"m.k\": \"k\"}}" + DURATION + "}",
        "{\"aggregation\": {\"type\": \"DISTRIBUTION\", \"fields\": {\"v\": \"v\"}, \"attributes\": {\"type\": \"QUANTILE\","
            + " \"points\": [0, 0.1, 0.5, 0.9, 1]}}" + DURATION + "}",
        "{\"aggregation\": {\"type\": \"DISTRIBUTION\", \"fields\": {\"v\": \"v\"}, \"attributes\": {\"type\": \"CDF\","
            + " \"numberOfPoints\": 7}}" + DURATION + "}",
        "{\"aggregation\": {\"type\": \"TOP K\", \"size\": 5, \"fields\": {\"m.k\": \"k\"}}" + DURATION + "}",
        // RAW: without a window (ends when full), with a time window, with a record window (sliding)
        "{\"aggregation\": {\"type\": \"RAW\", \"size\": 200}" + DURATION + "}",
        "{\"aggregation\": {\"type\": \"RAW\", \"size\": 500}" + DURATION + ", \"window\": {\"emit\": {\"type\": \"TIME\","
            + " \"every\": 1000}}}",
        "{\"aggregation\": {\"type\": \"RAW\", \"size\": 500}" + DURATION + ", \"window\": {\"emit\": {\"type\": \"RECORD\","
            + " \"every\": 7}}}",
        // windows over aggregations: tumbling, additive (include ALL)
        "{\"aggregation\": {\"type\": \"GROUP\", \"fields\": {\"color\": \"c\"}, \"attributes\": {\"operations\": "
            + "[{\"type\": \"COUNT\"}]}}" + DURATION + ", \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}}}",
        "{\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\": [{\"type\": \"SUM\", \"field\": \"v\"}]}}"
            + DURATION + ", \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}, \"include\": {\"type\": \"ALL\"}}}",
        "{\"aggregation\": {\"type\": \"TOP K\", \"size\": 3, \"fields\": {\"color\": \"c\"}}" + DURATION
            + ", \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}}}"
    })
    void aRestoredQuerierGivesTheSameResultsAsTheOriginal(String json) {
        for (int at : new int[] {1, 7, 10, 14, 25}) {
            Run run = new Run(json);
            run.run(40, at);
            assertFalse(run.originalAfter.isEmpty(), "the query gave results after step " + at);
            assertEquals(run.originalAfter, run.restoredAfter, "restored after step " + at + ": " + json);
            for (String r : run.restoredAfter) {
                assertFalse(r.contains("\"" + JoinQuerier.INCOMPLETE + "\""), r);
            }
        }
    }

    @Test
    void aBatchSentAgainThatTheSnapshotHoldsIsDropped() {
        Run run = new Run("{\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\": [{\"type\": \"COUNT\"}]}}"
                          + DURATION + "}");
        run.run(12, 12);
        assertTrue(run.restored.mergedBefore(new long[] {0, 1, 1}, true), "merged before the snapshot: dropped");
        assertTrue(run.restored.mergedBefore(new long[] {1, 2, run.offsets[1]}, true));
        assertFalse(run.restored.mergedBefore(new long[] {0, run.offsets[0] + 1, run.offsets[0] + 5}, true),
                    "a batch never merged is merged");
        assertEquals(run.original.mergedRuns(), run.restored.mergedRuns() - 0, "the same runs, one per source");
    }

    @Test
    void theSnapshotCarriesTheRestartMarksOfAnEarlierRestoreWithoutOne() {
        Query query = Queries.parse("{\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\": "
                                    + "[{\"type\": \"COUNT\"}]}}" + DURATION + "}");
        JoinQuerier lost = new JoinQuerier("q", query, T0, QuerySettings.defaults(), 1, 0);
        lost.markRestored(T0 + 500);
        JoinQuerier again = new JoinQuerier("q", query, T0, QuerySettings.defaults(), 1, 0);
        JoinSnapshot.restore(again, JoinSnapshot.of(lost));
        List<Result> out = again.tick(T0 + 3000);
        assertEquals(1, out.size());
        assertTrue(out.get(0).meta().containsKey(JoinQuerier.INCOMPLETE), "still says what the first restart lost");
    }

    @Test
    void aSnapshotOfAnotherQueryOrNoSnapshotAtAllIsRefusedAndChangesNothing() {
        Query query = Queries.parse("{\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\": "
                                    + "[{\"type\": \"COUNT\"}]}}" + DURATION + "}");
        JoinQuerier a = new JoinQuerier("q", query, T0, QuerySettings.defaults(), 1, 0);
        byte[] snapshot = JoinSnapshot.of(a);
        JoinQuerier later = new JoinQuerier("q", query, T0 + 1, QuerySettings.defaults(), 1, 0);
        assertThrows(IllegalArgumentException.class, () -> JoinSnapshot.restore(later, snapshot));
        assertThrows(IllegalArgumentException.class, () -> JoinSnapshot.restore(a, new byte[] {1, 2, 3}));
        byte[] other = snapshot.clone();
        other[0] = 9;
        assertThrows(IllegalArgumentException.class, () -> JoinSnapshot.restore(a, other));
        byte[] longer = Arrays.copyOf(snapshot, snapshot.length + 1);
        assertThrows(IllegalArgumentException.class, () -> JoinSnapshot.restore(a, longer));
        assertArrayEquals(snapshot, JoinSnapshot.of(a));
    }

    @Test
    void mergedBatchesRoundTripCompactly() throws Exception {
        MergedBatches merged = new MergedBatches();
        Random random = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            long source = random.nextInt(4);
            long first = random.nextInt(100_000);
            merged.add(source, first, first + random.nextInt(50));
        }
        merged.add(-3, Long.MIN_VALUE + 1, Long.MIN_VALUE + 10);
        merged.add(9, Long.MAX_VALUE - 10, Long.MAX_VALUE);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        merged.writeTo(new DataOutputStream(bytes));
        MergedBatches back = MergedBatches.readFrom(new DataInputStream(
                new ByteArrayInputStream(bytes.toByteArray())));
        assertTrue(back.sameAs(merged));
        assertEquals(merged.runs(), back.runs());

        MergedBatches one = new MergedBatches();
        for (long offset = 0; offset < 1_000_000; offset += 1000) {
            one.add(3, offset, offset + 999);
        }
        bytes.reset();
        one.writeTo(new DataOutputStream(bytes));
        assertTrue(bytes.size() < 20, "a partition merged in full is a few bytes, not " + bytes.size());
    }
}

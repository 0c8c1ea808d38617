package dev.bullet.querying;

import dev.bullet.query.Query;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.testing.Queries;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The incremental form of the Join's state: whatever sequence of bases, deltas, tombstones and failed writes the
 * keeper sent to a compacted log, a task that reads the log after a confirmed snapshot takes the query up with exactly
 * the state the query had then, and goes on giving the same results.
 */
class JoinStateDeltaTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final String[] COLORS = {"red", "green", "blue", "black", "white"};
    private static final String DURATION = ", \"duration\": 4000";

    /** A compacted log: the latest value per key; writes fail at random, applied or not (as Kafka may do). */
    private static final class CompactedLog implements JoinStateKeeper.Log {
        final Map<String, byte[]> values = new HashMap<>();
        final Random random;
        final double failing;
        long bytes;
        int writes;

        CompactedLog(Random random, double failing) {
            this.random = random;
            this.failing = failing;
        }

        @Override
        public void write(String key, byte[] value, Consumer<Exception> outcome) {
            writes++;
            boolean fails = random.nextDouble() < failing;
            if (!fails || random.nextBoolean()) {
                if (value == null) {
                    values.remove(key);
                } else {
                    values.put(key, value);
                    bytes += value.length;
                }
            }
            outcome.accept(fails ? new IllegalStateException("broker away") : null);
        }
    }

    private static final JoinStateKeeper.Settle<String> IGNORE = new JoinStateKeeper.Settle<>() {
        @Override
        public void ack(String held) {
        }

        @Override
        public void fail(String held) {
        }
    };

    /** Feeds one query of one Join engine from two Filter queriers, 100 ms a step, snapshots at random steps. */
    private static final class Run {
        final String json;
        final Query query;
        final Random random;
        final FilterQuerier[] filters = new FilterQuerier[2];
        final long[] offsets = new long[2];
        final JoinEngine engine = new JoinEngine(QuerySettings.defaults(), 2, 500);
        final CompactedLog log;
        final JoinStateKeeper<String> keeper;
        final List<JoinEngine.Emitted> out = new ArrayList<>();
        long record;

        Run(String json, long seed, double failing) {
            this.json = json;
            this.random = new Random(seed);
            this.query = Queries.parse(json, QuerySettings.defaults());
            for (int i = 0; i < 2; i++) {
                filters[i] = new FilterQuerier("q", query, T0, QuerySettings.defaults());
            }
            engine.add("q", json, T0, 0);
            log = new CompactedLog(random, failing);
            keeper = new JoinStateKeeper<>(log, 1 << 20, 0);
        }

        Record next() {
            record++;
            return Records.of("i", record, "color", COLORS[random.nextInt(COLORS.length)], "v", random.nextInt(1000),
                              "u", random.nextInt(50_000)).build();
        }

        /** One step of 100 ms: records to both Filters, their partials to the Join, a tick. */
        void step(long now) {
            for (int f = 0; f < 2; f++) {
                int n = random.nextInt(8);
                for (int k = 0; k < n; k++) {
                    offsets[f]++;
                    filters[f].consume(next(), now);
                    if (filters[f].isRaw()) {
                        engine.combine("q", (Object) filters[f].takePartial(), false, f,
                                       new long[] {f, offsets[f], offsets[f]}, false, now, out);
                    }
                }
                if (!filters[f].isRaw() && n > 0) {
                    engine.combine("q", (Object) filters[f].takePartial(), false, f,
                                   new long[] {f, offsets[f] - n + 1, offsets[f]}, false, now, out);
                }
            }
            engine.tick(now, out);
            out.clear();
        }

        /** What a task restarted now takes up from the log. */
        JoinQuerier restored() {
            JoinStateKeeper<String> reader = new JoinStateKeeper<>(log, 1 << 20, 0);
            reader.loaded(log.values, T0);
            byte[] saved = reader.take("q");
            assertNotNull(saved, "the log holds the query: " + log.values.keySet());
            JoinQuerier q = new JoinQuerier("q", query, T0, QuerySettings.defaults(), 2, 500);
            JoinSnapshot.restore(q, saved);
            return q;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"aggregation\": {\"type\": \"RAW\", \"size\": 400}" + DURATION + "}",
        "{\"aggregation\": {\"type\": \"RAW\", \"size\": 500}" + DURATION + ", \"window\": {\"emit\": {\"type\": \"TIME\","
            + " \"every\": 700}}}",
        "{\"aggregation\": {\"type\": \"RAW\", \"size\": 500}" + DURATION + ", \"window\": {\"emit\": {\"type\": \"RECORD\","
            + " \"every\": 9}}}",
        "{\"aggregation\": {\"type\": \"GROUP\", \"fields\": {\"color\": \"c\"}, \"attributes\": {\"operations\": "
            + "[{\"type\": \"COUNT\"}, {\"type\": \"SUM\", \"field\": \"v\"}]}}" + DURATION + "}",
        "{\"aggregation\": {\"type\": \"COUNT DISTINCT\", \"fields\": {\"u\": \"u\"}}" + DURATION + "}",
        "{\"aggregation\": {\"type\": \"TOP K\", \"size\": 3, \"fields\": {\"color\": \"c\"}}" + DURATION
            + ", \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}}}"
    })
    void deltasRestoredAfterAnyConfirmedSnapshotGiveTheWholeState(String json) {
        for (long seed = 1; seed <= 12; seed++) {
            Run run = new Run(json, seed, seed % 3 == 0 ? 0.15 : 0);
            boolean raw = json.contains("RAW");
            for (int step = 1; step <= 38 && run.engine.querier("q") != null; step++) {
                long now = T0 + step * 100L;
                run.step(now);
                if (run.engine.querier("q") == null || run.random.nextInt(3) == 0) {
                    continue;
                }
                long failuresBefore = run.keeper.failures();
                assertTrue(run.keeper.snapshot(run.engine, now, IGNORE));
                run.keeper.poll(IGNORE);
                if (run.keeper.failures() != failuresBefore) {
                    continue; // its tuples are failed and sent again; the next snapshot writes a base
                }
                JoinQuerier original = run.engine.querier("q");
                JoinQuerier restored = run.restored();
                String where = json + " seed " + seed + " step " + step;
                if (raw) {
                    assertArrayEquals(JoinSnapshot.of(original), JoinSnapshot.of(restored), where);
                }
                // the original goes on: a copy of it (a whole snapshot, as JoinSnapshotTest proves exact) ends instead
                JoinQuerier copy = new JoinQuerier("q", run.query, T0, QuerySettings.defaults(), 2, 500);
                JoinSnapshot.restore(copy, JoinSnapshot.of(original));
                assertEquals(results(copy, now + 5_000), results(restored, now + 5_000), where);
            }
        }
    }

    /** What a querier gives at its end (it is used up). */
    private static List<String> results(JoinQuerier q, long end) {
        List<String> out = new ArrayList<>();
        for (Result r : q.tick(end)) {
            out.add(r.toJson().replaceAll("\"query_finish_time\":\\d+,?", "").replaceAll("\"emit_time\":\\d+,?", ""));
        }
        return out;
    }

    @Test
    void aRawQueryWritesEachRowOnceAndItsDeltasAreDeletedWhenItEnds() {
        String json = "{\"aggregation\": {\"type\": \"RAW\", \"size\": 100000}, \"duration\": 100000}";
        Run run = new Run(json, 5, 0);
        for (int step = 1; step <= 60; step++) {
            run.step(T0 + step * 100L);
            run.keeper.snapshot(run.engine, T0 + step * 100L, IGNORE);
            run.keeper.poll(IGNORE);
        }
        long rowBytes = JoinSnapshot.of(run.engine.querier("q")).length;
        assertTrue(run.log.bytes < 2 * rowBytes, "rows written about once: " + run.log.bytes + " bytes for a state of "
                                                 + rowBytes);
        assertTrue(run.log.values.size() > 2, "a base and deltas: " + run.log.values.size());
        assertTrue(run.engine.kill("q"));
        run.keeper.snapshot(run.engine, T0 + 10_000, IGNORE);
        run.keeper.poll(IGNORE);
        assertEquals(Map.of(), run.log.values, "every key of an ended query is deleted");
    }

    @Test
    void aResultIsReleasedOnlyOnceTheStateAfterItIsConfirmed() {
        List<Write> writes = new ArrayList<>();
        JoinStateKeeper<String> keeper = new JoinStateKeeper<>((k, v, o) -> writes.add(new Write(k, o)), 1 << 20, 60_000);
        JoinEngine engine = new JoinEngine(QuerySettings.defaults(), 1, 0);
        engine.add("w", "{\"aggregation\": {\"type\": \"RAW\", \"size\": 10}, \"duration\": 100000, \"window\":"
                        + " {\"emit\": {\"type\": \"TIME\", \"every\": 1000}}}", T0, 0);
        List<JoinEngine.Emitted> released = new ArrayList<>();
        JoinStateKeeper.Settle<String> settle = new JoinStateKeeper.Settle<>() {
            @Override
            public void ack(String held) {
            }

            @Override
            public void fail(String held) {
            }

            @Override
            public void release(JoinEngine.Emitted result) {
                released.add(result);
            }
        };
        assertTrue(keeper.snapshot(engine, T0, settle), "the first is due");
        writes.get(0).outcome().accept(null);
        keeper.poll(settle);
        List<JoinEngine.Emitted> out = new ArrayList<>();
        engine.tick(T0 + 1000, out);
        assertEquals(1, out.size());
        keeper.holdResult(out.get(0));
        assertTrue(keeper.snapshot(engine, T0 + 1000, settle), "results waiting: a snapshot before the interval");
        assertEquals(2, writes.size(), "the query's state after its window");
        assertEquals(List.of(), released);
        writes.get(1).outcome().accept(new IllegalStateException("broker away"));
        keeper.poll(settle);
        assertEquals(List.of(), released, "not confirmed: still held");
        assertTrue(keeper.snapshot(engine, T0 + 1001, settle));
        assertEquals(3, writes.size(), "written again");
        writes.get(2).outcome().accept(null);
        keeper.poll(settle);
        assertEquals(out, released);
        assertEquals(0, keeper.heldResults());
    }

    @Test
    void keysNameTheirQueryAndStaleDeltasOfAnEarlierBaseAreNotTakenUp() {
        assertEquals("q", JoinStateKeeper.queryId("q"));
        assertEquals("q", JoinStateKeeper.queryId(JoinStateKeeper.deltaKey("q", 12)));
        assertEquals("a" + JoinStateKeeper.DELTA_KEY + "x", JoinStateKeeper.queryId("a" + JoinStateKeeper.DELTA_KEY + "x"));

        Query query = Queries.parse("{\"aggregation\": {\"type\": \"RAW\", \"size\": 50}, \"duration\": 100000}",
                                    QuerySettings.defaults());
        JoinQuerier q = new JoinQuerier("q", query, T0, QuerySettings.defaults(), 1, 0);
        byte[] oldBase = JoinSnapshot.base(q, 7);
        q.combine("[{\"a\":1}]".getBytes(), false, T0);
        byte[] oldDelta = JoinSnapshot.delta(q, 7, 1, 0);
        byte[] base = JoinSnapshot.base(q, 9);
        q.combine("[{\"a\":2}]".getBytes(), false, T0);
        byte[] delta = JoinSnapshot.delta(q, 9, 1, 1);
        q.combine("[{\"a\":3}]".getBytes(), false, T0);
        byte[] stale = JoinSnapshot.delta(q, 7, 2, 1);

        JoinQuerier back = new JoinQuerier("q", query, T0, QuerySettings.defaults(), 1, 0);
        JoinSnapshot.restore(back, JoinSnapshot.assemble(base, Map.of(1, delta, 2, stale)));
        assertEquals(2, back.appendableRows(), "the base's row and its delta's, not the stale delta's");
        JoinQuerier old = new JoinQuerier("q", query, T0, QuerySettings.defaults(), 1, 0);
        JoinSnapshot.restore(old, JoinSnapshot.assemble(oldBase, Map.of(1, oldDelta, 3, stale)));
        assertEquals(1, old.appendableRows(), "a gap ends the chain");
        assertFalse(JoinSnapshot.assemble(base, Map.of()) != base, "a base alone is itself");
    }

    /** A write whose outcome the test gives. */
    private record Write(String key, Consumer<Exception> outcome) {
    }
}

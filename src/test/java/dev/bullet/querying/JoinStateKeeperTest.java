package dev.bullet.querying;

import dev.bullet.query.QuerySettings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When the Join's held partials are acked or failed, what is written, and when. */
class JoinStateKeeperTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final String COUNT = "{\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\": "
                                        + "[{\"type\": \"COUNT\"}]}}, \"duration\": 10000}";

    /** A log that confirms or fails each write when the test says so. */
    private static final class Log implements JoinStateKeeper.Log {
        record Write(String key, byte[] value, Consumer<Exception> outcome) {
        }

        final List<Write> writes = new ArrayList<>();

        @Override
        public void write(String key, byte[] value, Consumer<Exception> outcome) {
            writes.add(new Write(key, value, outcome));
        }

        void confirm(int i) {
            writes.get(i).outcome().accept(null);
        }

        void failWrite(int i) {
            writes.get(i).outcome().accept(new IllegalStateException("broker away"));
        }
    }

    private final Log log = new Log();
    private final List<String> acked = new ArrayList<>();
    private final List<String> failed = new ArrayList<>();
    private final JoinStateKeeper.Settle<String> settle = new JoinStateKeeper.Settle<>() {
        @Override
        public void ack(String held) {
            acked.add(held);
        }

        @Override
        public void fail(String held) {
            failed.add(held);
        }
    };
    private final JoinEngine engine = new JoinEngine(QuerySettings.defaults(), 1, 0);
    private final List<JoinEngine.Emitted> out = new ArrayList<>();

    private void merge(String id, long offset) {
        engine.combine(id, (Object) null, false, 0, new long[] {0, offset, offset}, false, T0, out);
    }

    @Test
    void aPartialIsAckedOnceASnapshotHoldingItIsConfirmedAndOneSnapshotIsInFlightAtATime() {
        JoinStateKeeper<String> keeper = new JoinStateKeeper<>(log, 1 << 20, 100);
        engine.add("a", COUNT, T0, 0);
        merge("a", 1);
        keeper.hold("t1");
        assertTrue(keeper.snapshot(engine, T0 + 100, settle));
        assertEquals(1, log.writes.size());
        assertEquals("a", log.writes.get(0).key());
        merge("a", 2);
        keeper.hold("t2");
        assertFalse(keeper.snapshot(engine, T0 + 150, settle), "not due yet");
        assertFalse(keeper.snapshot(engine, T0 + 200, settle), "the previous one is not confirmed yet");
        keeper.poll(settle);
        assertEquals(List.of(), acked);
        log.confirm(0);
        keeper.poll(settle);
        assertEquals(List.of("t1"), acked, "t2 came after that snapshot");
        assertTrue(keeper.snapshot(engine, T0 + 250, settle));
        assertEquals(2, log.writes.size());
        log.confirm(1);
        keeper.poll(settle);
        assertEquals(List.of("t1", "t2"), acked);
        assertEquals(0, keeper.held());

        keeper.hold("t3"); // merged nothing new (a partial sent again and dropped): no write, acked at the next one
        assertTrue(keeper.snapshot(engine, T0 + 400, settle));
        assertEquals(2, log.writes.size(), "an unchanged query is not written again");
        assertEquals(List.of("t1", "t2", "t3"), acked);
    }

    @Test
    void howLongTheOldestSnapshotInFlightHasWaitedIsKnown() {
        JoinStateKeeper<String> keeper = new JoinStateKeeper<>(log, 1 << 20, 100);
        assertEquals(0, keeper.unconfirmedForMs(T0), "nothing in flight");
        engine.add("a", COUNT, T0, 0);
        merge("a", 1);
        keeper.hold("t1");
        assertTrue(keeper.snapshot(engine, T0 + 100, settle));
        assertEquals(0, keeper.unconfirmedForMs(T0 + 100));
        assertEquals(7_000, keeper.unconfirmedForMs(T0 + 7_100), "the log has not confirmed it for 7 s");
        log.confirm(0);
        keeper.poll(settle);
        assertEquals(0, keeper.unconfirmedForMs(T0 + 7_200), "confirmed: nothing waits");
    }

    @Test
    void aFailedWriteFailsWhatItsSnapshotHeldAndTheQueryIsWrittenAgain() {
        JoinStateKeeper<String> keeper = new JoinStateKeeper<>(log, 1 << 20, 100);
        engine.add("a", COUNT, T0, 0);
        engine.add("b", COUNT, T0, 0);
        merge("a", 1);
        keeper.hold("t1");
        keeper.snapshot(engine, T0 + 100, settle); // writes 0 and 1 (a and b)
        merge("b", 2);
        keeper.hold("t2");
        assertEquals(2, log.writes.size());
        String failing = log.writes.get(0).key();
        log.confirm(1);
        log.failWrite(0);
        keeper.poll(settle);
        assertEquals(List.of("t1"), failed);
        assertEquals(List.of(), acked);
        assertEquals(1, keeper.failures());

        keeper.snapshot(engine, T0 + 200, settle);
        List<String> again = log.writes.subList(2, log.writes.size()).stream().map(Log.Write::key).sorted().toList();
        assertTrue(again.contains(failing), "the query whose write failed is written again: " + again);
        for (int i = 2; i < log.writes.size(); i++) {
            log.confirm(i);
        }
        keeper.poll(settle);
        assertEquals(List.of("t2"), acked);
    }

    @Test
    void anEndedQueryGetsATombstoneAndATooLargeOneATombstoneInsteadOfItsState() {
        JoinStateKeeper<String> keeper = new JoinStateKeeper<>(log, 200, 0);
        engine.add("a", COUNT, T0, 0);
        merge("a", 1);
        keeper.snapshot(engine, T0 + 100, settle);
        assertTrue(log.writes.get(0).value().length > 0 && log.writes.get(0).value().length <= 200);
        log.confirm(0);
        keeper.poll(settle);
        for (long offset = 2; offset < 400; offset += 2) {
            merge("a", offset); // 200 runs of merged batches: more than 200 bytes
        }
        keeper.hold("t1");
        keeper.snapshot(engine, T0 + 200, settle);
        assertNull(log.writes.get(1).value(), "too large: a tombstone stands for it");
        assertEquals(1, keeper.tooLarge().size());
        log.confirm(1);
        keeper.poll(settle);
        assertEquals(List.of("t1"), acked);

        assertTrue(engine.kill("a"));
        keeper.snapshot(engine, T0 + 300, settle);
        assertEquals(3, log.writes.size());
        assertEquals("a", log.writes.get(2).key());
        assertNull(log.writes.get(2).value(), "an ended query's snapshot is deleted");
        log.confirm(2);
        keeper.poll(settle);
        keeper.snapshot(engine, T0 + 400, settle);
        assertEquals(3, log.writes.size(), "once");
    }

    @Test
    void theSnapshotsReadAtTheStartAreTakenOnceAndForgottenAfterAWhile() {
        JoinStateKeeper<String> keeper = new JoinStateKeeper<>(log, 1 << 20, 100);
        keeper.loaded(Map.of("a", new byte[] {1}, "b", new byte[] {2}), T0);
        assertEquals(1, keeper.take("a")[0]);
        assertNull(keeper.take("a"));
        keeper.snapshot(engine, T0 + JoinStateKeeper.RESTORABLE_MS, settle);
        assertNull(keeper.take("b"));
    }

    @Test
    void aQueryTakenUpWithoutItsStateTombstonesEveryPlaceOfADeltaAtItsEnd() {
        JoinStateKeeper<String> keeper = new JoinStateKeeper<>(log, 1 << 20, 100);
        keeper.loaded(Map.of("a", new byte[] {1}), T0);
        assertNull(keeper.take("b"), "b: no state read here, though an earlier task may have written deltas of it");
        assertNull(keeper.take("b"), "taken twice (a second Filter task hands it back)");
        assertEquals(1, keeper.take("a")[0], "a: its base read, no delta");
        keeper.snapshot(engine, T0 + 100, settle); // neither runs in the engine: both ended
        List<String> keys = log.writes.stream().map(Log.Write::key).sorted().toList();
        List<String> expected = new ArrayList<>(List.of("a", "b"));
        for (int seq = 1; seq <= JoinStateKeeper.MAX_DELTAS; seq++) {
            expected.add("b" + JoinStateKeeper.DELTA_KEY + seq);
        }
        assertEquals(expected.stream().sorted().toList(), keys);
        assertTrue(log.writes.stream().allMatch(w -> w.value() == null), "all tombstones");
    }
}

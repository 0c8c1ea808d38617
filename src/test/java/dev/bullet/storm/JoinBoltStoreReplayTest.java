package dev.bullet.storm;

import dev.bullet.query.QuerySettings;
import dev.bullet.querying.JoinQuerier;
import dev.bullet.querying.StoreReplayWait;
import dev.bullet.record.JsonCodec;
import dev.bullet.storm.TopologyNames.Components;
import dev.bullet.storm.TopologyNames.Streams;
import dev.bullet.storm.testing.Bolts;
import dev.bullet.storm.testing.RecordingOutputCollector;
import dev.bullet.storm.testing.RecordingOutputCollector.Emission;
import dev.bullet.storm.testing.Tuples;
import dev.bullet.testing.ManualClock;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A (re)started Join task and the query spout's replay of the query store: the hellos of restarted Filter tasks are
 * answered (so those tasks take record batches) only once the stored queries are back, or, past a deadline, with the
 * queries taken up later flagged incomplete.
 */
class JoinBoltStoreReplayTest {
    private static final String COUNT_60S = "{\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\":"
                                            + " [{\"type\": \"COUNT\"}]}}, \"duration\": 60000}";
    private static final int FILTER = 1234;

    private final RecordingOutputCollector out = new RecordingOutputCollector();
    private final ManualClock clock = new ManualClock(1_000_000);

    /** A Join task as it restarts: its first tuple says hello; its one Filter task hands back what it had (nothing). */
    private JoinBolt restarted() {
        JoinBolt bolt = new JoinBolt(QuerySettings.defaults(), 3_600_000L, clock);
        Bolts.prepareRestarted(bolt, out, Map.of());
        bolt.execute(Tuples.tick(0L));
        assertEquals(1, out.emitted(Streams.HELLO).size());
        bolt.execute(Tuples.restore("restored-0", null, 0L, -1, Bolts.TASK)); // the Filter task handed back all it had
        bolt.execute(Tuples.hello(Components.FILTER_BOLT, FILTER)); // and, restarted too, asks for the queries
        return bolt;
    }

    private List<String> replayed() {
        return out.emitted(Streams.REPLAY).stream().map(e -> e.<String>value(0)).toList();
    }

    @Test
    void restartedWithTheQuerySpoutItAnswersTheFiltersOnlyWithTheStoredQueriesBack() {
        JoinBolt bolt = restarted();
        long start = clock.now() - 10_000;
        bolt.execute(Tuples.storeReplay(clock.now(), false));
        for (int i = 0; i < 20; i++) { // the query spout's worker is slow to come up
            clock.advance(StoreReplayWait.REPORT_INTERVAL_MS);
            bolt.execute(Tuples.tick(0L));
            bolt.execute(Tuples.storeReplay(clock.now(), false));
        }
        assertEquals(List.of(), out.emitted(Streams.REPLAY), "a Filter task told now would take batches without the"
                                                             + " stored queries");

        bolt.execute(Tuples.resumedQuery("q", COUNT_60S, start, 3, clock.now()));
        bolt.execute(Tuples.storeReplay(clock.now(), true));

        assertEquals(Arrays.asList("q", null), replayed(), "the stored query, then the end of the replay");
        assertTrue(out.emitted(Streams.REPLAY).stream().allMatch(e -> e.directTask() == FILTER));
        Map<String, Object> meta = finalMeta(bolt, start);
        assertNull(meta.get(JoinQuerier.INCOMPLETE), "the Filter tasks had it before any batch: " + meta);
        assertTrue(meta.containsKey("restarted"), "taken up from the store: " + meta);
    }

    @Test
    void restartedAloneItAnswersAsSoonAsTheQuerySpoutSaysItsReplayWasDone() {
        JoinBolt bolt = restarted();
        clock.advance(StoreReplayWait.REPORT_INTERVAL_MS / 2);
        bolt.execute(Tuples.tick(0L));
        assertEquals(List.of(), out.emitted(Streams.REPLAY), "no report yet: a replay may be under way");

        bolt.execute(Tuples.storeReplay(clock.now() - 3_600_000, true)); // the query spout ran for an hour

        assertEquals(Arrays.asList((String) null), replayed(), "answered at once: nothing to wait for");
    }

    @Test
    void withoutAReportOfTheReplayItAnswersAtTheDeadlineAndALaterStoredQuerySaysItMayBeIncomplete() {
        JoinBolt bolt = restarted();
        clock.advance(StoreReplayWait.MAX_WAIT_MS - 1);
        bolt.execute(Tuples.tick(0L));
        assertEquals(List.of(), out.emitted(Streams.REPLAY));
        clock.advance(1);
        bolt.execute(Tuples.tick(0L));
        assertEquals(Arrays.asList((String) null), replayed(), "answered: records flow from now on");

        long start = clock.now() - 10_000;
        bolt.execute(Tuples.resumedQuery("q", COUNT_60S, start, 3, clock.now()));
        bolt.execute(Tuples.storeReplay(clock.now(), true));

        Map<String, Object> meta = finalMeta(bolt, start);
        assertTrue(meta.containsKey(JoinQuerier.INCOMPLETE), "records were read without it: " + meta);
    }

    @Test
    void aStoredQueryAfterTheReplayWasDoneIsFlaggedButOneThatIsKnownIsIgnored() {
        JoinBolt bolt = restarted();
        long start = clock.now() - 10_000;
        bolt.execute(Tuples.storeReplay(clock.now(), false));
        bolt.execute(Tuples.resumedQuery("q", COUNT_60S, start, 3, clock.now()));
        bolt.execute(Tuples.storeReplay(clock.now(), true));
        // a second replay (the query spout restarted again): the known query is not taken up twice
        bolt.execute(Tuples.resumedQuery("q", COUNT_60S, start, 3, clock.now()));
        bolt.execute(Tuples.resumedQuery("late", COUNT_60S, start, 3, clock.now()));

        assertNull(finalMeta(bolt, start, "q").get(JoinQuerier.INCOMPLETE));
        assertTrue(finalMeta(bolt, start, "late").containsKey(JoinQuerier.INCOMPLETE));
    }

    private Map<String, Object> finalMeta(JoinBolt bolt, long start) {
        return finalMeta(bolt, start, "q");
    }

    /** Ends query {@code id} (its one Filter task's last partial, its duration over) and reads its final result's meta. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> finalMeta(JoinBolt bolt, long start, String id) {
        bolt.execute(Tuples.partial(id, null, true));
        if (clock.now() < start + 60_000) {
            clock.advance(start + 60_000 - clock.now());
        }
        bolt.execute(Tuples.tick(0L));
        Emission result = out.emitted(Streams.RESULT).stream().filter(e -> id.equals(e.value(0)) && e.<Boolean>value(3))
                .findFirst().orElseThrow(() -> new AssertionError("no final result of " + id + ": " + out.emissions()));
        Map<String, Object> json = (Map<String, Object>) JsonCodec.parse(result.value(1));
        assertFalse(json.containsKey("error"));
        return (Map<String, Object>) json.get("meta");
    }
}

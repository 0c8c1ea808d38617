package dev.bullet.storm;

import dev.bullet.config.SettingsTable;
import dev.bullet.pubsub.Signal;
import dev.bullet.query.MemoryBounds;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.FilterEngine;
import dev.bullet.querying.JoinQuerier;
import dev.bullet.querying.aggregations.RawAggregator;
import dev.bullet.record.JsonCodec;
import dev.bullet.record.Record;
import dev.bullet.storm.TopologyNames.Components;
import dev.bullet.storm.TopologyNames.Streams;
import dev.bullet.storm.testing.Bolts;
import dev.bullet.storm.testing.RecordingOutputCollector.Emission;
import dev.bullet.storm.testing.RecordingOutputCollector;
import dev.bullet.storm.testing.Tuples;
import dev.bullet.querying.ReplayWait;
import dev.bullet.testing.ManualClock;
import dev.bullet.testing.Records;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Join bolt driven directly: queries and partials in, results and COMPLETE signals out. */
class JoinBoltTest {
    private static final String RAW_2 = "{\"aggregation\": {\"type\": \"RAW\", \"size\": 2}}";
    private static final String COUNT_1S = "{\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\": [{\"type\": \"COUNT\"}]}},"
                                           + " \"duration\": 1000}";

    private final RecordingOutputCollector out = new RecordingOutputCollector();
    private final ManualClock clock = new ManualClock(1_000_000);

    private JoinBolt prepared(int filterTasks) {
        JoinBolt bolt = new JoinBolt(QuerySettings.defaults(), 3_600_000L, clock);
        Bolts.prepare(bolt, out, Map.of(), filterTasks);
        return bolt;
    }

    private static byte[] rawPartial(Record... records) {
        RawAggregator raw = new RawAggregator(100);
        for (Record r : records) {
            raw.consume(r);
        }
        return raw.serialize();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(Emission result) {
        return (Map<String, Object>) JsonCodec.parse(result.value(1));
    }

    @Test
    void partialsOfSeveralQueriesInOneTupleAreEachMergedAndABrokenOneSkipsOnlyItself() {
        JoinBolt bolt = prepared(1);
        bolt.execute(Tuples.query("a", RAW_2, clock.now(), 0));
        bolt.execute(Tuples.query("b", RAW_2, clock.now(), 0));
        bolt.execute(Tuples.query("c", RAW_2, clock.now(), 0));
        Tuple tuple = Tuples.partials(new long[0], false,
                                      "a", rawPartial(Records.of("id", "a").build(), Records.of("id", "a2").build()), false,
                                      "b", new byte[] {'[', 1, 2}, false, // not a partial this Join can read
                                      "c", rawPartial(Records.of("id", "c").build(), Records.of("id", "c2").build()), false);
        bolt.execute(tuple);

        Map<String, Object> results = new HashMap<>();
        for (Emission e : out.emitted(Streams.RESULT)) {
            results.put(e.value(0), json(e).get("records"));
        }
        assertEquals(List.of(Records.of("id", "a").asMap(), Records.of("id", "a2").asMap()), results.get("a"));
        assertEquals(List.of(Records.of("id", "c").asMap(), Records.of("id", "c2").asMap()), results.get("c"),
                     "the partial after the broken one is merged");
        assertFalse(results.containsKey("b"));
        assertEquals(1, out.acked().stream().filter(t -> t == tuple).count(), "the tuple is acked once");
    }

    @Test
    void queryPastTheRunningBoundGetsAnErrorResultAndACompleteSignal() {
        JoinBolt bolt = new JoinBolt(QuerySettings.defaults(), new MemoryBounds(Long.MAX_VALUE, Long.MAX_VALUE, 1),
                                     3_600_000L, 1, clock);
        Bolts.prepare(bolt, out, Map.of(), 1);
        bolt.execute(Tuples.query("first", RAW_2, clock.now(), 0));
        assertEquals(List.of(), out.emissions());

        bolt.execute(Tuples.query("second", RAW_2, clock.now(), 4));

        List<Emission> emitted = out.emissions();
        assertEquals(2, emitted.size());
        Emission result = emitted.get(0);
        assertEquals("second", result.value(0));
        assertEquals(4, (int) result.<Integer>value(2));
        assertTrue(result.<Boolean>value(3));
        assertTrue(result.<String>value(1).contains("bullet.query.max.running"), result.<String>value(1));
        assertEquals(List.of("second", Signal.COMPLETE.name()), emitted.get(1).values());
    }

    @Test
    void rawQueryWithPartialsGivesAFinalResultAndACompleteSignal() {
        JoinBolt bolt = prepared(2);
        bolt.execute(Tuples.query("q", RAW_2, clock.now(), 5));
        bolt.execute(Tuples.partial("q", rawPartial(Records.of("id", "a").build()), false));
        assertEquals(List.of(), out.emissions());

        bolt.execute(Tuples.partial("q", rawPartial(Records.of("id", "b").build()), false));

        List<Emission> emitted = out.emissions();
        assertEquals(2, emitted.size());
        Emission result = emitted.get(0);
        assertEquals(Streams.RESULT, result.stream());
        assertEquals("q", result.value(0));
        assertEquals(5, (int) result.<Integer>value(2));
        assertTrue(result.<Boolean>value(3));
        assertEquals(List.of(Records.of("id", "a").asMap(), Records.of("id", "b").asMap()), json(result).get("records"));
        Emission signal = emitted.get(1);
        assertEquals(Streams.SIGNAL, signal.stream());
        assertEquals(List.of("q", Signal.COMPLETE.name()), signal.values());
        assertEquals(3, out.acked().size());
    }

    @Test
    void finalWaitsForTheLastPartialOfEveryFilterTask() {
        JoinBolt bolt = prepared(2);
        long started = clock.now() - 60_000; // the duration is over: only the last partials matter
        bolt.execute(Tuples.query("q", COUNT_1S, started, 0));
        bolt.execute(Tuples.tick(0L));
        assertEquals(List.of(), out.emissions(), "no Filter task sent its last partial yet");

        bolt.execute(Tuples.partialFrom(0, "q", null, true));
        bolt.execute(Tuples.tick(0L));
        assertEquals(List.of(), out.emissions(), "one Filter task of two");
        bolt.execute(Tuples.partialFrom(0, "q", null, true));
        bolt.execute(Tuples.tick(0L));
        assertEquals(List.of(), out.emissions(), "a restarted task's second last partial counts once");

        bolt.execute(Tuples.partialFrom(1, "q", null, true));
        bolt.execute(Tuples.tick(0L));
        List<Emission> results = out.emitted(Streams.RESULT);
        assertEquals(1, results.size());
        assertTrue(results.get(0).<Boolean>value(3));
        assertEquals(List.of(List.of("q", Signal.COMPLETE.name())),
                     out.emitted(Streams.SIGNAL).stream().map(Emission::values).toList());
    }

    @Test
    void aHelloWhileThisTaskMayStillGetQueriesBackIsAnsweredOnceItCannot() {
        JoinBolt bolt = prepared(2);
        bolt.execute(Tuples.query("q", COUNT_1S, clock.now(), 3));
        bolt.execute(Tuples.hello(Components.FILTER_BOLT, 1234));
        assertEquals(List.of(), out.emitted(Streams.REPLAY), "a restarted Filter task would take batches without the"
                                                           + " queries still to come back");
        clock.advance(ReplayWait.HELLO_INTERVAL_MS + JoinBolt.RESTORE_GRACE_MS);
        bolt.execute(Tuples.tick(0L));
        assertEquals(2, out.emitted(Streams.REPLAY).size(), "the query, then the end of the replay");
    }

    @Test
    void restartedFilterTaskGetsEveryRunningQueryReplayedDirectlyThenAnEnd() {
        JoinBolt bolt = prepared(2);
        clock.advance(ReplayWait.HELLO_INTERVAL_MS + JoinBolt.RESTORE_GRACE_MS); // past its own restart
        long start = clock.now();
        bolt.execute(Tuples.query("q", COUNT_1S, start, 3));

        bolt.execute(Tuples.hello(Components.FILTER_BOLT, 1234));

        List<Emission> replays = out.emitted(Streams.REPLAY);
        assertEquals(2, replays.size());
        assertEquals(List.of("q", COUNT_1S, start, 3), replays.get(0).values());
        assertEquals(1234, replays.get(0).directTask());
        assertNull(replays.get(1).value(0), "the end of the replay");
        assertEquals(1234, replays.get(1).directTask());
    }

    @Test
    @SuppressWarnings("unchecked")
    void restartedJoinTakesBackItsQueriesAndSaysTheResultMayBeIncomplete() {
        JoinBolt bolt = prepared(1);
        long start = clock.now() - 60_000;
        bolt.execute(Tuples.restore("other", COUNT_1S, start, 3, Bolts.TASK + 1));
        bolt.execute(Tuples.restore("q", COUNT_1S, start, 3, Bolts.TASK));
        assertEquals(List.of("q"), out.emitted(Streams.REPLAY).stream().map(e -> e.<String>value(0)).distinct().toList(),
                     "only its own query, replayed to Filter tasks that restarted with it");

        bolt.execute(Tuples.partial("q", null, true));
        bolt.execute(Tuples.tick(0L));

        List<Emission> results = out.emitted(Streams.RESULT);
        assertEquals(1, results.size(), "answered: the query was taken back; 'other' is not this task's");
        Map<String, Object> meta = (Map<String, Object>) json(results.get(0)).get("meta");
        assertTrue(meta.containsKey(JoinQuerier.INCOMPLETE), "says it may be incomplete: " + meta);
    }

    @Test
    @SuppressWarnings("unchecked")
    void retriedBatchThatWasMergedBeforeIsNotCountedTwice() {
        JoinBolt bolt = prepared(1);
        long start = clock.now() - 60_000;
        bolt.execute(Tuples.query("q", COUNT_1S, start, 0));
        byte[] one = countPartial();

        // spans: (partition, first offset, last offset)
        bolt.execute(Tuples.partial("q", one, new long[] {0, 0, 99, 0, 100, 199}, false));
        bolt.execute(Tuples.partial("q", one, new long[] {0, 0, 99}, true)); // its ack was lost: sent again, merged before
        bolt.execute(Tuples.partial("q", one, new long[] {0, 200, 299}, true)); // its Filter task died before reporting it
        bolt.execute(Tuples.partial("q", one, new long[] {0, 150, 150}, true)); // one record read again by a new reader
        bolt.execute(Tuples.partial("q", null, true));
        bolt.execute(Tuples.tick(0L));

        List<Emission> results = out.emitted(Streams.RESULT);
        assertEquals(1, results.size());
        List<Map<String, Object>> records = (List<Map<String, Object>>) json(results.get(0)).get("records");
        assertEquals(2L, ((Number) records.get(0).get("COUNT")).longValue(), "batches 0-99/100-199 and 200-299; 0-99 and 150 once: " + records);
    }

    /** A Filter task's partial of a global COUNT over one record. */
    private static byte[] countPartial() {
        FilterEngine engine = new FilterEngine(QuerySettings.defaults());
        long now = 1_000_000;
        engine.add("q", COUNT_1S, now);
        List<FilterEngine.Partial> partials = new ArrayList<>();
        engine.consume(List.of(Records.of("id", "a").build()), now, partials);
        engine.tick(now, partials);
        return partials.get(0).data();
    }

    @Test
    void killGivesACompleteSignalAndNoResult() {
        JoinBolt bolt = prepared(1);
        bolt.execute(Tuples.query("q", RAW_2, clock.now(), 0));
        bolt.execute(Tuples.partial("q", rawPartial(Records.of("id", "a").build()), false));

        bolt.execute(Tuples.querySignal("q", Signal.KILL));

        assertEquals(List.of(), out.emitted(Streams.RESULT));
        assertEquals(List.of(List.of("q", Signal.COMPLETE.name())),
                     out.emitted(Streams.SIGNAL).stream().map(Emission::values).toList());

        out.drain();
        bolt.execute(Tuples.partial("q", rawPartial(Records.of("id", "b").build()), false));
        bolt.execute(Tuples.querySignal("q", Signal.KILL));
        assertEquals(List.of(), out.emissions(), "a killed query is forgotten; a second KILL is not echoed");
    }

    @Test
    @SuppressWarnings("unchecked")
    void invalidQueryIsAnsweredAtOnceWithAnErrorResult() {
        JoinBolt bolt = prepared(1);
        bolt.execute(Tuples.query("bad", "{\"filters\": [", clock.now(), 2));

        List<Emission> results = out.emitted(Streams.RESULT);
        assertEquals(1, results.size());
        assertTrue(results.get(0).<Boolean>value(3));
        assertEquals(2, (int) results.get(0).<Integer>value(2));
        Map<String, Object> meta = (Map<String, Object>) json(results.get(0)).get("meta");
        assertFalse(((List<?>) meta.get("errors")).isEmpty());
    }

    @Test
    void countsCreatedAndImproperQueriesWhenBuiltInMetricsAreOn() {
        JoinBolt bolt = new JoinBolt(QuerySettings.defaults(), 3_600_000L, clock);
        Bolts.Prepared p = Bolts.prepare(bolt, out, Map.of(SettingsTable.METRICS_BUILT_IN_ENABLE, true), 1);
        bolt.execute(Tuples.query("ok", RAW_2, clock.now(), 0));
        bolt.execute(Tuples.query("bad", "{\"filters\": [", clock.now(), 0));

        assertEquals(1, p.count(BulletMetrics.CREATED_QUERIES));
        assertEquals(1, p.count(BulletMetrics.IMPROPER_QUERIES));
        assertEquals(0, p.count(BulletMetrics.RATE_EXCEEDED_QUERIES));
    }

    @Test
    void aTupleFromAStreamTheBoltIsNotWiredToIsABugThatFailsLoudly() {
        JoinBolt bolt = prepared(1);
        Tuple stray = Tuples.records(1L, Records.of("id", "a").build());

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> bolt.execute(stray));
        assertTrue(e.getMessage().contains(Streams.RECORDS), e.getMessage());
    }
}

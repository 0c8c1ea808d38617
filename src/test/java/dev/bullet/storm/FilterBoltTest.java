package dev.bullet.storm;

import dev.bullet.pubsub.Signal;
import dev.bullet.query.MemoryBounds;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.RawPartial;
import dev.bullet.querying.aggregations.RawAggregator;
import dev.bullet.record.Record;
import dev.bullet.storm.TopologyNames.Components;
import dev.bullet.storm.TopologyNames.Streams;
import dev.bullet.storm.testing.Bolts;
import dev.bullet.storm.testing.RecordingOutputCollector.Emission;
import dev.bullet.storm.testing.RecordingOutputCollector;
import dev.bullet.storm.testing.Tuples;
import dev.bullet.testing.ManualClock;
import dev.bullet.testing.Records;
import org.apache.storm.daemon.GrouperFactory;
import org.apache.storm.generated.Grouping;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Filter bolt driven directly: queries in, record batches in, partials out to the Join. */
class FilterBoltTest {
    private static final String RAW_ID_A = "{\"filters\": [{\"field\": \"id\", \"operation\": \"==\", \"values\": [\"a\"]}],"
                                           + " \"aggregation\": {\"type\": \"RAW\", \"size\": 10}}";
    private static final String COUNT = "{\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\": [{\"type\": \"COUNT\"}]}}}";

    private final RecordingOutputCollector out = new RecordingOutputCollector();
    private final ManualClock clock = new ManualClock(1_000_000);
    private final FilterBolt bolt = new FilterBolt(QuerySettings.defaults(), clock);

    @BeforeEach
    void prepare() {
        Bolts.prepare(bolt, out, Map.of());
    }

    private long now() {
        return clock.now();
    }

    @Test
    void rawQueryThenRecordsEmitsAPartialWithTheMatches() {
        Tuple query = Tuples.query("q", RAW_ID_A, now(), 0);
        Tuple records = Tuples.records(1L, Records.of("id", "a").build(), Records.of("id", "b").build());

        bolt.execute(query);
        bolt.execute(records);

        assertEquals(List.of(query), out.acked(), "a batch is acked only once every partial covering it is out");
        List<Emission> partials = out.emitted(Streams.PARTIAL);
        assertEquals(List.of(records), partials.get(0).anchors(), "the RAW partial is anchored to its batch");
        assertEquals(1, partials.size());
        Emission p = partials.get(0);
        assertEquals("q", p.value(0));
        List<Object> flat = p.value(1); // (id, partial, last) per partial of the emit
        assertEquals(3, flat.size());
        assertEquals("q", flat.get(0));
        RawPartial rows = (RawPartial) flat.get(1); // a RAW partial travels as its rows
        assertEquals(List.of(Records.of("id", "a").asMap()), RawAggregator.decode(rows.bytes()));
        assertEquals(Boolean.FALSE, flat.get(2));
        assertEquals(partials, out.emissions(), "nothing but partials");
    }

    @Test
    void aQueryHoldingMoreThanTheByteBoundSendsItsPartialRightAfterTheBatch() {
        RecordingOutputCollector bounded = new RecordingOutputCollector();
        FilterBolt filter = new FilterBolt(QuerySettings.defaults(), new MemoryBounds(10_000, Long.MAX_VALUE, 100), clock);
        Bolts.prepare(filter, bounded, Map.of());
        String groupByKey = "{\"aggregation\": {\"type\": \"GROUP\", \"fields\": {\"k\": \"k\"}}}";
        filter.execute(Tuples.query("q", groupByKey, now(), 0));
        Tuple small = Tuples.records(1L, Records.of("k", "a").build());
        filter.execute(small);
        assertEquals(List.of(), bounded.emitted(Streams.PARTIAL), "under the bound: the partial waits for the tick");

        Record[] large = new Record[20];
        for (int i = 0; i < large.length; i++) {
            large[i] = Records.of("k", i + "k".repeat(1_000)).build();
        }
        Tuple batch = Tuples.records(2L, large);
        filter.execute(batch);

        List<Emission> partials = bounded.emitted(Streams.PARTIAL);
        assertEquals(1, partials.size(), "over the bound: the partial leaves without a tick");
        assertEquals(List.of(small, batch), partials.get(0).anchors(), "covering every batch not reported yet");
        assertTrue(bounded.acked().containsAll(List.of(small, batch)));
    }

    @Test
    void theTicksPartialsForOneJoinTaskTravelInOneTuple() {
        for (String id : List.of("q1", "q2", "q3")) {
            bolt.execute(Tuples.query(id, COUNT, now(), 0)); // shared: one evaluator, a partial each
        }
        bolt.execute(Tuples.query("raw", RAW_ID_A, now(), 0));
        Tuple records = Tuples.records(1L, Records.of("id", "a").build());
        bolt.execute(records);
        bolt.execute(Tuples.tick(now()));

        List<Emission> partials = out.emitted(Streams.PARTIAL);
        assertEquals(2, partials.size(), "the batch's RAW partial at once, then one tuple for the tick's partials");
        assertEquals(List.of("raw"), ids(partials.get(0)));
        assertEquals(List.of("q1", "q2", "q3"), ids(partials.get(1)), "in order, each once");
        assertEquals("q1", partials.get(1).value(0), "routed by its first id");
        assertEquals(List.of(records), partials.get(1).anchors(), "anchored once to the batch it covers, not per partial");
    }

    @Test
    void withSeveralJoinTasksEachTupleHoldsThePartialsFieldsGroupingSendsToOneTask() {
        RecordingOutputCollector split = new RecordingOutputCollector();
        FilterBolt filter = new FilterBolt(QuerySettings.defaults(), clock);
        Bolts.prepareWithJoinTasks(filter, split, Map.of(), 3);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            ids.add("query-" + i);
            filter.execute(Tuples.query("query-" + i, COUNT, now(), 0));
        }
        filter.execute(Tuples.records(1L, Records.of("id", "a").build()));
        filter.execute(Tuples.tick(now()));

        // Storm's own fields grouping on the id, over three Join tasks
        Fields fields = new Fields(
            TopologyNames.Fields.ID, TopologyNames.Fields.PARTIALS, TopologyNames.Fields.BATCH_KEYS, TopologyNames.Fields.RETRY);
        GrouperFactory.FieldsGrouper grouper = new GrouperFactory.FieldsGrouper(
            fields, Grouping.fields(List.of(TopologyNames.Fields.ID)));
        grouper.prepare(null, null, List.of(7, 8, 9));
        List<Emission> partials = split.emitted(Streams.PARTIAL);
        assertTrue(partials.size() > 1 && partials.size() <= 3, "one tuple per Join task that gets partials: " + partials.size());
        List<String> seen = new ArrayList<>();
        for (Emission e : partials) {
            List<Integer> task = grouper.chooseTasks(0, e.values());
            for (String id : ids(e)) {
                assertEquals(task, grouper.chooseTasks(0, List.of(id, List.of(), new long[0], false)),
                             id + " travels to the task fields grouping gives it");
                seen.add(id);
            }
        }
        Collections.sort(seen);
        Collections.sort(ids);
        assertEquals(ids, seen, "every query's partial, once");
    }

    @SuppressWarnings("unchecked")
    private static List<String> ids(Emission partials) {
        List<Object> flat = partials.value(1);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < flat.size(); i += 3) {
            ids.add((String) flat.get(i));
        }
        return ids;
    }

    @Test
    void nonRawPartialsWaitForATick() {
        bolt.execute(Tuples.query("q", COUNT, now(), 0));
        Tuple records = Tuples.records(1L, Records.of("id", "a").build());
        bolt.execute(records);
        assertEquals(List.of(), out.emissions());
        assertFalse(out.acked().contains(records), "not reported yet, so not acked: a dead task's batch is re-read");

        bolt.execute(Tuples.tick(now()));
        List<Emission> partials = out.emitted(Streams.PARTIAL);
        assertEquals(1, partials.size());
        List<Object> flat = partials.get(0).value(1);
        assertNotNull(flat.get(1));
        assertEquals(Boolean.FALSE, flat.get(2));
        assertEquals(List.of(records), partials.get(0).anchors(), "the partial carries the batch's tree to the Join");
        assertTrue(out.acked().contains(records));
    }

    @Test
    void retriedBatchIsReportedAloneAtOnceAndFlagged() {
        bolt.execute(Tuples.query("q", COUNT, now(), 0));
        Tuple first = Tuples.records(1L, Records.of("id", "a").build()); // batch key 2
        bolt.execute(first);

        Tuple retried = Tuples.retriedRecords(99L, Records.of("id", "b").build());
        bolt.execute(retried);

        List<Emission> partials = out.emitted(Streams.PARTIAL);
        assertEquals(2, partials.size(), "what was pending, then the retried batch alone");
        // a plug-in spout's long key k is the span (2^40 | k >>> 32, k & 0xFFFFFFFF, k & 0xFFFFFFFF)
        assertEquals(List.of(1L << 40, 2L, 2L), Arrays.stream(partials.get(0).<long[]>value(2)).boxed().toList());
        assertFalse(partials.get(0).<Boolean>value(3));
        assertEquals(List.of(1L << 40, 99L, 99L), Arrays.stream(partials.get(1).<long[]>value(2)).boxed().toList());
        assertTrue(partials.get(1).<Boolean>value(3));
        assertEquals(List.of(retried), partials.get(1).anchors());
        assertTrue(out.acked().containsAll(List.of(first, retried)));
    }

    /**
     * A batch sent again (its ack timed out after the Join merged it) does not count twice toward a RAW query's size:
     * the records after it that the query still needs are taken.
     */
    @Test
    void aRetriedBatchLeavesARawQueryRoomForTheRecordsItStillNeeds() {
        bolt.execute(Tuples.query("q", RAW_ID_A.replace("\"size\": 10", "\"size\": 3"), now(), 0));
        Record a1 = Records.of("id", "a", "n", 1L).build();
        Record a2 = Records.of("id", "a", "n", 2L).build();
        bolt.execute(Tuples.records(1L, a1, a2));
        bolt.execute(Tuples.retriedRecords(2L, a1, a2));
        bolt.execute(Tuples.records(3L, Records.of("id", "a", "n", 3L).build()));

        List<Emission> partials = out.emitted(Streams.PARTIAL);
        assertEquals(3, partials.size(), "the batch, the batch again, the third record");
        RawPartial last = (RawPartial) partials.get(2).<List<Object>>value(1).get(1);
        assertEquals(List.of(Records.of("id", "a", "n", 3L).asMap()), RawAggregator.decode(last.bytes()));
    }

    /**
     * Records a new reader sends again one by one (each with its offset): a RAW query that found its records takes
     * them, each in a partial of its own record, up to its size for the batch.
     */
    @Test
    void recordsSentAgainOneByOneGoToARawQueryThatFilledUpUpToItsSize() {
        bolt.execute(Tuples.query("q", RAW_ID_A.replace("\"size\": 10", "\"size\": 2"), now(), 0));
        Record a1 = Records.of("id", "a", "n", 1L).build();
        Record a2 = Records.of("id", "a", "n", 2L).build();
        Record a3 = Records.of("id", "a", "n", 3L).build();
        bolt.execute(Tuples.records(1L, a1, a2));
        long partition = 7;
        Tuple again = Tuples.of(Components.DATASOURCE_BOLT, Streams.RECORDS, new ArrayList<>(List.of(a1, a2, a3)), 1L,
                                new long[] {partition, 10, 12, 10, 11, 12}, true);
        bolt.execute(again);

        List<Emission> partials = out.emitted(Streams.PARTIAL);
        assertEquals(2, partials.size(), "the first attempt, then the records sent again");
        List<Object> flat = partials.get(1).value(1); // (id, partial, last) per partial
        assertEquals(6, flat.size(), "a partial for each of two records: the size holds for the batch");
        for (int i = 0; i < 2; i++) {
            RawPartial rows = (RawPartial) flat.get(i * 3 + 1);
            assertEquals(List.of(Records.of("id", "a", "n", i + 1L).asMap()), RawAggregator.decode(rows.bytes()));
        }
        assertEquals(List.of(partition, 10L, 10L, partition, 11L, 11L),
                     Arrays.stream(partials.get(1).<long[]>value(2)).boxed().toList(), "each its record's offset");
    }

    @Test
    void restartedTaskFailsBatchesUntilTheJoinReplayedItsRunningQueries() {
        RecordingOutputCollector fresh = new RecordingOutputCollector();
        FilterBolt restarted = new FilterBolt(QuerySettings.defaults(), clock);
        Bolts.prepareRestarted(restarted, fresh, Map.of());
        Tuple early = Tuples.records(1L, Records.of("id", "a").build());

        restarted.execute(early);
        assertEquals(List.of(Bolts.TASK), fresh.emitted(Streams.HELLO).get(0).values(), "hello to the Join tasks");
        assertEquals(List.of(early), fresh.failed(), "the spout sends it again once this task has the queries");

        restarted.execute(Tuples.replay("q", COUNT, now(), 0));
        restarted.execute(Tuples.replayEnd());
        Tuple again = Tuples.records(2L, Records.of("id", "a").build());
        restarted.execute(again);
        restarted.execute(Tuples.tick(now()));

        assertEquals(1, fresh.emitted(Streams.PARTIAL).size(), "the batch met the replayed query");
        assertTrue(fresh.acked().contains(again));
    }

    @Test
    void joinHelloGetsBackEveryRunningQueryForThatJoinTask() {
        long start = now();
        bolt.execute(Tuples.query("q1", COUNT, start, 3));
        bolt.execute(Tuples.query("q2", RAW_ID_A, start, 4));

        bolt.execute(Tuples.hello(TopologyNames.Components.JOIN_BOLT, 42));

        List<Emission> restores = out.emitted(Streams.RESTORE);
        assertEquals(2, restores.size());
        for (Emission e : restores) {
            assertEquals(42, e.<Integer>value(4));
            assertEquals(start, e.<Long>value(2));
        }
        assertEquals(Set.of("q1", "q2"), Set.of(restores.get(0).value(0), restores.get(1).value(0)));
    }

    @Test
    void completeSignalStopsThePartials() {
        bolt.execute(Tuples.query("q", RAW_ID_A, now(), 0));
        bolt.execute(Tuples.records(1L, Records.of("id", "a").build()));
        assertEquals(1, out.drain().size());

        bolt.execute(Tuples.joinSignal("q", Signal.COMPLETE));
        bolt.execute(Tuples.records(2L, Records.of("id", "a").build()));
        bolt.execute(Tuples.tick(now()));

        assertEquals(List.of(), out.emissions());
        assertEquals(5, out.acked().size());
    }

    @Test
    void invalidQueryIsIgnored() {
        bolt.execute(Tuples.query("bad", "{\"filters\": [", now(), 0));
        bolt.execute(Tuples.records(1L, Records.of("id", "a").build()));
        bolt.execute(Tuples.tick(now()));
        assertEquals(List.of(), out.emissions());
        assertEquals(3, out.acked().size());
    }

    @Test
    void aTupleFromAStreamTheBoltIsNotWiredToIsABugThatFailsLoudly() {
        Tuple stray = Tuples.of(Components.JOIN_BOLT, Streams.RESULT, "q", "{}", 0, true, "d");

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> bolt.execute(stray));
        assertTrue(e.getMessage().contains(Streams.RESULT), e.getMessage());
        assertEquals(List.of(), out.acked());
    }
}

package dev.bullet.storm;

import dev.bullet.config.SettingsTable;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.UnconfirmedResults;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.aggregations.RawAggregator;
import dev.bullet.record.Record;
import dev.bullet.storm.TopologyNames.Streams;
import dev.bullet.storm.testing.Bolts;
import dev.bullet.storm.testing.RecordingOutputCollector;
import dev.bullet.storm.testing.RecordingOutputCollector.Emission;
import dev.bullet.storm.testing.Tuples;
import dev.bullet.testing.ManualClock;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Join bolt keeps each result it emits until the Result bolt confirms it, and sends it again on its tick. */
class JoinBoltResultsTest {
    private static final String RAW_1 = "{\"aggregation\": {\"type\": \"RAW\", \"size\": 1}}";
    private static final String WINDOWED = "{\"aggregation\": {\"type\": \"RAW\", \"size\": 100},"
                                           + " \"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 1}}}";

    private final RecordingOutputCollector out = new RecordingOutputCollector();
    private final ManualClock clock = new ManualClock(1_000_000);

    private JoinBolt prepared(UnconfirmedResults.Policy policy) {
        JoinBolt bolt = new JoinBolt(QuerySettings.defaults(), 3_600_000L, clock).keeping(policy);
        Bolts.prepare(bolt, out, Map.of());
        return bolt;
    }

    private static byte[] rawPartial(Record... records) {
        RawAggregator raw = new RawAggregator(100);
        for (Record r : records) {
            raw.consume(r);
        }
        return raw.serialize();
    }

    private List<Emission> tickAfter(JoinBolt bolt, long ms) {
        out.reset();
        bolt.execute(Tuples.tick(clock.advance(ms)));
        return out.emitted(Streams.RESULT);
    }

    @Test
    void aResultUnconfirmedIsSentAgainWithItsDeliveryIdUntilTheResultBoltConfirmsIt() {
        JoinBolt bolt = prepared(UnconfirmedResults.Policy.DEFAULT);
        bolt.execute(Tuples.query("q", RAW_1, clock.now(), 5));
        bolt.execute(Tuples.partial("q", rawPartial(Records.of("id", "a").build()), false));
        List<Emission> first = out.emitted(Streams.RESULT);
        assertEquals(1, first.size());
        String delivery = first.get(0).value(4);
        assertNotNull(delivery);
        assertEquals(List.of("q", Signal.COMPLETE.name()), out.emitted(Streams.SIGNAL).get(0).values(),
                     "the Filter tasks drop the query at once, whatever becomes of its result");

        assertEquals(List.of(), tickAfter(bolt, 4_999), "not before 5 s");
        List<Emission> again = tickAfter(bolt, 1);
        assertEquals(List.of(first.get(0).values()), again.stream().map(Emission::values).toList(),
                     "the same result, query, partition, final flag and delivery id");
        assertEquals(List.of(), out.emitted(Streams.SIGNAL), "COMPLETE is not sent again");

        bolt.execute(Tuples.confirm("q", delivery));
        assertEquals(List.of(), tickAfter(bolt, 600_000), "confirmed: no longer sent");
    }

    @Test
    void everyResultHasADeliveryIdOfItsOwnAndAFinalResultWaitsForTheWindowsBeforeIt() {
        JoinBolt bolt = prepared(UnconfirmedResults.Policy.DEFAULT);
        bolt.execute(Tuples.query("w", WINDOWED, clock.now(), 0));
        bolt.execute(Tuples.partial("w", rawPartial(Records.of("n", 1L).build()), false));
        List<Emission> windows = out.emitted(Streams.RESULT);
        assertEquals(1, windows.size(), "one window per record");
        out.reset();
        bolt.execute(Tuples.querySignal("w", Signal.KILL)); // the query is over: its results need not come again
        assertEquals(List.of(), tickAfter(bolt, 600_000));

        bolt.execute(Tuples.query("v", WINDOWED, clock.now(), 0));
        bolt.execute(Tuples.partial("v", rawPartial(Records.of("n", 2L).build()), false));
        bolt.execute(Tuples.partial("v", rawPartial(Records.of("n", 3L).build()), false));
        List<Emission> two = out.emitted(Streams.RESULT);
        assertEquals(2, two.size());
        assertNotEquals(two.get(0).<String>value(4), two.get(1).<String>value(4));
        assertNotEquals(windows.get(0).<String>value(4), two.get(0).<String>value(4));
        bolt.execute(Tuples.confirm("v", two.get(0).value(4)));
        bolt.execute(Tuples.confirm("v", two.get(1).value(4)));
        assertEquals(List.of(), tickAfter(bolt, 600_000));
    }

    @Test
    void pastItsBoundTheJoinCountsTheResultsItNoLongerKeeps() {
        JoinBolt bolt = new JoinBolt(QuerySettings.defaults(), 3_600_000L, clock)
            .keeping(new UnconfirmedResults.Policy(5_000, 10_000, 12, 1, 1_000_000));
        Bolts.Prepared prepared = Bolts.prepare(bolt, out, Map.of(SettingsTable.METRICS_BUILT_IN_ENABLE, true));
        bolt.execute(Tuples.query("a", RAW_1, clock.now(), 0));
        bolt.execute(Tuples.query("b", RAW_1, clock.now(), 0));
        bolt.execute(Tuples.partial("a", rawPartial(Records.of("id", "a").build()), false));
        bolt.execute(Tuples.partial("b", rawPartial(Records.of("id", "b").build()), false));

        assertEquals(2, out.emitted(Streams.RESULT).size(), "both are sent");
        assertEquals(1, prepared.count(BulletMetrics.RESULTS_UNCONFIRMED_DROPPED));
        assertTrue(prepared.registered(BulletMetrics.RESULTS_UNCONFIRMED));
        List<Emission> again = tickAfter(bolt, 5_000);
        assertEquals(List.of("b"), again.stream().map(e -> e.<String>value(0)).toList(), "only the newest is kept");
    }
}

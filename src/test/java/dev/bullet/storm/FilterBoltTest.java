package dev.bullet.storm;

import dev.bullet.pubsub.Signal;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.aggregations.RawAggregator;
import dev.bullet.storm.TopologyNames.Components;
import dev.bullet.storm.TopologyNames.Streams;
import dev.bullet.storm.testing.Bolts;
import dev.bullet.storm.testing.RecordingOutputCollector;
import dev.bullet.storm.testing.RecordingOutputCollector.Emission;
import dev.bullet.storm.testing.Tuples;
import dev.bullet.testing.ManualClock;
import dev.bullet.testing.Records;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

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

        assertEquals(List.of(query, records), out.acked());
        List<Emission> partials = out.emitted(Streams.PARTIAL);
        assertEquals(1, partials.size());
        Emission p = partials.get(0);
        assertEquals("q", p.value(0));
        assertEquals(List.of(Records.of("id", "a").asMap()), RawAggregator.decode(p.value(1)));
        assertFalse(p.<Boolean>value(2));
        assertEquals(partials, out.emissions(), "nothing but partials");
    }

    @Test
    void nonRawPartialsWaitForATick() {
        bolt.execute(Tuples.query("q", COUNT, now(), 0));
        bolt.execute(Tuples.records(1L, Records.of("id", "a").build()));
        assertEquals(List.of(), out.emissions());

        bolt.execute(Tuples.tick(now()));
        List<Emission> partials = out.emitted(Streams.PARTIAL);
        assertEquals(1, partials.size());
        assertNotNull(partials.get(0).value(1));
        assertFalse(partials.get(0).<Boolean>value(2));
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
        Tuple stray = Tuples.of(Components.JOIN_BOLT, Streams.RESULT, "q", "{}", 0, true);

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> bolt.execute(stray));
        assertTrue(e.getMessage().contains(Streams.RESULT), e.getMessage());
        assertEquals(List.of(), out.acked());
    }
}

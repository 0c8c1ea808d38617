package dev.bullet.storm;

import dev.bullet.config.SettingsTable;
import dev.bullet.pubsub.Signal;
import dev.bullet.record.Record;
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
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The decode bolt driven directly: decodes only while a query runs, skips what is not a JSON object. */
class DecodeBoltTest {
    private static final String QUERY = "{\"aggregation\": {\"type\": \"RAW\", \"size\": 10}}";

    private final RecordingOutputCollector out = new RecordingOutputCollector();
    private final ManualClock clock = new ManualClock(1_000_000);
    private Bolts.Prepared prepared;
    private DecodeBolt bolt;

    @BeforeEach
    void prepare() {
        bolt = new DecodeBolt(3_600_000L, clock);
        prepared = Bolts.prepare(bolt, out, Map.of(SettingsTable.METRICS_BUILT_IN_ENABLE, true));
    }

    private long counter(String name) {
        return prepared.count(name);
    }

    private static List<Map<String, Object>> maps(Emission e) {
        List<Record> records = e.value(0);
        return records.stream().map(Record::asMap).collect(Collectors.toList());
    }

    @Test
    void withNoQueryRunningBatchesAreAckedAndNothingIsDecoded() {
        Tuple batch = Tuples.rawBatch(42L, "{\"id\": \"a\"}", "{\"id\": \"b\"}");

        bolt.execute(batch);

        assertEquals(List.of(batch), out.acked());
        assertEquals(List.of(), out.emissions());
        assertEquals(0, counter(BulletMetrics.RECORDS_DECODED));
        assertEquals(0, counter(BulletMetrics.RECORDS_MALFORMED));
    }

    @Test
    void withAQueryRunningRecordsAreEmittedAnchoredOnTheRecordsStream() {
        Tuple query = Tuples.query("q", QUERY, clock.now(), 0);
        Tuple batch = Tuples.rawBatch(42L, "{\"id\": \"a\", \"n\": 1}", "{\"id\": \"b\"}");

        bolt.execute(query);
        bolt.execute(batch);

        assertEquals(List.of(query, batch), out.acked());
        List<Emission> emitted = out.emissions();
        assertEquals(1, emitted.size());
        Emission e = emitted.get(0);
        assertEquals(Streams.RECORDS, e.stream());
        assertEquals(List.of(batch), e.anchors());
        assertEquals(List.of(Records.of("id", "a", "n", 1L).asMap(), Records.of("id", "b").asMap()), maps(e));
        assertEquals(42L, (long) e.<Long>value(1));
        assertEquals(2, counter(BulletMetrics.RECORDS_DECODED));
    }

    @Test
    void malformedMessageIsCountedAndSkipped() {
        bolt.execute(Tuples.query("q", QUERY, clock.now(), 0));
        Tuple batch = Tuples.rawBatch(7L, "{\"id\": \"a\"}", "not json", "[1]", "{\"id\": \"b\"}");

        bolt.execute(batch);

        List<Emission> emitted = out.emitted(Streams.RECORDS);
        assertEquals(1, emitted.size());
        assertEquals(List.of(Records.of("id", "a").asMap(), Records.of("id", "b").asMap()), maps(emitted.get(0)));
        assertSame(batch, out.acked().get(1));
        assertEquals(List.of(), out.failed());
        assertEquals(2, counter(BulletMetrics.RECORDS_DECODED));
        assertEquals(2, counter(BulletMetrics.RECORDS_MALFORMED));
    }

    @Test
    void recordsOverABoundAreCountedSkippedAndTheBatchAcked() {
        bolt.execute(Tuples.query("q", QUERY, System.currentTimeMillis(), 0));
        String deep = "{\"a\":".repeat(50_000) + "1" + "}".repeat(50_000);
        String huge = "{\"s\":\"" + "x".repeat(1_048_576) + "\"}";
        Tuple batch = Tuples.rawBatch(7L, deep, "{\"id\": \"a\"}", "[".repeat(100_000), huge, "{\"id\": \"b\"}");

        bolt.execute(batch);

        assertEquals(List.of(Records.of("id", "a").asMap(), Records.of("id", "b").asMap()),
                     maps(out.emitted(Streams.RECORDS).get(0)));
        assertSame(batch, out.acked().get(1));
        assertEquals(List.of(), out.failed());
        assertEquals(2, counter(BulletMetrics.RECORDS_DECODED));
        assertEquals(3, counter(BulletMetrics.RECORDS_MALFORMED));
    }

    @Test
    void afterTheJoinsCompleteSignalDecodingStopsAgain() {
        bolt.execute(Tuples.query("q", QUERY, clock.now(), 0));
        bolt.execute(Tuples.rawBatch(1L, "{\"id\": \"a\"}"));
        assertEquals(1, out.drain().size());

        bolt.execute(Tuples.joinSignal("q", Signal.COMPLETE));
        bolt.execute(Tuples.rawBatch(2L, "{\"id\": \"b\"}"));

        assertEquals(List.of(), out.emissions());
        assertEquals(4, out.acked().size());
        assertEquals(1, counter(BulletMetrics.RECORDS_DECODED));
    }

    @Test
    void withMetricsOffNothingIsRegistered() {
        RecordingOutputCollector quiet = new RecordingOutputCollector();
        DecodeBolt other = new DecodeBolt(3_600_000L, clock);
        Bolts.Prepared p = Bolts.prepare(other, quiet, Map.of(SettingsTable.METRICS_BUILT_IN_ENABLE, false));
        other.execute(Tuples.query("q", QUERY, clock.now(), 0));
        other.execute(Tuples.rawBatch(1L, "{\"id\": \"a\"}", "nope"));

        assertEquals(1, quiet.emitted(Streams.RECORDS).size());
        assertFalse(p.registered(BulletMetrics.RECORDS_DECODED));
        assertFalse(p.registered(BulletMetrics.RECORDS_MALFORMED));
    }

    @Test
    void aQueryWhoseCompleteSignalWasLostStopsDecodingAfterTheMaximumLifetime() {
        bolt.execute(Tuples.query("q", QUERY, clock.now(), 0));
        bolt.execute(Tuples.rawBatch(1L, "{\"id\": \"a\"}"));
        assertEquals(1, out.drain().size());

        clock.advance(3_600_001L);
        bolt.execute(Tuples.rawBatch(2L, "{\"id\": \"b\"}"));

        assertEquals(List.of(), out.emissions());
        assertEquals(1, counter(BulletMetrics.RECORDS_DECODED));
    }

    @Test
    void aTupleFromAStreamTheBoltIsNotWiredToIsABugThatFailsLoudly() {
        Tuple stray = Tuples.tick(clock.now());

        assertThrows(IllegalStateException.class, () -> bolt.execute(stray));
    }
}

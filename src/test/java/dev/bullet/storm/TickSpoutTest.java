package dev.bullet.storm;

import dev.bullet.storm.TopologyNames.Streams;
import dev.bullet.storm.testing.RecordingSpoutCollector;
import dev.bullet.testing.ManualClock;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ticks on time, unanchored; between ticks the spout waits in nextTuple at most one interval. */
class TickSpoutTest {
    private static final long INTERVAL_MS = 20;

    @Test
    void emitsOneUnanchoredTickPerIntervalWithTheClocksTime() {
        ManualClock clock = new ManualClock(1_000);
        RecordingSpoutCollector collector = new RecordingSpoutCollector();
        TickSpout spout = new TickSpout(INTERVAL_MS, clock);
        spout.open(Map.of(), null, collector.collector());

        spout.nextTuple();
        assertEquals(1, collector.emissions().size());
        RecordingSpoutCollector.Emission tick = collector.drain().get(0);
        assertEquals(Streams.TICK, tick.stream());
        assertEquals(1_000L, (Long) tick.value(0));
        assertNull(tick.messageId(), "ticks are not anchored: nothing to ack, nothing to replay");

        spout.nextTuple(); // not due: waits (real time, bounded by the interval) and emits nothing
        assertTrue(collector.drain().isEmpty());

        clock.advance(INTERVAL_MS);
        spout.nextTuple();
        assertEquals(1_020L, (Long) collector.drain().get(0).value(0));
    }

    @Test
    void waitsForTheNextTickInsteadOfReturningAtOnceButNeverLongerThanAnInterval() {
        ManualClock clock = new ManualClock(0);
        RecordingSpoutCollector collector = new RecordingSpoutCollector();
        TickSpout spout = new TickSpout(INTERVAL_MS, clock);
        spout.open(Map.of(), null, collector.collector());
        spout.nextTuple();
        collector.drain();

        long start = System.nanoTime();
        spout.nextTuple(); // the manual clock does not move: the tick stays not due
        long waited = System.nanoTime() - start;
        assertTrue(waited >= TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS / 2), "returned after " + waited + " ns");
        assertTrue(waited < TimeUnit.SECONDS.toNanos(5), "waited " + waited + " ns");
        assertTrue(collector.drain().isEmpty());
    }
}

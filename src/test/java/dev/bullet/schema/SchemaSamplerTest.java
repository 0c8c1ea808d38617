package dev.bullet.schema;

import dev.bullet.testing.ManualClock;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchemaSamplerTest {
    private final ManualClock clock = new ManualClock(1_000);
    private final SchemaInference inference = new SchemaInference(10);
    private final List<String> sent = new ArrayList<>();
    private final List<Long> patience = new ArrayList<>();
    private Consumer<String> pending;
    private final SchemaSampler sampler = new SchemaSampler(inference, (query, patienceMs, onEnd) -> {
        sent.add(query);
        patience.add(patienceMs);
        pending = onEnd;
    }, clock, 50, 2_000, 15_000);

    @Test
    void oneSmallRawQueryAtATimeFeedsTheInference() {
        assertTrue(sampler.tick());
        assertEquals(List.of("{\"aggregation\":{\"type\":\"RAW\",\"size\":50},\"duration\":2000}"), sent);
        clock.advance(60_000);
        assertFalse(sampler.tick(), "the first is still out");
        pending.accept("{\"records\":[{\"a\":1},{\"a\":\"x\",\"b\":[1]}],\"meta\":{}}");
        assertEquals(2, inference.snapshot().recordsSampled());
        assertEquals("LIST", inference.snapshot().field("b").type());
        assertFalse(sampler.tick(), "not due before the interval");
        clock.advance(14_999);
        assertFalse(sampler.tick());
        clock.advance(1);
        assertTrue(sampler.tick());
    }

    @Test
    void aSampleIsWaitedForBrieflyAtFirstAndLongerAfterEachThatCameBackEmpty() {
        for (int i = 0; i < 7; i++) {
            assertTrue(sampler.tick());
            pending.accept(null); // not come back: given up
            clock.advance(15_000);
        }
        assertEquals(List.of(5_000L, 10_000L, 20_000L, 40_000L, 80_000L, 80_000L, 80_000L), patience);
        assertTrue(sampler.tick());
        pending.accept("{\"records\":[{\"a\":1}],\"meta\":{}}");
        clock.advance(15_000);
        assertTrue(sampler.tick());
        assertEquals(5_000L, patience.get(patience.size() - 1), "a sample that came back makes the next brief again");
    }

    @Test
    void emptySamplesAreRetriedSoonThenLessOften() {
        sampler.tick();
        pending.accept("{\"records\":[],\"meta\":{}}");
        clock.advance(SchemaSampler.FIRST_INTERVAL_MS);
        assertTrue(sampler.tick(), "retried after 2 s");
        pending.accept(null); // timed out
        clock.advance(2 * SchemaSampler.FIRST_INTERVAL_MS - 1);
        assertFalse(sampler.tick(), "then after 4 s");
        clock.advance(1);
        assertTrue(sampler.tick());
        pending.accept("not json");
        assertEquals(0, inference.snapshot().recordsSampled());
        for (int i = 0; i < 10; i++) {
            clock.advance(15_000);
            assertTrue(sampler.tick(), "never less often than the interval");
            pending.accept("{\"meta\":{\"errors\":[{\"error\":\"x\"}]}}");
        }
    }
}

package dev.bullet.rest;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How much of a slow sse-query client's results the stream holds before it gives up on the client. */
class SseStreamTest {
    @Test
    void oneResultHoweverLargeGoesOutButNoMoreWhileTooMuchIsUnwritten() {
        SseStream.Undelivered undelivered = new SseStream.Undelivered(100, new AtomicLong(), Long.MAX_VALUE);
        assertTrue(undelivered.admit(1_000), "nothing waits: a result larger than the bound still goes");
        assertFalse(undelivered.admit(1), "the client has not read it: the next one does not");
        undelivered.written(1_000);
        assertTrue(undelivered.admit(60));
        assertTrue(undelivered.admit(60), "60 wait: within the bound");
        assertEquals(120, undelivered.chars());
        assertFalse(undelivered.admit(1), "120 wait");
        undelivered.written(60);
        assertTrue(undelivered.admit(1), "the client read one");
    }

    @Test
    void whenTheStreamsTogetherHoldTooMuchTheOnesThatLagClose() {
        AtomicLong all = new AtomicLong();
        SseStream.Undelivered fast = new SseStream.Undelivered(1_000, all, 150);
        SseStream.Undelivered slow = new SseStream.Undelivered(1_000, all, 150);
        assertTrue(slow.admit(100));
        assertTrue(slow.admit(100), "within its own bound; the service holds 100");
        assertTrue(fast.admit(50), "nothing of its own waits: it goes, though the service holds 200");
        fast.written(50);
        assertFalse(slow.admit(10), "the service holds more than its budget and this stream lags");
        assertTrue(fast.admit(10), "a stream that keeps up goes on");
        slow.written(200);
        fast.written(10);
        assertEquals(0, all.get());
        assertTrue(slow.admit(10), "back within the budget");
    }

    @Test
    void theBoundHoldsSixteenMebiCharacters() {
        assertEquals(16L * 1024 * 1024, SseStream.MAX_UNDELIVERED_CHARS);
    }

    @Test
    void resultsGoOnOneLine() {
        assertEquals("{\"a\": 1, \"b\":2}", SseStream.oneLine("{\"a\":\n1,\r\n\"b\":2}"));
    }
}

package dev.bullet.querying;

import dev.bullet.testing.ManualClock;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A (re)started Join task's wait for the query spout's replay of the query store, on a manual clock. */
class StoreReplayWaitTest {
    private final ManualClock clock = new ManualClock(1_000_000);

    @Test
    void aTaskThatRestartedAloneWaitsOnlyForTheFirstReport() {
        StoreReplayWait wait = new StoreReplayWait(clock.now());
        assertTrue(wait.waiting(clock.now()));

        clock.advance(700);
        assertTrue(wait.report(5L, true, clock.now()), "the query spout replayed the store long ago");

        assertFalse(wait.waiting(clock.now()));
        assertFalse(wait.gaveUp());
        assertFalse(wait.sawReplay());
        assertEquals(700, wait.waitedMs());
    }

    @Test
    void aReplayUnderWayIsWaitedForUntilItIsReportedDone() {
        StoreReplayWait wait = new StoreReplayWait(clock.now());
        assertFalse(wait.report(9L, false, clock.now()));
        for (int i = 0; i < 20; i++) {
            clock.advance(StoreReplayWait.REPORT_INTERVAL_MS);
            wait.report(9L, false, clock.now());
            assertTrue(wait.waiting(clock.now()), "under way after " + (i + 1) + " s");
        }

        assertTrue(wait.report(9L, true, clock.now()));

        assertFalse(wait.waiting(clock.now()));
        assertTrue(wait.sawReplay());
        assertFalse(wait.gaveUp());
        assertEquals(9L, wait.doneInstance());
        assertFalse(wait.report(9L, true, clock.now()), "a later report ends nothing");
    }

    @Test
    void withoutAReportOfTheReplayDoneTheWaitEndsAtItsDeadline() {
        StoreReplayWait wait = new StoreReplayWait(clock.now(), 5_000);
        wait.report(9L, false, clock.now());
        clock.advance(4_999);
        assertTrue(wait.waiting(clock.now()));
        assertEquals(-1, wait.waitedMs());

        clock.advance(1);
        assertFalse(wait.waiting(clock.now()));
        assertTrue(wait.gaveUp());
        assertEquals(5_000, wait.waitedMs());

        assertFalse(wait.report(9L, true, clock.now()), "too late to end the wait");
        assertTrue(wait.gaveUp(), "still: what the replay brings now missed records");
        assertEquals(9L, wait.doneInstance());
    }

    @Test
    void theDefaultDeadlineEndsWellBeforeARestartedFilterTaskStopsWaitingOnItsOwn() {
        // the Filter task's hello may come some seconds after the Join task started (another worker)
        assertTrue(StoreReplayWait.MAX_WAIT_MS + 10_000 <= ReplayWait.MAX_WAIT_MS);
    }
}

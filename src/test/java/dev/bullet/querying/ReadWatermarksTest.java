package dev.bullet.querying;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the spout tasks have in flight, and when a query's end is settled. */
class ReadWatermarksTest {
    private static final long END = 10_000;

    @Test
    void settledOnceEverySpoutTaskReportedAfterTheEndWithNothingOlderInFlight() {
        ReadWatermarks reads = new ReadWatermarks(2);
        reads.report(1, 11, END + 5, new long[] {});
        assertFalse(reads.settled(END), "the other spout task has not reported");
        reads.report(2, 22, END - 5, new long[] {});
        assertFalse(reads.settled(END), "its report is older than the end: it may have read more before the end");
        reads.report(2, 22, END + 50, new long[] {END + 10, END - 300});
        assertFalse(reads.settled(END), "a batch read before the end is in flight");
        assertEquals(1, reads.unsettled(0, END));
        assertEquals(0, reads.unsettled(END - 200, END), "read before the query started: not its concern");
        reads.report(2, 22, END + 150, new long[] {END + 10});
        assertTrue(reads.settled(END), "only batches read after the end are in flight");
        assertEquals(0, reads.lost(0, END));
    }

    @Test
    void anOlderReportArrivingLateDoesNotMoveTheWatermarkBack() {
        ReadWatermarks reads = new ReadWatermarks(1);
        reads.report(1, 7, END + 100, new long[] {});
        reads.report(1, 7, END - 100, new long[] {END - 500});
        assertTrue(reads.settled(END));
    }

    @Test
    void aSpoutTaskThatRestartedAfterTheEndLostWhatItHadInFlight() {
        ReadWatermarks reads = new ReadWatermarks(1);
        reads.report(1, 7, END - 100, new long[] {END - 900, END - 800, END - 50_000});
        reads.report(1, 8, END + 20_000, new long[] {}); // a new instance: it reads them again, after the end
        assertEquals(2, reads.lost(END - 10_000, END), "the two read during the query");
        assertEquals(0, reads.lost(END + 1, END + 5_000), "a query that ended after the restart counts them again");
        assertTrue(reads.settled(END));
    }

    @Test
    void describesWhatEachSpoutTaskLastReportedAndItsRestarts() {
        ReadWatermarks reads = new ReadWatermarks(2);
        reads.report(2, 0xb, END + 5, new long[] {END - 7, END - 9});
        reads.report(1, 0xa, END - 100, new long[] {});
        reads.report(1, 0xc, END + 1, new long[] {END - 3});
        assertEquals("task 1 instance c at " + (END + 1) + " in flight 1 [" + (END - 3) + "]; task 2 instance b at "
                     + (END + 5) + " in flight 2 [" + (END - 9) + ", " + (END - 7) + "]; task 1 replaced 1 times, last at "
                     + (END + 1), reads.describe());
    }
}

package dev.bullet.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.bullet.ingest.OffsetTracker.Range;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class OffsetTrackerTest {
    private static final TopicPartition P0 = new TopicPartition("firehose", 0);
    private static final TopicPartition P1 = new TopicPartition("firehose", 1);
    private static final TopicPartition P2 = new TopicPartition("firehose", 2);

    private final OffsetTracker tracker = new OffsetTracker();

    private long emit(TopicPartition tp, long first, long last) {
        return tracker.register(Map.of(tp, new Range(first, last)));
    }

    @Test
    void nothingIsCommittableBeforeTheFirstBatch() {
        assertEquals(Map.of(), tracker.committable());
        assertEquals(-1, tracker.committableOffset(P0));
    }

    @Test
    void pendingBatchCommitsItsStartSoARestartDoesNotSkipIt() {
        emit(P0, 100, 109);
        assertEquals(Map.of(P0, 100L), tracker.committable());
    }

    @Test
    void inOrderAcksAdvanceTheCommittableOffsetBatchByBatch() {
        long a = emit(P0, 0, 9);
        long b = emit(P0, 10, 19);
        long c = emit(P0, 20, 29);
        assertTrue(tracker.ack(a));
        assertEquals(Map.of(P0, 10L), tracker.committable());
        assertTrue(tracker.ack(b));
        assertEquals(Map.of(P0, 20L), tracker.committable());
        assertTrue(tracker.ack(c));
        assertEquals(Map.of(P0, 30L), tracker.committable());
        assertEquals(0, tracker.pendingBatches());
    }

    @Test
    void outOfOrderAckWaitsForTheOlderPendingBatch() {
        long a = emit(P0, 0, 9);
        long b = emit(P0, 10, 19);
        long c = emit(P0, 20, 29);
        tracker.ack(c);
        assertEquals(0L, tracker.committableOffset(P0));
        tracker.ack(b);
        assertEquals(0L, tracker.committableOffset(P0));
        tracker.ack(a);
        assertEquals(30L, tracker.committableOffset(P0));
    }

    @Test
    void committedOffsetsAreNotReportedAgain() {
        long a = emit(P0, 0, 9);
        tracker.ack(a);
        tracker.committed(tracker.committable());
        assertEquals(Map.of(), tracker.committable());
        long b = emit(P0, 10, 19);
        assertEquals(Map.of(), tracker.committable(), "a pending batch does not move the offset");
        tracker.ack(b);
        assertEquals(Map.of(P0, 20L), tracker.committable());
    }

    @Test
    void committedNeverMovesBack() {
        long a = emit(P0, 0, 9);
        long b = emit(P0, 10, 19);
        tracker.ack(a);
        tracker.ack(b);
        tracker.committed(Map.of(P0, 20L));
        tracker.committed(Map.of(P0, 10L)); // a late confirmation of an older commit
        assertEquals(Map.of(), tracker.committable());
    }

    @Test
    void gapsInOffsetsAreCommittedOver() {
        long a = emit(P0, 0, 9);
        long b = emit(P0, 15, 19); // 10..14: compacted away or transaction markers
        tracker.ack(b);
        assertEquals(0L, tracker.committableOffset(P0));
        tracker.ack(a);
        assertEquals(20L, tracker.committableOffset(P0));
    }

    @Test
    void failedBatchSeeksToItsStartAndIsReEmittedWithTheSameOffsets() {
        long a = emit(P0, 0, 9);
        long b = emit(P0, 10, 19);
        tracker.ack(a);
        assertEquals(Map.of(P0, 10L), tracker.fail(b));
        assertEquals(10L, tracker.committableOffset(P0));
        long again = emit(P0, 10, 19);
        tracker.ack(again);
        assertEquals(20L, tracker.committableOffset(P0));
    }

    @Test
    void failDropsLaterBatchesOfThePartitionAndIgnoresTheirAcks() {
        long a = emit(P0, 0, 9);
        long b = emit(P0, 10, 19);
        long c = emit(P0, 20, 29);
        assertEquals(Map.of(P0, 10L), tracker.fail(b));
        assertTrue(tracker.ack(c), "c is still known");
        assertEquals(0L, tracker.committableOffset(P0), "c's ack must not commit past the reread b");
        tracker.ack(a);
        assertEquals(10L, tracker.committableOffset(P0));
        long b2 = emit(P0, 10, 19);
        long c2 = emit(P0, 20, 29);
        tracker.ack(c2);
        tracker.ack(b2);
        assertEquals(30L, tracker.committableOffset(P0));
    }

    @Test
    void laterBatchFailingAfterAnEarlierFailureSeeksNothing() {
        long a = emit(P0, 0, 9);
        long b = emit(P0, 10, 19);
        assertEquals(Map.of(P0, 0L), tracker.fail(a));
        assertEquals(Map.of(), tracker.fail(b), "b's records are reread by the first rewind already");
        assertEquals(0L, tracker.committableOffset(P0));
    }

    @Test
    void failOfAnAckedOrUnknownBatchSeeksNothing() {
        long a = emit(P0, 0, 9);
        tracker.ack(a);
        assertEquals(Map.of(), tracker.fail(a));
        assertFalse(tracker.ack(a));
        assertEquals(Map.of(), tracker.fail(12345));
        assertFalse(tracker.ack(12345));
    }

    @Test
    void reEmittingBeforeTheRewindPointIsABug() {
        long a = emit(P0, 0, 9);
        long b = emit(P0, 10, 19);
        tracker.fail(b);
        assertThrows(IllegalArgumentException.class, () -> emit(P0, 5, 12));
        tracker.ack(a);
        assertThrows(IllegalArgumentException.class, () -> emit(P0, 9, 12));
        assertThrows(IllegalArgumentException.class, () -> tracker.register(Map.of()));
        assertThrows(IllegalArgumentException.class, () -> new Range(5, 4));
    }

    @Test
    void partitionsAreTrackedIndependently() {
        long a = tracker.register(Map.of(P0, new Range(0, 4), P1, new Range(100, 104)));
        long b = tracker.register(Map.of(P1, new Range(105, 109), P2, new Range(7, 7)));
        tracker.ack(b);
        assertEquals(Map.of(P0, 0L, P1, 100L, P2, 8L), tracker.committable());
        tracker.ack(a);
        assertEquals(Map.of(P0, 5L, P1, 110L, P2, 8L), tracker.committable());
    }

    @Test
    void failOfAMultiPartitionBatchRewindsEachOfItsPartitions() {
        long a = tracker.register(Map.of(P0, new Range(0, 4), P1, new Range(100, 104)));
        long b = tracker.register(Map.of(P1, new Range(105, 109), P2, new Range(7, 7)));
        long c = emit(P0, 5, 9);
        assertEquals(Map.of(P0, 0L, P1, 100L), tracker.fail(a));
        // b lost its P1 range (reread) but still owns P2; c's P0 range is reread too.
        tracker.ack(b);
        tracker.ack(c);
        assertEquals(Map.of(P0, 0L, P1, 100L, P2, 8L), tracker.committable());
        assertEquals(0, tracker.pendingBatches());
    }

    @Test
    void revokedPartitionIsForgottenWithItsShareOfInFlightBatches() {
        long a = tracker.register(Map.of(P0, new Range(0, 4), P1, new Range(100, 104)));
        long b = emit(P1, 105, 109);
        assertEquals(Map.of(P1, 100L), tracker.committable(List.of(P1)));
        tracker.forget(List.of(P1));
        assertEquals(List.of(P0), tracker.partitions());
        assertEquals(1, tracker.pendingBatches(), "b covered only P1");
        assertFalse(tracker.ack(b));
        assertEquals(Map.of(), tracker.fail(b));
        assertEquals(Map.of(P0, 0L), tracker.fail(a), "a still rewinds the partition it kept");
    }

    @Test
    void reassignedPartitionStartsFreshAndOldBatchesDoNotTouchIt() {
        long old = emit(P1, 100, 109);
        tracker.forget(List.of(P1));
        long fresh = emit(P1, 100, 109); // the new owner (us again) rereads from the last commit
        assertFalse(tracker.ack(old));
        assertEquals(100L, tracker.committableOffset(P1));
        tracker.ack(fresh);
        assertEquals(Map.of(P1, 110L), tracker.committable());
    }

    @Test
    void batchIdsAreUnique() {
        long a = emit(P0, 0, 0);
        long b = emit(P0, 1, 1);
        tracker.fail(b);
        long c = emit(P0, 1, 1);
        assertEquals(3, List.of(a, b, c).stream().distinct().count());
    }
}

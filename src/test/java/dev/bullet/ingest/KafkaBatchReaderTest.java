package dev.bullet.ingest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The spout's Kafka logic against Kafka's {@link MockConsumer}: batching, rewinds, commits, rebalances. */
class KafkaBatchReaderTest {
    private static final String TOPIC = "firehose";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);

    private final RecordingConsumer consumer = new RecordingConsumer();
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final Map<TopicPartition, Long> nextOffset = new HashMap<>();
    private KafkaBatchReader reader;

    private KafkaBatchReader reader(int batchSize) {
        reader = new KafkaBatchReader(consumer, new KafkaSpoutConfig("127.0.0.1:1", TOPIC, "group", batchSize, 0),
            now::get);
        consumer.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
        consumer.rebalance(List.of(P0, P1));
        return reader;
    }

    @AfterEach
    void close() {
        if (reader != null && !consumer.closed()) {
            reader.close();
        }
    }

    private void add(TopicPartition tp, String... values) {
        for (String value : values) {
            long offset = nextOffset.merge(tp, 1L, Long::sum) - 1;
            consumer.addRecord(new ConsumerRecord<>(TOPIC, tp.partition(), offset, null,
                value == null ? null : value.getBytes(StandardCharsets.UTF_8)));
        }
    }

    private static String[] values(String prefix, int count) {
        String[] out = new String[count];
        for (int i = 0; i < count; i++) {
            out[i] = prefix + i;
        }
        return out;
    }

    private static List<String> strings(KafkaBatchReader.Batch batch) {
        List<String> out = new ArrayList<>();
        batch.values().forEach(v -> out.add(new String(v, StandardCharsets.UTF_8)));
        return out;
    }

    /** The last offset of {@code tp} the reader committed (-1: none). */
    private long committed(TopicPartition tp) {
        return consumer.commits.getOrDefault(tp, -1L);
    }

    /** Records the reader's commits (MockConsumer forgets them on close and rebalance), and their limits. */
    private static final class RecordingConsumer extends MockConsumer<byte[], byte[]> {
        final Map<TopicPartition, Long> commits = new HashMap<>();
        final Map<TopicPartition, Long> limits = new HashMap<>();
        final List<Runnable> held = new ArrayList<>();
        /** Commits of the group made before this consumer joined it. */
        final Map<TopicPartition, OffsetAndMetadata> previous = new HashMap<>();
        boolean holdCallbacks;

        RecordingConsumer() {
            super("earliest");
        }

        private void record(Map<TopicPartition, OffsetAndMetadata> offsets) {
            offsets.forEach((tp, offset) -> {
                commits.put(tp, offset.offset());
                long limit = HandOutLimit.parse(offset.metadata());
                if (limit >= 0) {
                    limits.merge(tp, limit, Math::max);
                }
            });
        }

        @Override
        public synchronized void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets,
                                             OffsetCommitCallback callback) {
            if (holdCallbacks && callback != null) {
                held.add(() -> {
                    record(offsets);
                    callback.onComplete(offsets, null);
                });
                return;
            }
            record(offsets);
            super.commitAsync(offsets, callback);
        }

        @Override
        public synchronized Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions,
                                                                               Duration timeout) {
            Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
            for (TopicPartition tp : partitions) {
                OffsetAndMetadata own = super.committed(Set.of(tp), timeout).get(tp);
                OffsetAndMetadata before = previous.get(tp);
                if (own != null || before != null) {
                    out.put(tp, own != null ? own : before);
                }
            }
            return out;
        }

        @Override
        public synchronized long position(TopicPartition tp, Duration timeout) {
            OffsetAndMetadata before = previous.get(tp);
            if (before != null && super.committed(Set.of(tp), timeout).get(tp) == null) {
                seek(tp, before.offset());
            }
            return super.position(tp, timeout);
        }

        void releaseCallbacks() {
            holdCallbacks = false;
            held.forEach(Runnable::run);
            held.clear();
        }

        @Override
        public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
            record(offsets);
            super.commitSync(offsets, timeout);
        }

        @Override
        public synchronized void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
            record(offsets);
            super.commitSync(offsets);
        }
    }

    @Test
    void nothingToReadGivesNoBatch() {
        reader(10);
        assertNull(reader.next());
    }

    @Test
    void batchesNeverExceedTheBatchSizeAndTheRestWaitsInTheBuffer() {
        reader(10);
        add(P0, values("a", 25));
        KafkaBatchReader.Batch first = reader.next();
        assertEquals(List.of(values("a", 10)), strings(first));
        assertEquals(15, reader.buffered());
        assertEquals(List.of("a10", "a11", "a12", "a13", "a14", "a15", "a16", "a17", "a18", "a19"),
            strings(reader.next()));
        assertEquals(List.of("a20", "a21", "a22", "a23", "a24"), strings(reader.next()));
        assertNull(reader.next());
        assertEquals(3, reader.pendingBatches());
    }

    @Test
    void aLingeringReaderHoldsAShortBatchBackUntilItsOldestRecordWaitedTheLinger() {
        reader(10);
        add(P0, values("a", 4));
        assertNull(reader.next(50), "4 of 10, just read: they wait for more");
        now.addAndGet(49);
        add(P0, "a4", "a5");
        assertNull(reader.next(50), "the oldest waited 49 ms of 50");
        now.addAndGet(1);
        KafkaBatchReader.Batch batch = reader.next(50);
        assertEquals(List.of(values("a", 6)), strings(batch), "both polls' records in one batch");
        assertEquals(1_000_000, batch.readTimeMs(), "stamped with the oldest record's read");
        assertNull(reader.next(50));
    }

    @Test
    void aLingeringReaderHandsAFullBatchOutAtOnceAndANonLingeringOneEveryRecord() {
        reader(10);
        add(P0, values("a", 12));
        assertEquals(10, reader.next(50).values().size(), "a full batch never waits");
        assertNull(reader.next(50), "the 2 left wait");
        assertEquals(List.of("a10", "a11"), strings(reader.next()), "without a linger they go at once");
    }

    @Test
    void batchIsStampedWithTheTimeItsRecordsWerePolled() {
        reader(10);
        add(P0, values("a", 15));
        long polledAt = now.get();
        assertEquals(polledAt, reader.next().readTimeMs());
        now.addAndGet(7);
        assertEquals(polledAt, reader.next().readTimeMs(), "the rest were read by the same poll");
    }

    @Test
    void aBatchHoldsOnePartitionAndNamesItsOffsets() {
        reader(10);
        add(P0, values("a", 4));
        add(P1, values("b", 4));
        KafkaBatchReader.Batch one = reader.next();
        KafkaBatchReader.Batch other = reader.next();
        assertEquals(4, one.values().size());
        assertEquals(4, other.values().size());
        assertNotEquals(one.partition(), other.partition());
        assertEquals(0, one.firstOffset());
        assertEquals(3, one.lastOffset());
        assertFalse(one.isReread(), "nobody read these before");
        reader.ack(one.id());
        reader.ack(other.id());
        reader.commitSync();
        assertEquals(4, committed(P0));
        assertEquals(4, committed(P1));
    }

    @Test
    void everyCommitRecordsAHandOutLimitAboveWhatWasHandedOut() {
        reader(100);
        for (int round = 0; round < 30; round++) {
            add(P0, values("a", 100));
            KafkaBatchReader.Batch batch = reader.next();
            assertTrue(batch.lastOffset() < consumer.limits.get(P0), "handed out below the committed limit");
            reader.ack(batch.id());
            now.addAndGet(KafkaBatchReader.COMMIT_INTERVAL_MS);
        }
        assertTrue(consumer.limits.get(P0) >= 3000, "the limit moved up with the reading");
    }

    @Test
    void noRecordAtOrAboveTheLimitIsHandedOutUntilACommitRaisesIt() {
        consumer.holdCallbacks = true; // commits are never confirmed: the limit stays where the first one put it
        reader(100);
        long limit = HandOutLimit.allowance(100);
        add(P0, values("a", (int) limit + 200));
        long handed = 0;
        for (int i = 0; i < 100; i++) {
            KafkaBatchReader.Batch batch = reader.next();
            if (batch != null) {
                assertTrue(batch.lastOffset() < limit);
                handed += batch.values().size();
            }
        }
        assertEquals(limit, handed, "everything below the limit, nothing above it");
        consumer.releaseCallbacks();
        assertNotNull(reader.next(), "a confirmed commit raises the limit");
    }

    @Test
    void aReaderTakingAPartitionOverSendsWhatItsPreviousReaderMayHaveHandedOutWithEachOffset() {
        // the group's last commit, by the reader that had P0 before: at 5, having handed records out below 12
        consumer.previous.put(P0, new OffsetAndMetadata(5, HandOutLimit.metadata(12)));
        reader(5);
        nextOffset.put(P0, 5L);
        add(P0, "a5", null, "a7", "a8", "a9", "a10", "a11", "a12", "a13");
        KafkaBatchReader.Batch first = reader.next();
        assertEquals(5, first.firstOffset());
        assertEquals(9, first.lastOffset());
        assertArrayEquals(new long[] {5, 7, 8, 9}, first.offsets(), "each value's offset; the null one skipped");
        KafkaBatchReader.Batch second = reader.next();
        assertEquals(10, second.firstOffset());
        assertEquals(11, second.lastOffset(), "a batch ends where the previous reader's limit does");
        assertArrayEquals(new long[] {10, 11}, second.offsets());
        KafkaBatchReader.Batch third = reader.next();
        assertEquals(12, third.firstOffset());
        assertFalse(third.isReread(), "above the previous limit: first reads, with boundaries of their own");
        assertTrue(consumer.limits.get(P0) >= 12, "the new reader's commits keep the previous limit at least");
    }

    @Test
    void ackedOffsetsAreCommittedAsynchronouslyOnceTheIntervalHasPassed() {
        reader(5);
        add(P0, values("a", 5));
        KafkaBatchReader.Batch batch = reader.next();
        reader.ack(batch.id());
        reader.next();
        assertEquals(0, committed(P0), "not before the commit interval (0: where the reader took the partition up)");
        now.addAndGet(KafkaBatchReader.COMMIT_INTERVAL_MS);
        reader.next();
        assertEquals(5, committed(P0));
    }

    @Test
    void unackedBatchCommitsOnlyUpToItsStart() {
        reader(5);
        add(P0, values("a", 10));
        KafkaBatchReader.Batch first = reader.next();
        reader.next(); // second batch, never acked
        reader.ack(first.id());
        reader.commitSync();
        assertEquals(5, committed(P0));
    }

    @Test
    void failedBatchIsReadAgainWithTheSameRecords() {
        reader(5);
        add(P0, values("a", 12));
        KafkaBatchReader.Batch first = reader.next();
        KafkaBatchReader.Batch second = reader.next();
        assertEquals(2, reader.buffered());
        reader.ack(first.id());
        reader.fail(second.id());
        assertEquals(0, reader.buffered(), "buffered records after the rewind point are dropped");
        assertEquals(5, consumer.position(P0));
        // MockConsumer does not re-serve records on seek; hand it the records from the rewind point again.
        for (int i = 5; i < 12; i++) {
            consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, i, null, ("a" + i).getBytes(StandardCharsets.UTF_8)));
        }
        KafkaBatchReader.Batch again = reader.next();
        assertEquals(strings(second), strings(again));
        reader.ack(again.id());
        reader.commitSync();
        assertEquals(10, committed(P0));
    }

    @Test
    void failOfOnePartitionKeepsTheOthersBuffered() {
        reader(4);
        add(P0, values("a", 4));
        add(P1, values("b", 4));
        KafkaBatchReader.Batch batch = reader.next(); // all of one partition (the poll's first)
        TopicPartition failed = strings(batch).get(0).startsWith("a") ? P0 : P1;
        assertEquals(4, reader.buffered());
        reader.fail(batch.id());
        assertEquals(4, reader.buffered(), "the other partition's records are not affected");
        assertEquals(0, consumer.position(failed));
        KafkaBatchReader.Batch other = reader.next();
        assertTrue(strings(other).get(0).startsWith(failed == P0 ? "b" : "a"));
    }

    @Test
    void recordsWithoutValueAreSkippedButTheirOffsetsCommitted() {
        reader(10);
        add(P0, "a0", null, "a2");
        KafkaBatchReader.Batch batch = reader.next();
        assertEquals(List.of("a0", "a2"), strings(batch));
        reader.ack(batch.id());
        add(P0, null, null);
        assertNull(reader.next(), "a batch of only null values is not emitted");
        assertEquals(0, reader.pendingBatches());
        reader.commitSync();
        assertEquals(5, committed(P0));
    }

    @Test
    void revokedPartitionCommitsItsAckedOffsetsAndForgetsItsInFlightBatches() {
        reader(4);
        add(P0, values("a", 8));
        KafkaBatchReader.Batch acked = reader.next();
        KafkaBatchReader.Batch inFlight = reader.next();
        reader.ack(acked.id());
        consumer.rebalance(List.of(P1));
        add(P1, values("b", 2));
        assertEquals(4, committed(P0), "acked offsets of the revoked partition are committed on revocation");
        assertEquals(0, reader.pendingBatches(), "the in-flight batch of the revoked partition is forgotten");
        reader.ack(inFlight.id());
        reader.commitSync();
        assertEquals(4, committed(P0), "a forgotten batch's ack commits nothing");
        KafkaBatchReader.Batch other = reader.next();
        assertNotNull(other);
        assertEquals(List.of("b0", "b1"), strings(other));
    }

    @Test
    void revokedPartitionsBufferedRecordsAreDropped() {
        reader(2);
        add(P0, values("a", 6));
        reader.next();
        assertEquals(4, reader.buffered());
        consumer.rebalance(List.of(P1));
        assertEquals(0, reader.buffered());
    }

    @Test
    void closeCommitsAckedOffsets() {
        reader(5);
        add(P0, values("a", 5));
        reader.ack(reader.next().id());
        reader.close();
        assertTrue(consumer.closed());
        assertEquals(5, committed(P0));
    }

    @Test
    void reservedConsumerPropertiesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new KafkaSpoutConfig("h:1", TOPIC, "g", 10, 10,
            Map.of("enable.auto.commit", "true")));
        assertThrows(IllegalArgumentException.class, () -> new KafkaSpoutConfig("h:1", TOPIC, "g", 0, 10));
        Map<String, Object> props = KafkaBatchReader.consumerProps(new KafkaSpoutConfig("h:1", TOPIC, "g", 123, 10,
            Map.of("auto.offset.reset", "earliest", "fetch.max.wait.ms", "20")), "client");
        assertEquals(false, props.get("enable.auto.commit"));
        assertEquals("earliest", props.get("auto.offset.reset"));
        assertEquals("20", props.get("fetch.max.wait.ms"));
        assertEquals(123, props.get("max.poll.records"));
        assertEquals(8 * 1024 * 1024, props.get("max.partition.fetch.bytes"));
    }
}

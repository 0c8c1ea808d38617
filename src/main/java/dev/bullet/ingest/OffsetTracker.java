package dev.bullet.ingest;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * The offset bookkeeping behind the DataSource spout's at-least-once contract (SPEC §3.1): which offset
 * ranges each emitted batch covers, which batches are acked, what may be committed and where to rewind when a
 * batch fails. A plain class (no Storm, no consumer) so every case is unit-tested.
 *
 * <p>Per partition, the emitted ranges are consecutive: a batch takes records from a buffer that keeps each
 * partition in offset order, so a new range of a partition always starts after every range of it still
 * tracked. The <em>committable</em> offset of a partition is the lowest offset not known to be acked: the
 * start of its oldest pending range, or the end of its last acked range when none is pending. Committing it
 * never skips a record that was not acked.
 *
 * <p>When a batch fails, each partition it covers is rewound to the start of its range there, and that
 * partition's later ranges (of batches emitted after it and still in flight) are dropped, since the rewind
 * reads them again. The acks and fails of those later batches are then ignored for that partition. A
 * revoked partition is forgotten entirely.
 *
 * <p>Not thread-safe: the spout's executor thread owns it.
 */
final class OffsetTracker {
    /** The offsets {@code first..last} (inclusive) of one partition covered by a batch. */
    record Range(long first, long last) {
        Range {
            if (first < 0 || last < first) {
                throw new IllegalArgumentException("bad offset range " + first + ".." + last);
            }
        }
    }

    private static final class Span {
        final long batchId;
        final long last;
        boolean acked;

        Span(long batchId, long last) {
            this.batchId = batchId;
            this.last = last;
        }
    }

    private static final class PartitionState {
        /** First offset → span, oldest first; the head is never acked (acked heads are popped). */
        final TreeMap<Long, Span> spans = new TreeMap<>();
        /** The lowest offset not known to be acked (-1 before the first range). */
        long floor = -1;
        /** The last offset committed (-1: none by us). */
        long committed = -1;
    }

    private final Map<TopicPartition, PartitionState> partitions = new HashMap<>();
    /** Batch id → partition → first offset of its range there. */
    private final Map<Long, Map<TopicPartition, Long>> batches = new HashMap<>();
    private long nextBatchId;

    /**
     * Records an emitted batch.
     *
     * @param ranges the non-empty range the batch covers in each of its partitions
     * @return the batch's id (unique for this tracker), to be passed to {@link #ack} or {@link #fail}
     * @throws IllegalArgumentException if a range does not start after every tracked range of its partition
     */
    long register(Map<TopicPartition, Range> ranges) {
        if (ranges.isEmpty()) {
            throw new IllegalArgumentException("a batch covers at least one partition");
        }
        for (Map.Entry<TopicPartition, Range> entry : ranges.entrySet()) {
            PartitionState state = partitions.get(entry.getKey());
            if (state == null) {
                continue;
            }
            long first = entry.getValue().first();
            Map.Entry<Long, Span> tail = state.spans.lastEntry();
            if ((tail != null && first <= tail.getValue().last) || first < state.floor) {
                throw new IllegalArgumentException("range " + entry.getValue() + " of " + entry.getKey()
                    + " overlaps tracked offsets (floor " + state.floor + ", tail "
                    + (tail == null ? "none" : tail.getKey() + ".." + tail.getValue().last) + ")");
            }
        }
        long id = nextBatchId++;
        Map<TopicPartition, Long> firsts = new HashMap<>(ranges.size() * 2);
        for (Map.Entry<TopicPartition, Range> entry : ranges.entrySet()) {
            PartitionState state = partitions.computeIfAbsent(entry.getKey(), tp -> new PartitionState());
            Range range = entry.getValue();
            if (state.floor < 0) {
                state.floor = range.first();
            }
            state.spans.put(range.first(), new Span(id, range.last()));
            firsts.put(entry.getKey(), range.first());
        }
        batches.put(id, firsts);
        return id;
    }

    /** Whether a batch is registered and neither acked, failed nor forgotten. */
    boolean isPending(long batchId) {
        return batches.containsKey(batchId);
    }

    /**
     * Marks a batch acked and advances the committable offsets of its partitions past every contiguous acked
     * range.
     *
     * @return false if the batch is unknown (already acked or failed, or all its partitions were forgotten)
     */
    boolean ack(long batchId) {
        Map<TopicPartition, Long> firsts = batches.remove(batchId);
        if (firsts == null) {
            return false;
        }
        for (Map.Entry<TopicPartition, Long> entry : firsts.entrySet()) {
            PartitionState state = partitions.get(entry.getKey());
            Span span = state == null ? null : state.spans.get(entry.getValue());
            if (span == null || span.batchId != batchId) {
                continue;
            }
            span.acked = true;
            Map.Entry<Long, Span> head;
            while ((head = state.spans.firstEntry()) != null && head.getValue().acked) {
                state.floor = head.getValue().last + 1;
                state.spans.pollFirstEntry();
            }
        }
        return true;
    }

    /**
     * Marks a batch failed. Each partition where the batch's range is still tracked is to be rewound to the
     * range's start; that range and every later one of the partition are dropped.
     *
     * @return partition → offset to seek to; empty if the batch is unknown or nothing needs rereading
     */
    Map<TopicPartition, Long> fail(long batchId) {
        Map<TopicPartition, Long> firsts = batches.remove(batchId);
        if (firsts == null) {
            return Map.of();
        }
        Map<TopicPartition, Long> seeks = new HashMap<>();
        for (Map.Entry<TopicPartition, Long> entry : firsts.entrySet()) {
            PartitionState state = partitions.get(entry.getKey());
            long first = entry.getValue();
            Span span = state == null ? null : state.spans.get(first);
            if (span == null || span.batchId != batchId) {
                continue;
            }
            state.spans.tailMap(first, true).clear();
            seeks.put(entry.getKey(), first);
        }
        return seeks;
    }

    /** The committable offset of every tracked partition where it is beyond the last {@link #committed} one. */
    Map<TopicPartition, Long> committable() {
        return committable(partitions.keySet());
    }

    /** As {@link #committable()}, restricted to the given partitions. */
    Map<TopicPartition, Long> committable(Collection<TopicPartition> only) {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        for (TopicPartition tp : only) {
            PartitionState state = partitions.get(tp);
            if (state != null && state.floor > state.committed) {
                offsets.put(tp, state.floor);
            }
        }
        return offsets;
    }

    /** The committable offset of a partition (-1 if unknown), whether committed or not. */
    long committableOffset(TopicPartition tp) {
        PartitionState state = partitions.get(tp);
        return state == null ? -1 : state.floor;
    }

    /** Notes offsets that Kafka confirmed committed; never moves a partition's committed offset back. */
    void committed(Map<TopicPartition, Long> offsets) {
        for (Map.Entry<TopicPartition, Long> entry : offsets.entrySet()) {
            PartitionState state = partitions.get(entry.getKey());
            if (state != null && entry.getValue() > state.committed) {
                state.committed = entry.getValue();
            }
        }
    }

    /**
     * Forgets partitions (revoked or lost): their ranges, committable offsets and their share of in-flight
     * batches. A batch left without partitions becomes unknown.
     */
    void forget(Collection<TopicPartition> gone) {
        if (gone.isEmpty()) {
            return;
        }
        Set<TopicPartition> goneSet = Set.copyOf(gone);
        partitions.keySet().removeAll(goneSet);
        Iterator<Map<TopicPartition, Long>> it = batches.values().iterator();
        while (it.hasNext()) {
            Map<TopicPartition, Long> firsts = it.next();
            firsts.keySet().removeAll(goneSet);
            if (firsts.isEmpty()) {
                it.remove();
            }
        }
    }

    /** Batches registered and neither acked nor failed nor forgotten. */
    int pendingBatches() {
        return batches.size();
    }

    /** The partitions with tracked state. */
    List<TopicPartition> partitions() {
        return new ArrayList<>(partitions.keySet());
    }
}

package dev.bullet.ingest;

import dev.bullet.common.Clock;
import dev.bullet.ingest.OffsetTracker.Range;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka side of the DataSource spout (SPEC §3.1), free of Storm: reads the firehose topic in a consumer
 * group and hands out batches of raw messages, each with an id; commits offsets only once batches are acked
 * (at-least-once) and rewinds on a failed batch. {@link KafkaBatchSpout} adapts it to Storm.
 *
 * <p>Records polled but not yet handed out wait in a buffer, so a batch never exceeds the batch size; each
 * partition's records stay in offset order there. Offsets: see {@link OffsetTracker}. Committing is
 * asynchronous, at most every {@link #COMMIT_INTERVAL_MS} from {@link #next()}, and synchronous when
 * partitions are revoked and on {@link #close()}. A commit refused during a rebalance
 * ({@link RebalanceInProgressException}) is simply made again after a later poll; it never rewinds anything.
 *
 * <p>Rebalances: for revoked partitions the acked offsets are committed, then their in-flight batches and
 * buffered records are forgotten (the new owner rereads from the commit; the forgotten batches' acks and fails
 * are ignored). Lost partitions are forgotten without a commit.
 *
 * <p>Not thread-safe: like the {@link Consumer} it owns, it belongs to one thread (the spout's executor).
 * Kafka errors propagate as {@link KafkaException}; the reader stays usable and the caller retries.
 */
public final class KafkaBatchReader implements AutoCloseable {
    static final long COMMIT_INTERVAL_MS = 500;
    static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);
    static final int MAX_PARTITION_FETCH_BYTES = 8 * 1024 * 1024;
    static final int FETCH_MAX_WAIT_MS = 500;
    private static final Logger LOG = LoggerFactory.getLogger(KafkaBatchReader.class);

    /**
     * One batch of raw message values (never empty) of one partition, the time its oldest record was polled, and its
     * place in Kafka: the offsets {@code firstOffset..lastOffset} of {@code partition}. The same offsets make the same
     * batch, whichever reader reads them. {@code offsets} is null, or, for a batch read again after a partition changed
     * reader (a dead or revoked one's batches, whose boundaries are not known), the offset of each value.
     */
    public record Batch(long id, List<byte[]> values, long readTimeMs, int partition, long firstOffset, long lastOffset,
                        long[] offsets) {
        /** A batch of records read for the first time by this group (or sent again with the same boundaries). */
        public Batch(long id, List<byte[]> values, long readTimeMs) {
            this(id, values, readTimeMs, 0, 0, 0, null);
        }

        /** Whether the batch may hold records another reader handed out before (see {@link #offsets}). */
        public boolean isReread() {
            return offsets != null;
        }
    }

    /** Records of one partition from one poll, taken from the front. */
    private static final class Chunk {
        final List<ConsumerRecord<byte[], byte[]>> records;
        final long readTimeMs;
        int next;

        Chunk(List<ConsumerRecord<byte[], byte[]>> records, long readTimeMs) {
            this.records = records;
            this.readTimeMs = readTimeMs;
        }

        int remaining() {
            return records.size() - next;
        }

        long nextOffset() {
            return records.get(next).offset();
        }
    }

    /** What the reader knows of one partition it owns. */
    private static final class Owned {
        final ArrayDeque<Chunk> chunks = new ArrayDeque<>();
        /** Offsets below this may have been handed out by a previous reader (-1: none). */
        long rereadUntil = -1;
        /** The offset after the last one handed out (-1: not known yet). */
        long handedUntil = -1;
        /** Offsets at and above this are not handed out until a commit raised it ({@link HandOutLimit}). */
        long limit = -1;
        /** The limit a commit in flight asks for (-1: none). */
        long askedLimit = -1;
    }

    private final Consumer<byte[], byte[]> consumer;
    private final String topic;
    private final int batchSize;
    private final long allowance;
    private final Duration pollTimeout;
    private final Clock clock;
    private final OffsetTracker tracker = new OffsetTracker();
    private final Map<TopicPartition, Owned> owned = new LinkedHashMap<>();
    private int buffered;
    private int nextPartition;
    private boolean commitInFlight;
    private long commitIssuedMs;
    private long lastCommitMs;
    private long nullValues;

    /** Takes over a consumer that is not subscribed yet and subscribes it to the config's topic. */
    KafkaBatchReader(Consumer<byte[], byte[]> consumer, KafkaSpoutConfig config, Clock clock) {
        this.consumer = consumer;
        this.topic = config.topic();
        this.batchSize = config.batchSize();
        this.allowance = HandOutLimit.allowance(config.batchSize());
        this.pollTimeout = Duration.ofMillis(config.pollTimeoutMs());
        this.clock = clock;
        this.lastCommitMs = clock.now();
        consumer.subscribe(List.of(topic), new Rebalances());
    }

    /** A reader with its own {@link KafkaConsumer}; {@code clientId} names it in Kafka's logs and metrics. */
    public static KafkaBatchReader open(KafkaSpoutConfig config, String clientId, Clock clock) {
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps(config, clientId));
        try {
            return new KafkaBatchReader(consumer, config, clock);
        } catch (RuntimeException e) {
            consumer.close(CloseOptions.timeout(Duration.ZERO));
            throw e;
        }
    }

    static Map<String, Object> consumerProps(KafkaSpoutConfig config, String clientId) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        // Look-forward: records that arrived before the first run of the group are not needed.
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, config.batchSize());
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, MAX_PARTITION_FETCH_BYTES);
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, FETCH_MAX_WAIT_MS);
        props.putAll(config.extraConsumerProps());
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return props;
    }

    /**
     * The next batch of at most the batch size, or null when nothing is ready (nothing arrived within the poll
     * timeout, or what arrived waits for a commit to raise its partition's hand-out limit). Waits for data only when
     * nothing is buffered. Also commits acked offsets and raises hand-out limits when due.
     */
    public Batch next() {
        return next(0);
    }

    /**
     * As {@link #next()}, but null while fewer records than the batch size are buffered and the oldest of them was
     * read less than {@code lingerMs} ago: they wait for more, to make a fuller batch. A reader whose batches are
     * acked slowly lingers, so that its batches grow with the rate where their number in flight is bounded
     * ({@code topology.max.spout.pending}).
     */
    public Batch next(long lingerMs) {
        long now = clock.now();
        maybeCommit(now);
        if (buffered >= batchSize) {
            // enough buffered: poll all the same (it runs commit callbacks, which raise hand-out limits), reading nothing
            Set<TopicPartition> assigned = consumer.assignment();
            consumer.pause(assigned);
            try {
                consumer.poll(Duration.ZERO);
            } finally {
                // a rebalance in that poll may have taken some away: resuming one no longer assigned throws
                Set<TopicPartition> still = new HashSet<>(assigned);
                still.retainAll(consumer.assignment());
                consumer.resume(still);
            }
        } else {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(buffered == 0 ? pollTimeout : Duration.ZERO);
            if (!records.isEmpty()) {
                long readTime = clock.now();
                for (TopicPartition tp : records.partitions()) {
                    List<ConsumerRecord<byte[], byte[]>> list = records.records(tp);
                    Owned o = owned.get(tp);
                    if (o == null) {
                        o = setUp(tp, list.get(0).offset());
                    }
                    o.chunks.addLast(new Chunk(list, readTime));
                    buffered += list.size();
                }
            }
        }
        if (lingerMs > 0 && buffered > 0 && buffered < batchSize && clock.now() - oldestReadTime() < lingerMs) {
            return null;
        }
        Batch batch;
        do {
            batch = take();
        } while (batch == EMPTY);
        return batch;
    }

    private static final Batch EMPTY = new Batch(-1, List.of(), 0);

    /** When the oldest record buffered was read. */
    private long oldestReadTime() {
        long oldest = Long.MAX_VALUE;
        for (Owned o : owned.values()) {
            if (!o.chunks.isEmpty()) {
                oldest = Math.min(oldest, o.chunks.peekFirst().readTimeMs);
            }
        }
        return oldest;
    }

    /**
     * Takes a batch from the buffer, one partition at a time in turn: null when no partition has records it may hand
     * out, {@link #EMPTY} (acked at once) when the records taken held only null values.
     */
    private Batch take() {
        if (buffered == 0 || owned.isEmpty()) {
            return null;
        }
        List<Map.Entry<TopicPartition, Owned>> entries = new ArrayList<>(owned.entrySet());
        int n = entries.size();
        for (int k = 0; k < n; k++) {
            int at = (nextPartition + k) % n;
            Owned o = entries.get(at).getValue();
            if (o.chunks.isEmpty() || o.limit < 0 || o.chunks.peekFirst().nextOffset() >= o.limit) {
                continue;
            }
            nextPartition = at + 1;
            return cut(entries.get(at).getKey(), o);
        }
        return null;
    }

    /**
     * A batch from the front of one partition's records: at most the batch size, below the hand-out limit, and either
     * wholly below the offset up to which a previous reader may have handed records out (then with each record's
     * offset) or wholly at or above it.
     */
    private Batch cut(TopicPartition tp, Owned o) {
        long first = o.chunks.peekFirst().nextOffset();
        boolean reread = first < o.rereadUntil;
        long stop = reread ? Math.min(o.rereadUntil, o.limit) : o.limit;
        List<byte[]> values = new ArrayList<>(Math.min(batchSize, buffered));
        List<Long> offsets = reread ? new ArrayList<>() : null;
        long readTime = Long.MAX_VALUE;
        long last = first;
        int taken = 0;
        while (taken < batchSize && !o.chunks.isEmpty()) {
            Chunk chunk = o.chunks.peekFirst();
            while (chunk.remaining() > 0 && taken < batchSize && chunk.nextOffset() < stop) {
                ConsumerRecord<byte[], byte[]> record = chunk.records.get(chunk.next++);
                taken++;
                buffered--;
                last = record.offset();
                readTime = Math.min(readTime, chunk.readTimeMs);
                if (record.value() != null) {
                    values.add(record.value());
                    if (offsets != null) {
                        offsets.add(record.offset());
                    }
                } else {
                    countNullValue(record);
                }
            }
            if (chunk.remaining() > 0) {
                break; // at the batch size or the stop
            }
            o.chunks.pollFirst();
        }
        o.handedUntil = last + 1;
        long id = tracker.register(Map.of(tp, new Range(first, last)));
        if (values.isEmpty()) {
            tracker.ack(id);
            return EMPTY;
        }
        long[] each = null;
        if (offsets != null) {
            each = new long[offsets.size()];
            for (int i = 0; i < each.length; i++) {
                each[i] = offsets.get(i);
            }
        }
        return new Batch(id, values, readTime, tp.partition(), first, last, each);
    }

    /**
     * Takes a partition up: where its group's last commit is, how far a previous reader may have handed records out
     * (the commit's metadata, {@link HandOutLimit}), and a first hand-out limit of its own, committed before any of
     * its records is handed out. {@code firstPolled} is the offset of records polled already (null: none).
     */
    private Owned setUp(TopicPartition tp, Long firstPolled) {
        Owned o = new Owned();
        OffsetAndMetadata committed = consumer.committed(Set.of(tp), COMMIT_TIMEOUT).get(tp);
        long base = committed != null ? committed.offset()
                : firstPolled != null ? firstPolled : consumer.position(tp, COMMIT_TIMEOUT);
        long previous = committed == null ? -1 : HandOutLimit.parse(committed.metadata());
        o.rereadUntil = previous > base ? previous : -1;
        o.handedUntil = base;
        owned.put(tp, o);
        long limit = Math.max(o.rereadUntil, base + allowance);
        o.askedLimit = limit;
        try {
            consumer.commitSync(Map.of(tp, new OffsetAndMetadata(base, HandOutLimit.metadata(limit))), COMMIT_TIMEOUT);
            o.limit = limit;
        } catch (InterruptException | WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            LOG.warn("Could not commit the hand-out limit of {}; its records wait for the next commit", tp, e);
        }
        if (o.rereadUntil >= 0) {
            LOG.info("Reading {} from {}: offsets below {} may have been handed out by its previous reader; they are"
                + " sent with their offsets, so none is counted twice", tp, base, o.rereadUntil);
        }
        return o;
    }

    private void countNullValue(ConsumerRecord<byte[], byte[]> record) {
        if (nullValues++ == 0) {
            LOG.warn("Skipping records with a null value in {} (first at {}-{} offset {}); they are committed"
                + " as read. Further ones are counted silently.", topic, record.topic(), record.partition(),
                record.offset());
        }
    }

    /** Whether a batch is still waiting for its ack (false once its partitions went to another reader). */
    public boolean isPending(long batchId) {
        return tracker.isPending(batchId);
    }

    /** The batch was processed downstream: its offsets may be committed. Unknown ids are ignored. */
    public void ack(long batchId) {
        tracker.ack(batchId);
    }

    /**
     * The batch failed or timed out downstream: rewind each of its partitions that this reader still owns to
     * the batch's first offset there, so the same records are read again (with those read after them).
     */
    public void fail(long batchId) {
        Map<TopicPartition, Long> seeks = tracker.fail(batchId);
        if (seeks.isEmpty()) {
            return;
        }
        Set<TopicPartition> assigned = consumer.assignment();
        for (Map.Entry<TopicPartition, Long> seek : seeks.entrySet()) {
            dropBuffered(List.of(seek.getKey()));
            if (assigned.contains(seek.getKey())) {
                consumer.seek(seek.getKey(), seek.getValue());
                Owned o = owned.get(seek.getKey());
                if (o != null) {
                    o.handedUntil = seek.getValue();
                }
            }
        }
        LOG.debug("Batch {} failed: rereading from {}", batchId, seeks);
    }

    /** Commits the acked offsets now and waits for Kafka to confirm (at most {@link #COMMIT_TIMEOUT}). */
    public void commitSync() {
        Map<TopicPartition, Long> offsets = tracker.committable();
        if (!offsets.isEmpty()) {
            consumer.commitSync(toKafka(offsets), COMMIT_TIMEOUT);
            tracker.committed(offsets);
            lastCommitMs = clock.now();
        }
    }

    /**
     * Commits asynchronously: acked offsets every {@link #COMMIT_INTERVAL_MS}, and at once for a partition whose
     * reading came within half the allowance of its hand-out limit (or has none yet), with the limit raised.
     */
    private void maybeCommit(long now) {
        if (commitInFlight && now - commitIssuedMs < COMMIT_TIMEOUT.toMillis()) {
            return;
        }
        boolean due = now - lastCommitMs >= COMMIT_INTERVAL_MS;
        Map<TopicPartition, Long> acked = tracker.committable();
        Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
        Map<TopicPartition, Long> asked = new HashMap<>();
        for (Map.Entry<TopicPartition, Owned> e : owned.entrySet()) {
            TopicPartition tp = e.getKey();
            Owned o = e.getValue();
            boolean raise = o.limit < 0 || o.handedUntil + allowance / 2 >= o.limit;
            Long offset = acked.get(tp);
            if (!raise && !(due && offset != null)) {
                continue;
            }
            long at = offset != null ? offset : tracker.committableOffset(tp) >= 0 ? tracker.committableOffset(tp)
                    : o.handedUntil;
            long limit = raise ? Math.max(highest(o), o.handedUntil + allowance) : highest(o);
            o.askedLimit = limit;
            commits.put(tp, new OffsetAndMetadata(at, HandOutLimit.metadata(limit)));
            asked.put(tp, limit);
        }
        if (due) {
            lastCommitMs = now;
        }
        if (commits.isEmpty()) {
            return;
        }
        commitInFlight = true; // before the call: a callback may run inside it
        commitIssuedMs = now;
        try {
            commitAsync(commits, asked);
        } catch (RuntimeException e) {
            commitInFlight = false;
            throw e;
        }
    }

    /** The highest hand-out limit asked for a partition: what every commit of it records, never less. */
    private static long highest(Owned o) {
        return Math.max(o.rereadUntil, Math.max(o.limit, o.askedLimit));
    }

    private void commitAsync(Map<TopicPartition, OffsetAndMetadata> commits, Map<TopicPartition, Long> asked) {
        consumer.commitAsync(commits, (committed, e) -> {
            commitInFlight = false;
            if (e == null) {
                tracker.committed(fromKafka(committed));
                asked.forEach((tp, limit) -> {
                    Owned o = owned.get(tp);
                    if (o != null && limit > o.limit) {
                        o.limit = limit;
                    }
                });
            } else if (e instanceof RebalanceInProgressException || e instanceof RetriableException) {
                LOG.debug("Commit of {} deferred to a later poll: {}", commits, e.toString());
            } else {
                LOG.warn("Commit of {} to group of topic {} failed; it is made again at the next interval (a partition"
                    + " that changed owner is reread by its new owner from the last commit)", commits, topic, e);
            }
        });
    }

    /** Batches handed out and neither acked nor failed (nor forgotten in a rebalance). */
    public int pendingBatches() {
        return tracker.pendingBatches();
    }

    /** Records polled and not yet handed out. */
    int buffered() {
        return buffered;
    }

    /** Commits what is acked (best effort) and closes the consumer, which leaves the group. */
    @Override
    public void close() {
        try {
            commitSync();
        } catch (InterruptException | WakeupException e) {
            LOG.warn("Interrupted while committing the acked offsets of {} at close", topic);
        } catch (KafkaException e) {
            LOG.warn("Could not commit the acked offsets of {} at close; they are reread after a restart", topic, e);
        } finally {
            if (nullValues > 0) {
                LOG.info("Skipped {} records with a null value in {}", nullValues, topic);
            }
            consumer.close(CloseOptions.timeout(CLOSE_TIMEOUT));
        }
    }

    /**
     * Closes the consumer without committing anything more: what a killed process leaves behind (its group moves its
     * partitions on at once rather than after the session timeout). For tests of what the next reader does.
     */
    public void abandon() {
        consumer.close(CloseOptions.timeout(CLOSE_TIMEOUT));
    }

    private void dropBuffered(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            Owned o = owned.get(tp);
            if (o != null) {
                for (Chunk chunk : o.chunks) {
                    buffered -= chunk.remaining();
                }
                o.chunks.clear();
            }
        }
    }

    /** Offsets to commit, each with the hand-out limit of its partition (a commit without it would lose it). */
    private Map<TopicPartition, OffsetAndMetadata> toKafka(Map<TopicPartition, Long> offsets) {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>(offsets.size() * 2);
        offsets.forEach((tp, offset) -> {
            Owned o = owned.get(tp);
            out.put(tp, o == null ? new OffsetAndMetadata(offset) : new OffsetAndMetadata(offset, HandOutLimit.metadata(highest(o))));
        });
        return out;
    }

    private static Map<TopicPartition, Long> fromKafka(Map<TopicPartition, OffsetAndMetadata> offsets) {
        Map<TopicPartition, Long> out = new HashMap<>(offsets.size() * 2);
        offsets.forEach((tp, offset) -> out.put(tp, offset.offset()));
        return out;
    }

    /** Runs inside {@code poll}/{@code close}, on the reader's thread. */
    private final class Rebalances implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
            Map<TopicPartition, Long> acked = tracker.committable(partitions);
            for (TopicPartition tp : partitions) {
                Owned o = owned.get(tp);
                Long offset = acked.get(tp);
                long at = offset != null ? offset : tracker.committableOffset(tp) >= 0 ? tracker.committableOffset(tp)
                        : o != null ? o.handedUntil : -1;
                if (at >= 0) { // with the limit: the next owner rereads up to it record by record
                    commits.put(tp, o == null ? new OffsetAndMetadata(at) : new OffsetAndMetadata(at, HandOutLimit.metadata(highest(o))));
                }
            }
            if (!commits.isEmpty()) {
                try {
                    consumer.commitSync(commits, COMMIT_TIMEOUT);
                    tracker.committed(fromKafka(commits));
                } catch (InterruptException | WakeupException e) {
                    throw e;
                } catch (KafkaException e) {
                    LOG.warn("Could not commit the acked offsets {} of revoked partitions; their new owner rereads"
                        + " from the previous commit", commits, e);
                }
            }
            forget(partitions, "revoked");
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            forget(partitions, "lost");
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            LOG.info("Reading partitions {}", partitions);
            for (TopicPartition tp : partitions) {
                if (!owned.containsKey(tp)) {
                    setUp(tp, null);
                }
            }
        }

        private void forget(Collection<TopicPartition> partitions, String why) {
            if (partitions.isEmpty()) {
                return;
            }
            int pending = tracker.pendingBatches();
            tracker.forget(partitions);
            dropBuffered(partitions);
            owned.keySet().removeAll(partitions);
            LOG.info("Partitions {} {}: forgot their in-flight batches ({} of {} batches no longer tracked)",
                partitions, why, pending - tracker.pendingBatches(), pending);
        }
    }
}

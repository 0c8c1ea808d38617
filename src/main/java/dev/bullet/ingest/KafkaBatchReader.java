package dev.bullet.ingest;

import dev.bullet.common.Clock;
import dev.bullet.ingest.OffsetTracker.Range;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
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

    /** One batch of raw message values (never empty) and the time its oldest record was polled. */
    public record Batch(long id, List<byte[]> values, long readTimeMs) {
    }

    /** Records of one partition from one poll, taken from the front. */
    private static final class Chunk {
        final TopicPartition partition;
        final List<ConsumerRecord<byte[], byte[]>> records;
        final long readTimeMs;
        int next;

        Chunk(TopicPartition partition, List<ConsumerRecord<byte[], byte[]>> records, long readTimeMs) {
            this.partition = partition;
            this.records = records;
            this.readTimeMs = readTimeMs;
        }

        int remaining() {
            return records.size() - next;
        }
    }

    private final Consumer<byte[], byte[]> consumer;
    private final String topic;
    private final int batchSize;
    private final Duration pollTimeout;
    private final Clock clock;
    private final OffsetTracker tracker = new OffsetTracker();
    private final ArrayDeque<Chunk> buffer = new ArrayDeque<>();
    private int buffered;
    private boolean commitInFlight;
    private long commitIssuedMs;
    private long lastCommitMs;
    private long nullValues;

    /** Takes over a consumer that is not subscribed yet and subscribes it to the config's topic. */
    KafkaBatchReader(Consumer<byte[], byte[]> consumer, KafkaSpoutConfig config, Clock clock) {
        this.consumer = consumer;
        this.topic = config.topic();
        this.batchSize = config.batchSize();
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
     * The next batch of at most the batch size, or null when nothing arrived within the poll timeout. Waits
     * for data only when nothing is buffered. Also commits acked offsets when due.
     */
    public Batch next() {
        long now = clock.now();
        maybeCommit(now);
        if (buffered < batchSize) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(buffered == 0 ? pollTimeout : Duration.ZERO);
            if (!records.isEmpty()) {
                long readTime = clock.now();
                for (TopicPartition tp : records.partitions()) {
                    List<ConsumerRecord<byte[], byte[]>> list = records.records(tp);
                    buffer.addLast(new Chunk(tp, list, readTime));
                    buffered += list.size();
                }
            }
        }
        while (buffered > 0) {
            Batch batch = take();
            if (batch != null) {
                return batch;
            }
        }
        return null;
    }

    /** Takes up to a batch from the buffer; null (and the batch acked at once) if it held only null values. */
    private Batch take() {
        List<byte[]> values = new ArrayList<>(Math.min(batchSize, buffered));
        Map<TopicPartition, Range> ranges = new HashMap<>();
        long readTime = Long.MAX_VALUE;
        int taken = 0;
        while (taken < batchSize && !buffer.isEmpty()) {
            Chunk chunk = buffer.peekFirst();
            int n = Math.min(batchSize - taken, chunk.remaining());
            int end = chunk.next + n;
            for (int i = chunk.next; i < end; i++) {
                byte[] value = chunk.records.get(i).value();
                if (value != null) {
                    values.add(value);
                } else {
                    countNullValue(chunk.records.get(i));
                }
            }
            Range range = new Range(chunk.records.get(chunk.next).offset(), chunk.records.get(end - 1).offset());
            ranges.merge(chunk.partition, range, (older, newer) -> new Range(older.first(), newer.last()));
            readTime = Math.min(readTime, chunk.readTimeMs);
            chunk.next = end;
            taken += n;
            buffered -= n;
            if (chunk.remaining() == 0) {
                buffer.pollFirst();
            }
        }
        long id = tracker.register(ranges);
        if (values.isEmpty()) {
            tracker.ack(id);
            return null;
        }
        return new Batch(id, values, readTime);
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
        Set<TopicPartition> owned = consumer.assignment();
        for (Map.Entry<TopicPartition, Long> seek : seeks.entrySet()) {
            dropBuffered(List.of(seek.getKey()));
            if (owned.contains(seek.getKey())) {
                consumer.seek(seek.getKey(), seek.getValue());
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

    private void maybeCommit(long now) {
        if (commitInFlight && now - commitIssuedMs < COMMIT_TIMEOUT.toMillis()) {
            return;
        }
        if (now - lastCommitMs < COMMIT_INTERVAL_MS) {
            return;
        }
        lastCommitMs = now;
        Map<TopicPartition, Long> offsets = tracker.committable();
        if (offsets.isEmpty()) {
            return;
        }
        commitInFlight = true; // before the call: a callback may run inside it
        commitIssuedMs = now;
        try {
            commitAsync(offsets);
        } catch (RuntimeException e) {
            commitInFlight = false;
            throw e;
        }
    }

    private void commitAsync(Map<TopicPartition, Long> offsets) {
        consumer.commitAsync(toKafka(offsets), (committed, e) -> {
            commitInFlight = false;
            if (e == null) {
                tracker.committed(fromKafka(committed));
            } else if (e instanceof RebalanceInProgressException || e instanceof RetriableException) {
                LOG.debug("Commit of {} deferred to a later poll: {}", offsets, e.toString());
            } else {
                LOG.warn("Commit of {} to group of topic {} failed; it is made again at the next interval (a partition"
                    + " that changed owner is reread by its new owner from the last commit)", offsets, topic, e);
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

    private void dropBuffered(Collection<TopicPartition> partitions) {
        Iterator<Chunk> it = buffer.iterator();
        while (it.hasNext()) {
            Chunk chunk = it.next();
            if (partitions.contains(chunk.partition)) {
                buffered -= chunk.remaining();
                it.remove();
            }
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> toKafka(Map<TopicPartition, Long> offsets) {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>(offsets.size() * 2);
        offsets.forEach((tp, offset) -> out.put(tp, new OffsetAndMetadata(offset)));
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
            Map<TopicPartition, Long> offsets = tracker.committable(partitions);
            if (!offsets.isEmpty()) {
                try {
                    consumer.commitSync(toKafka(offsets), COMMIT_TIMEOUT);
                    tracker.committed(offsets);
                } catch (InterruptException | WakeupException e) {
                    throw e;
                } catch (KafkaException e) {
                    LOG.warn("Could not commit the acked offsets {} of revoked partitions; their new owner rereads"
                        + " from the previous commit", offsets, e);
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
            if (!partitions.isEmpty()) {
                LOG.info("Reading partitions {}", partitions);
            }
        }

        private void forget(Collection<TopicPartition> partitions, String why) {
            if (partitions.isEmpty()) {
                return;
            }
            int pending = tracker.pendingBatches();
            tracker.forget(partitions);
            dropBuffered(partitions);
            LOG.info("Partitions {} {}: forgot their in-flight batches ({} of {} batches no longer tracked)",
                partitions, why, pending - tracker.pendingBatches(), pending);
        }
    }
}

package dev.bullet.pubsub;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * State kept in a compacted Kafka topic next to the PubSub's (the Join's snapshots, SPEC §3.5): values by string
 * key, the latest per key, a null value (tombstone) deleting it. Its clients are the PubSub's: the same bootstrap
 * servers and client properties ({@code bullet.pubsub.kafka.properties}). Writes go through a producer with
 * {@code acks=all} and idempotence, in order per key; each one's outcome goes to a callback (on the producer's
 * thread). {@link #readAll} reads the whole topic once, from its beginning to its end as of the call.
 *
 * <p>{@link #open} returns null when the topic does not exist: the caller runs without it. Thread-safe.
 */
public final class KafkaStateStore implements AutoCloseable {
    /** The partitions of the topic when Bullet creates it: the state of every Join task, read by each at its start. */
    static final int PARTITIONS = 1;
    /** The most a write may block the caller (for metadata or room in the producer's buffer). */
    static final int MAX_BLOCK_MS = 100;

    private final KafkaPubSub pubSub;
    private final String topic;
    private final KafkaProducer<byte[], byte[]> producer;
    private final int maxValueBytes;

    private KafkaStateStore(KafkaPubSub pubSub, String topic) {
        this.pubSub = pubSub;
        this.topic = topic;
        Map<String, Object> defaults = new HashMap<>();
        defaults.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        // a RAW query's rows are JSON: lz4 takes them to a third or less for little CPU
        defaults.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        // the acks of the partials wait for a confirmed snapshot: the client properties must not weaken these two
        // and a send must not hold the Join's executor: it fails at once when the producer's buffer is full or it has
        // no metadata (the snapshot is sent again with the next one)
        Map<String, Object> forced = Map.of(ProducerConfig.ACKS_CONFIG, "all",
                                            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                                            ProducerConfig.MAX_BLOCK_MS_CONFIG, MAX_BLOCK_MS);
        this.producer = pubSub.newProducer(0, "state", defaults, forced);
        this.maxValueBytes = ResultChunks.chunkBytes(pubSub.maxRequestSize());
        // the topic's metadata now, so that the first snapshot does not fail for want of it
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pubSub.clientTimeoutMs());
        while (true) {
            try {
                producer.partitionsFor(topic);
                break;
            } catch (KafkaException e) {
                if (System.nanoTime() > deadline) {
                    producer.close(Duration.ZERO);
                    throw new PubSubException("no metadata of state topic " + topic + " within "
                                              + pubSub.clientTimeoutMs() + " ms: " + e, e);
                }
            }
        }
    }

    /**
     * The store on {@code topic}, or empty when the topic does not exist (its producer is not even created, so no
     * write can create it with the broker's defaults).
     *
     * @throws PubSubException when Kafka cannot be reached within the client timeout
     */
    public static Optional<KafkaStateStore> open(KafkaPubSubConfig config, String topic) {
        KafkaPubSub pubSub = new KafkaPubSub(config);
        try (KafkaConsumer<byte[], byte[]> consumer = pubSub.newConsumer(readerProps(pubSub))) {
            List<PartitionInfo> partitions = consumer.partitionsFor(topic, Duration.ofMillis(pubSub.clientTimeoutMs()));
            if (partitions == null || partitions.isEmpty()) {
                return Optional.empty();
            }
        } catch (KafkaException e) {
            throw new PubSubException("cannot look up state topic " + topic + " at " + config.bootstrapServers() + ": "
                                      + e, e);
        }
        return Optional.of(new KafkaStateStore(pubSub, topic));
    }

    private static Map<String, Object> readerProps(KafkaPubSub pubSub) {
        Map<String, Object> props = pubSub.consumerProps("state");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return props;
    }

    public String topic() {
        return topic;
    }

    /**
     * Every key's latest value, of the keys {@code keep} accepts, read from the beginning of the topic to its end as of
     * this call (deleted keys left out).
     *
     * @throws PubSubException when the topic cannot be read to its end within {@code timeout}
     */
    public Map<String, byte[]> readAll(Predicate<String> keep, Duration timeout) {
        Map<String, byte[]> out = new HashMap<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = pubSub.newConsumer(readerProps(pubSub))) {
            List<TopicPartition> assigned = new ArrayList<>();
            for (PartitionInfo p : consumer.partitionsFor(topic, timeout)) {
                assigned.add(new TopicPartition(topic, p.partition()));
            }
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            Map<TopicPartition, Long> ends = new HashMap<>(consumer.endOffsets(assigned, timeout));
            while (!done(consumer, ends)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new PubSubException("state topic " + topic + " was not read to its end within " + timeout, null);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofNanos(Math.min(left, 200_000_000L)))) {
                    if (r.key() == null) {
                        continue;
                    }
                    String key = new String(r.key(), StandardCharsets.UTF_8);
                    if (r.value() == null) {
                        out.remove(key);
                    } else if (keep.test(key)) {
                        out.put(key, r.value());
                    }
                }
            }
        } catch (KafkaException e) {
            throw new PubSubException("cannot read state topic " + topic + ": " + e, e);
        }
        return out;
    }

    private static boolean done(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends) {
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Sends {@code value} (null: a tombstone) under {@code key}; {@code outcome} gets null once every in-sync replica
     * has it, else the failure (on the producer's thread, or the caller's when the send fails at once).
     */
    public void write(String key, byte[] value, Consumer<Exception> outcome) {
        try {
            producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value),
                          (metadata, failure) -> outcome.accept(failure));
        } catch (KafkaException | IllegalStateException e) {
            outcome.accept(e);
        }
    }

    /** The largest value a write may carry ({@code max.request.size} less headroom). */
    public int maxValueBytes() {
        return maxValueBytes;
    }

    @Override
    public void close() {
        producer.close(KafkaPubSub.CLOSE_TIMEOUT);
    }

    /**
     * Creates {@code topic} compacted ({@code cleanup.policy=compact}), {@value #PARTITIONS} partition, the broker's
     * replication factor; an existing topic is kept as it is.
     *
     * @throws PubSubException when Kafka cannot be reached or refuses
     */
    public static void createTopic(KafkaPubSubConfig config, String topic) {
        KafkaPubSub pubSub = new KafkaPubSub(config);
        int timeoutMs = pubSub.clientTimeoutMs();
        try (Admin admin = Admin.create(pubSub.commonProps("state-admin"))) {
            NewTopic t = new NewTopic(topic, Optional.of(PARTITIONS), Optional.empty())
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            try {
                admin.createTopics(List.of(t), new CreateTopicsOptions().timeoutMs(timeoutMs)).all()
                    .get(timeoutMs + 2_000L, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new PubSubException("cannot create state topic " + topic + " at " + config.bootstrapServers()
                                              + ": " + e.getCause(), e.getCause());
                }
            }
        } catch (TimeoutException e) {
            throw new PubSubException("Kafka did not answer within " + timeoutMs + " ms creating " + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PubSubException("interrupted while creating state topic " + topic, e);
        } catch (KafkaException e) {
            throw new PubSubException("cannot create a Kafka admin client for " + config.bootstrapServers() + ": " + e, e);
        }
    }

    /** The name of the Join's state topic when the settings give none: the request topic's and {@code -join-state}. */
    public static String defaultJoinStateTopic(String requestTopic) {
        return requestTopic + "-join-state";
    }

    @Override
    public String toString() {
        return "state topic " + topic + " at " + pubSub.config().bootstrapServers();
    }
}

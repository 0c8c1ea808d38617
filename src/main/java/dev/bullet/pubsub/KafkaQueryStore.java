package dev.bullet.pubsub;

import dev.bullet.common.Clock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
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
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The query store in a compacted Kafka topic next to the PubSub's ({@code bullet.pubsub.kafka.queries.topic.name};
 * the request topic's name + {@value #TOPIC_SUFFIX} by default): key = query id, value = {@link StoredQuery}'s JSON,
 * a tombstone when the query ended. Its clients take the PubSub's client properties
 * ({@code bullet.pubsub.kafka.properties}: security, timeouts); its producer always waits for every in-sync replica
 * ({@code acks=all}) and is idempotent, whatever those say, so an entry and its tombstone land once and in order.
 *
 * <p>Before its first use the store checks that its topic exists (bounded by the client timeout). A missing topic
 * is logged once, clearly, and the store then does nothing: queries run as before, they only do not outlive a
 * restart. A Kafka that does not answer is checked again after {@value #RECHECK_MS} ms; writes meanwhile are skipped
 * (counted in the log). Write failures are logged with the query id, at most one line a minute. Not thread-safe,
 * except that the producer's callbacks may run on its thread.
 */
public final class KafkaQueryStore implements QueryStore {
    /** What the default topic name adds to the request topic's. */
    public static final String TOPIC_SUFFIX = "-queries";
    static final long RECHECK_MS = 10_000;
    static final long LOG_EVERY_MS = 60_000;
    /** The store's segments roll hourly, so compaction drops ended queries within hours, not Kafka's default week. */
    static final String SEGMENT_MS = Long.toString(TimeUnit.HOURS.toMillis(1));
    private static final Logger LOG = LoggerFactory.getLogger(KafkaQueryStore.class);

    private enum State { UNCHECKED, READY, OFF }

    private final KafkaPubSub pubSub;
    private final String topic;
    private final Clock clock;
    private State state = State.UNCHECKED;
    private long nextCheck = Long.MIN_VALUE;
    private KafkaProducer<byte[], byte[]> producer;
    private long skipped;
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong lastFailureLog = new AtomicLong(Long.MIN_VALUE / 2);

    KafkaQueryStore(KafkaPubSub pubSub, String topic, Clock clock) {
        if (topic == null || topic.isBlank()) {
            throw new IllegalArgumentException("the query store needs a topic");
        }
        this.pubSub = pubSub;
        this.topic = topic;
        this.clock = clock;
    }

    /** The store's topic. */
    public String topic() {
        return topic;
    }

    /** The default topic of a PubSub whose request topic is {@code requestTopic}. */
    public static String defaultTopic(String requestTopic) {
        return requestTopic + TOPIC_SUFFIX;
    }

    @Override
    public void put(StoredQuery query) {
        send(query.id(), query.toValue());
    }

    @Override
    public void remove(String id) {
        send(id, null);
    }

    @Override
    public boolean available() {
        return check() == State.READY;
    }

    private void send(String id, byte[] value) {
        if (check() != State.READY) {
            if (state == State.UNCHECKED && skipped++ % 1000 == 0) {
                LOG.warn("Query store {} not reachable yet: {} write(s) skipped so far (query {})", topic, skipped, id);
            }
            return;
        }
        try {
            producer().send(new ProducerRecord<>(topic, id.getBytes(StandardCharsets.UTF_8), value), (m, e) -> {
                if (e != null) {
                    failed(id, value, e);
                }
            });
        } catch (KafkaException e) {
            if (producer == null) { // the producer could not be made: the client properties do not allow one
                off("cannot be written (" + e + ")");
                return;
            }
            failed(id, value, e);
        }
    }

    private void failed(String id, byte[] value, Exception e) {
        long count = failed.incrementAndGet();
        long now = clock.now();
        long last = lastFailureLog.get();
        if (now - last >= LOG_EVERY_MS && lastFailureLog.compareAndSet(last, now)) {
            LOG.warn("Could not write {} of query {} to the query store {} ({} write(s) failed so far; this query may"
                     + " {} a topology restart)", value == null ? "the end" : "the entry", id, topic, count,
                     value == null ? "come back after" : "not outlive", e);
        }
    }

    @Override
    public List<StoredQuery> load() {
        State s = check();
        if (s == State.OFF) {
            return List.of();
        }
        if (s != State.READY) {
            throw new PubSubException("the query store " + topic + " at " + pubSub.config().bootstrapServers()
                                      + " cannot be reached now", null);
        }
        int timeoutMs = pubSub.clientTimeoutMs();
        Duration timeout = Duration.ofMillis(timeoutMs);
        Map<String, Object> props = pubSub.clientProps("store-reader");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo p : consumer.partitionsFor(topic, timeout)) {
                partitions.add(new TopicPartition(topic, p.partition()));
            }
            if (partitions.isEmpty()) {
                off("does not exist");
                return List.of();
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            StoredQueries stored = new StoredQueries();
            Set<TopicPartition> left = new HashSet<>(partitions);
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3L * timeoutMs);
            while (true) {
                left.removeIf(tp -> consumer.position(tp, timeout) >= end.get(tp));
                if (left.isEmpty()) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    throw new PubSubException("could not read the query store " + topic + " to its end within "
                                              + 3L * timeoutMs + " ms", null);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    stored.apply(r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8), r.value());
                }
            }
            if (stored.malformed() > 0) {
                LOG.warn("The query store {} holds {} value(s) that are not stored queries; skipped", topic,
                         stored.malformed());
            }
            return stored.live();
        } catch (KafkaException e) {
            throw new PubSubException("cannot read the query store " + topic + " at "
                                      + pubSub.config().bootstrapServers() + ": " + e, e);
        }
    }

    /** Whether the topic is there, checked once (again after {@link #RECHECK_MS} while Kafka does not answer). */
    private State check() {
        if (state != State.UNCHECKED) {
            return state;
        }
        long now = clock.now();
        if (now < nextCheck) {
            return state;
        }
        nextCheck = now + RECHECK_MS;
        int timeoutMs = pubSub.clientTimeoutMs();
        Admin admin;
        try {
            admin = Admin.create(pubSub.clientProps("store-admin"));
        } catch (KafkaException e) {
            off("cannot be checked: no Kafka admin client (" + e + ")");
            return state;
        }
        try {
            admin.describeTopics(List.of(topic), new DescribeTopicsOptions().timeoutMs(timeoutMs)).allTopicNames()
                 .get(timeoutMs + 2_000L, TimeUnit.MILLISECONDS);
            state = State.READY;
            warnIfNotCompacted(admin, timeoutMs);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                off("does not exist");
            } else {
                LOG.warn("Cannot check the query store {} at {} (checked again in {} s): {}", topic,
                         pubSub.config().bootstrapServers(), RECHECK_MS / 1000, e.getCause().toString());
            }
        } catch (TimeoutException e) {
            LOG.warn("Kafka at {} did not answer within {} ms about the query store {} (checked again in {} s)",
                     pubSub.config().bootstrapServers(), timeoutMs, topic, RECHECK_MS / 1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            admin.close(Duration.ofSeconds(2));
        }
        return state;
    }

    private void off(String why) {
        state = State.OFF;
        LOG.error("The query store's topic {} at {} {}: running queries will NOT outlive a topology restart, and a"
                  + " restarted REST instance will not kill the queries it had. Create it (one partition,"
                  + " cleanup.policy=compact; the REST service and local mode do) and restart, or set"
                  + " bullet.topology.query.store.enable: false to say you run without it.", topic,
                  pubSub.config().bootstrapServers(), why);
    }

    private void warnIfNotCompacted(Admin admin, int timeoutMs) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try {
            Config config = admin.describeConfigs(List.of(resource), new DescribeConfigsOptions().timeoutMs(timeoutMs))
                                 .all().get(timeoutMs + 2_000L, TimeUnit.MILLISECONDS).get(resource);
            ConfigEntry policy = config == null ? null : config.get(TopicConfig.CLEANUP_POLICY_CONFIG);
            if (policy != null && !policy.value().contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
                LOG.warn("The query store's topic {} has cleanup.policy={}, not compact: Kafka may delete the entries"
                         + " of long-running queries", topic, policy.value());
            }
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("Cannot read the configuration of the query store's topic {}", topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            Map<String, Object> props = pubSub.clientProps("store-writer");
            props.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 0);
            props.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, KafkaPubSub.DEFAULT_TIMEOUT_MS);
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            producer = new KafkaProducer<>(props);
        }
        return producer;
    }

    /** Writes failed so far (for tests and logs). */
    long failedWrites() {
        return failed.get();
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(KafkaPubSub.CLOSE_TIMEOUT);
            producer = null;
        }
    }

    /**
     * Creates the store's topic, compacted, with one partition and the broker's default replication factor; an
     * existing topic is kept as it is.
     *
     * @throws PubSubException if Kafka cannot be reached within the client timeout, or the topic cannot be created
     */
    public static void createTopic(KafkaPubSubConfig config, String topic) {
        KafkaPubSub pubSub = new KafkaPubSub(config);
        int timeoutMs = pubSub.clientTimeoutMs();
        String where = " at " + config.bootstrapServers();
        Map<String, String> configs = new HashMap<>();
        configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        configs.put(TopicConfig.SEGMENT_MS_CONFIG, SEGMENT_MS);
        NewTopic newTopic = new NewTopic(topic, Optional.of(1), Optional.empty()).configs(configs);
        Admin admin;
        try {
            admin = Admin.create(pubSub.clientProps("store-admin"));
        } catch (KafkaException e) {
            throw new PubSubException("cannot create a Kafka admin client" + where + ": " + e, e);
        }
        try {
            admin.createTopics(List.of(newTopic), new CreateTopicsOptions().timeoutMs(timeoutMs)).all()
                 .get(timeoutMs + 2_000L, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new PubSubException("cannot create the query store's topic " + topic + where + ": "
                                          + e.getCause(), e.getCause());
            }
        } catch (TimeoutException e) {
            throw new PubSubException("Kafka did not answer within " + timeoutMs + " ms" + where, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PubSubException("interrupted while creating topic " + topic + where, e);
        } finally {
            admin.close(Duration.ofSeconds(2));
        }
    }
}

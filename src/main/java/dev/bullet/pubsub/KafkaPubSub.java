package dev.bullet.pubsub;

import dev.bullet.common.Clock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The Kafka PubSub (SPEC §7.1): queries and KILL signals travel REST → topology on the request topic, results
 * travel topology → REST on the response topic. Each REST instance reads only its own response partitions
 * (assigned, no consumer group) and stamps the queries it sends with one of them as the reply partition; the
 * topology publishes each result into its query's reply partition. So several REST instances can share one
 * topology. Wire format: {@link KafkaWire}.
 *
 * <p>This object is a cheap factory holding only the config; each client it returns owns its own Kafka
 * connection and must be closed. Every blocking call of those clients is bounded (by default
 * {@value #DEFAULT_TIMEOUT_MS} ms: {@code max.block.ms}, {@code request.timeout.ms},
 * {@code default.api.timeout.ms}); an unreachable Kafka surfaces as a {@link PubSubException}, never as a hang.
 */
public final class KafkaPubSub {
    static final int DEFAULT_TIMEOUT_MS = 10_000;
    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);
    /** Kafka's default {@code max.request.size}. */
    static final int DEFAULT_MAX_REQUEST_SIZE = 1024 * 1024;
    /** The most bytes of one result when the caller does not say: twice {@code bullet.query.max.bytes}'s default. */
    public static final long DEFAULT_MAX_RESULT_BYTES = 64L * 1024 * 1024;
    /** Distinct client ids within a JVM (Kafka registers its metrics under them). */
    private static final AtomicInteger CLIENT_IDS = new AtomicInteger();

    private final KafkaPubSubConfig config;

    public KafkaPubSub(KafkaPubSubConfig config) {
        this.config = config;
    }

    public KafkaPubSubConfig config() {
        return config;
    }

    // ---- query-submission side (a REST instance) ----

    /**
     * Sends queries and signals to the request topic. Each {@code send} waits until Kafka has the message (it is
     * then visible to the topology) and throws {@link PubSubException} if it could not be delivered. Thread-safe.
     */
    public Publisher requestPublisher() {
        Map<String, Object> defaults = new HashMap<>();
        defaults.put(ProducerConfig.ACKS_CONFIG, "1");
        // acks=1 rules out idempotence; one request in flight keeps the messages in order on retries.
        defaults.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        defaults.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        return new KafkaRequestPublisher(newProducer(0, "request", defaults), config.requestTopic(), clientTimeoutMs());
    }

    /**
     * Reads results from the given partitions of the response topic, assigned to this subscriber alone (no
     * consumer group). It starts at their end as of this call, so it sees the results of queries sent after it
     * was created, and nothing older.
     *
     * @param partitions response partitions owned by the calling REST instance, each in
     *                   {@code [0, responsePartitions)}
     * @throws PubSubException if the response topic does not exist (or lacks a partition), or Kafka cannot be
     *                         reached to find the partitions' end offsets
     */
    public Subscriber responseSubscriber(Collection<Integer> partitions) {
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("a response subscriber needs at least one partition");
        }
        List<TopicPartition> assigned = new ArrayList<>();
        for (int partition : partitions) {
            if (partition < 0 || partition >= config.responsePartitions()) {
                throw new IllegalArgumentException("response partition " + partition + " is not in [0, "
                    + config.responsePartitions() + ") of topic " + config.responseTopic());
            }
            assigned.add(new TopicPartition(config.responseTopic(), partition));
        }
        Map<String, Object> props = consumerProps("response");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        KafkaConsumer<byte[], byte[]> consumer = newConsumer(props);
        try {
            List<PartitionInfo> existing = consumer.partitionsFor(config.responseTopic(),
                Duration.ofMillis(clientTimeoutMs()));
            int highest = assigned.stream().mapToInt(TopicPartition::partition).max().orElse(0);
            if (existing.size() <= highest) {
                consumer.close(CloseOptions.timeout(Duration.ZERO));
                throw new PubSubException("response topic " + config.responseTopic() + " at "
                    + config.bootstrapServers() + (existing.isEmpty() ? " does not exist"
                    : " has only " + existing.size() + " partitions") + " (createTopics() creates it)", null);
            }
            consumer.assign(assigned);
            consumer.seekToEnd(assigned);
            // seekToEnd is lazy: resolve the end offsets now, so results sent from here on are not skipped.
            Duration timeout = Duration.ofMillis(clientTimeoutMs());
            for (TopicPartition tp : assigned) {
                consumer.position(tp, timeout);
            }
        } catch (KafkaException e) {
            consumer.close(CloseOptions.timeout(Duration.ZERO));
            throw new PubSubException("cannot read the end of " + assigned + " at " + config.bootstrapServers()
                + " within " + clientTimeoutMs() + " ms (is Kafka running and the topic created?): " + e, e);
        }
        return new KafkaSubscriber(consumer, "response partitions " + assigned);
    }

    // ---- query-processing side (the topology) ----

    /**
     * Reads queries and signals from the request topic as member of consumer group {@code groupId}. A new
     * group starts at the end of the topic (queries are look-forward; the group commits its position
     * automatically). Fits a spout: {@code receive(Duration.ZERO)} never blocks on the network.
     */
    public Subscriber requestSubscriber(String groupId) {
        if (groupId == null || groupId.isBlank()) {
            throw new IllegalArgumentException("a request subscriber needs a consumer group id");
        }
        Map<String, Object> props = consumerProps("request");
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, true);
        props.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        KafkaConsumer<byte[], byte[]> consumer = newConsumer(props);
        try {
            consumer.subscribe(List.of(config.requestTopic()));
        } catch (KafkaException e) {
            consumer.close(CloseOptions.timeout(Duration.ZERO));
            throw new PubSubException("cannot subscribe to " + config.requestTopic() + ": " + e, e);
        }
        return new KafkaSubscriber(consumer, "request topic " + config.requestTopic() + " (group " + groupId + ")");
    }

    /**
     * Publishes results to the response topic: into the message's reply partition when it is set (≥ 0), else
     * by query id. Sends are asynchronous and keep their order; {@link Publisher#flush()} waits for them and
     * reports failed deliveries (each is also logged with its query id), {@link Publisher#send(PubSubMessage,
     * java.util.function.Consumer)} reports each one. The producer waits for every in-sync replica
     * ({@code acks=all}), is idempotent (up to 5 requests in flight, in order), unless the client properties say
     * otherwise; it does not compress unless they set {@code compression.type} (docs/DECISIONS.md). A result larger
     * than one message ({@code max.request.size} less headroom) travels in chunks; one larger than
     * {@code maxResultBytes} is refused ({@link ResultTooLargeException}). Thread-safe.
     */
    public Publisher responsePublisher(long maxResultBytes) {
        if (maxResultBytes < 1) {
            throw new IllegalArgumentException("maxResultBytes must be positive, got " + maxResultBytes);
        }
        Map<String, Object> defaults = new HashMap<>();
        String acks = config.extraClientProps().getOrDefault(ProducerConfig.ACKS_CONFIG, "all").trim();
        boolean all = acks.equals("all") || acks.equals("-1");
        defaults.put(ProducerConfig.ACKS_CONFIG, "all");
        // idempotence: a retry inside the producer neither duplicates nor reorders, with 5 requests in flight
        defaults.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, all);
        defaults.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, all ? 5 : 1);
        return new KafkaResponsePublisher(newProducer(1, "response", defaults), config.responseTopic(),
            config.responsePartitions(), ResultChunks.chunkBytes(maxRequestSize()), maxResultBytes);
    }

    /** {@link #responsePublisher(long)} with {@value #DEFAULT_MAX_RESULT_BYTES} bytes at most per result. */
    public Publisher responsePublisher() {
        return responsePublisher(DEFAULT_MAX_RESULT_BYTES);
    }

    /** The producers' {@code max.request.size}: the client properties' value, else Kafka's default. */
    int maxRequestSize() {
        String value = config.extraClientProps().get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
        if (value == null) {
            return DEFAULT_MAX_REQUEST_SIZE;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(ProducerConfig.MAX_REQUEST_SIZE_CONFIG + " is not a number: " + value, e);
        }
    }

    // ---- topics ----

    /**
     * Creates the request topic (1 partition) and the response topic ({@code responsePartitions} partitions),
     * with the broker's default replication factor. Idempotent: an existing topic is kept, but a response topic
     * with fewer partitions than configured is an error.
     *
     * @throws PubSubException if Kafka cannot be reached within the client timeout, or a topic cannot be created
     */
    public void createTopics() {
        int timeoutMs = clientTimeoutMs();
        long waitMs = timeoutMs + 2_000L;
        Admin admin;
        try {
            admin = Admin.create(commonProps("admin"));
        } catch (KafkaException e) {
            throw new PubSubException("cannot create a Kafka admin client for " + config.bootstrapServers() + ": " + e,
                e);
        }
        String where = " at " + config.bootstrapServers();
        try {
            List<NewTopic> topics = List.of(
                new NewTopic(config.requestTopic(), Optional.of(1), Optional.empty()),
                new NewTopic(config.responseTopic(), Optional.of(config.responsePartitions()), Optional.empty()));
            Map<String, KafkaFuture<Void>> created =
                admin.createTopics(topics, new CreateTopicsOptions().timeoutMs(timeoutMs)).values();
            for (Map.Entry<String, KafkaFuture<Void>> entry : created.entrySet()) {
                try {
                    entry.getValue().get(waitMs, TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw failure("cannot create topic " + entry.getKey() + where, e.getCause());
                    }
                }
            }
            TopicDescription response = null;
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
            while (response == null) {
                try {
                    response = admin.describeTopics(List.of(config.responseTopic()),
                            new DescribeTopicsOptions().timeoutMs(timeoutMs))
                        .allTopicNames().get(waitMs, TimeUnit.MILLISECONDS).get(config.responseTopic());
                } catch (ExecutionException e) {
                    // a topic created a moment ago may not be in the broker's metadata yet: ask again until the deadline
                    if (!(e.getCause() instanceof UnknownTopicOrPartitionException)
                        || System.nanoTime() > deadline) {
                        throw e;
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
                }
            }
            int actual = response.partitions().size();
            if (actual < config.responsePartitions()) {
                throw new PubSubException("response topic " + config.responseTopic() + where + " has " + actual
                    + " partitions, fewer than the " + config.responsePartitions() + " configured", null);
            }
        } catch (ExecutionException e) {
            throw failure("cannot describe topic " + config.responseTopic() + where, e.getCause());
        } catch (TimeoutException e) {
            throw failure("Kafka did not answer within " + waitMs + " ms" + where, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PubSubException("interrupted while creating topics" + where, e);
        } finally {
            admin.close(Duration.ofSeconds(2));
        }
    }

    /**
     * Checks that Kafka answers (for health checks): returns when a broker has described the cluster.
     *
     * @throws PubSubException if no broker answered within the client timeout
     */
    public void ping() {
        int timeoutMs = clientTimeoutMs();
        String where = " at " + config.bootstrapServers();
        Admin admin;
        try {
            admin = Admin.create(commonProps("ping"));
        } catch (KafkaException e) {
            throw new PubSubException("cannot create a Kafka admin client" + where + ": " + e, e);
        }
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(timeoutMs)).nodes()
                .get(timeoutMs + 2_000L, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw failure("Kafka did not answer" + where, e.getCause());
        } catch (TimeoutException e) {
            throw failure("Kafka did not answer within " + timeoutMs + " ms" + where, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PubSubException("interrupted while reaching Kafka" + where, e);
        } finally {
            admin.close(Duration.ofSeconds(2));
        }
    }

    private static PubSubException failure(String what, Throwable cause) {
        // name clash: java.util.concurrent.TimeoutException is imported
        String hint = cause instanceof org.apache.kafka.common.errors.TimeoutException
            ? " (is Kafka running and reachable?)" : "";
        return new PubSubException(what + hint + ": " + cause, cause);
    }

    // ---- client properties ----

    /** The timeout bounding blocking client calls: {@code default.api.timeout.ms}, unless overridden. */
    int clientTimeoutMs() {
        String value = config.extraClientProps().get(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG);
        if (value == null) {
            return DEFAULT_TIMEOUT_MS;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG
                + " is not a number: " + value, e);
        }
    }

    /** The properties every client of the PubSub starts from (the client properties over Bullet's defaults). */
    Map<String, Object> clientProps(String role) {
        return commonProps(role);
    }

    /**
     * The query store in {@code topic} ({@link KafkaQueryStore}), with this PubSub's client properties. Cheap: it
     * reaches Kafka on its first use.
     */
    public QueryStore queryStore(String topic, Clock clock) {
        return new KafkaQueryStore(this, topic, clock);
    }

    Map<String, Object> commonProps(String role) {
        Map<String, Object> props = new HashMap<>();
        props.put(CommonClientConfigs.CLIENT_ID_CONFIG, "bullet-pubsub-" + role + "-" + CLIENT_IDS.incrementAndGet());
        props.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, DEFAULT_TIMEOUT_MS);
        props.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, DEFAULT_TIMEOUT_MS);
        props.putAll(config.extraClientProps());
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        return props;
    }

    Map<String, Object> consumerProps(String role) {
        Map<String, Object> props = commonProps(role);
        // A topic created by a consumer's metadata request would get the broker's default partition count.
        props.putIfAbsent(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return props;
    }

    KafkaConsumer<byte[], byte[]> newConsumer(Map<String, Object> props) {
        try {
            return new KafkaConsumer<>(props);
        } catch (KafkaException e) {
            throw new PubSubException("cannot create a Kafka consumer for " + config.bootstrapServers() + ": " + e, e);
        }
    }

    /** A producer with these defaults under the client properties (which win). */
    KafkaProducer<byte[], byte[]> newProducer(int lingerMs, String role, Map<String, Object> defaults) {
        return newProducer(lingerMs, role, defaults, Map.of());
    }

    /** As above, with {@code forced} over the client properties. */
    KafkaProducer<byte[], byte[]> newProducer(int lingerMs, String role, Map<String, Object> defaults,
                                              Map<String, Object> forced) {
        defaults.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
        defaults.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, DEFAULT_TIMEOUT_MS);
        Map<String, Object> props = commonProps(role + "-publisher");
        defaults.forEach(props::putIfAbsent);
        props.putAll(forced);
        int requestTimeout = Integer.parseInt(props.get(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG).toString().trim());
        int linger = Integer.parseInt(props.get(ProducerConfig.LINGER_MS_CONFIG).toString().trim());
        props.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, requestTimeout + linger + DEFAULT_TIMEOUT_MS / 2);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try {
            return new KafkaProducer<>(props);
        } catch (KafkaException e) {
            throw new PubSubException("cannot create a Kafka producer for " + config.bootstrapServers() + ": " + e, e);
        }
    }
}

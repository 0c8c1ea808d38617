package dev.bullet.testing;

import dev.bullet.config.BulletSettings;
import dev.bullet.local.EmbeddedKafka;
import dev.bullet.local.LocalTopology;
import dev.bullet.pubsub.KafkaPubSub;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.record.JsonCodec;
import dev.bullet.config.SettingsTable;
import dev.bullet.pubsub.KafkaPubSubFactory;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

/**
 * A real local stack for integration tests: an embedded Kafka broker on free loopback ports and the topology in
 * LocalCluster, with a PubSub client on response partition 1 and a firehose producer. Every wait polls with a
 * deadline. Results are kept per query id; {@code "__final"} marks the one that came with COMPLETE.
 */
public final class TopologyHarness implements AutoCloseable {
    public static final Duration DEADLINE = Duration.ofSeconds(60);
    public static final int REPLY_PARTITION = 1;

    private final EmbeddedKafka kafka;
    private final BulletSettings settings;
    /** What runs the topology: Storm's local mode, or a multi-process cluster ({@link #startOn}). */
    private final AutoCloseable topology;
    private final Publisher queries;
    private final Subscriber results;
    private final KafkaProducer<byte[], byte[]> firehose;
    private final String topic;
    private final Map<String, List<Map<String, Object>>> received = new HashMap<>();

    private TopologyHarness(EmbeddedKafka kafka, BulletSettings settings, AutoCloseable topology) {
        this.kafka = kafka;
        this.settings = settings;
        this.topology = topology;
        this.topic = settings.getString(SettingsTable.DATASOURCE_KAFKA_TOPIC);
        KafkaPubSub pubSub = new KafkaPubSub(KafkaPubSubFactory.config(settings));
        this.results = pubSub.responseSubscriber(List.of(REPLY_PARTITION));
        this.queries = pubSub.requestPublisher();
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        this.firehose = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Starts broker and topology with these settings (response partitions ≥ 2 are forced) and waits until it answers. */
    public static TopologyHarness start(Path dir, Map<String, Object> overrides) {
        EmbeddedKafka kafka = EmbeddedKafka.onFreePorts(dir);
        kafka.start();
        Map<String, Object> all = new HashMap<>(overrides);
        all.putIfAbsent(SettingsTable.PUBSUB_KAFKA_RESPONSE_PARTITIONS, 2);
        LocalTopology topology = LocalTopology.start(kafka, BulletSettings.load(null, all));
        return startOn(kafka, topology.settings(), topology);
    }

    /**
     * The harness over a topology started elsewhere (e.g. on a multi-process Storm cluster) that reads the embedded
     * broker with these settings; waits until it answers. Closing the harness closes {@code topology}, then the broker.
     */
    public static TopologyHarness startOn(EmbeddedKafka kafka, BulletSettings settings, AutoCloseable topology) {
        TopologyHarness harness = new TopologyHarness(kafka, settings, topology);
        try {
            harness.awaitTopologyAnswers();
        } catch (RuntimeException | AssertionError e) {
            harness.close();
            throw e;
        }
        return harness;
    }

    public BulletSettings settings() {
        return settings;
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    public String firehoseTopic() {
        return topic;
    }

    private void awaitTopologyAnswers() {
        long deadline = System.nanoTime() + Duration.ofSeconds(240).toNanos(); // a cluster's workers start slowly
        while (System.nanoTime() < deadline) {
            String id = submit("{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":1000}");
            if (awaitFinal(id, Duration.ofSeconds(5)) != null) {
                return;
            }
        }
        throw new AssertionError("the topology never answered a query");
    }

    public String submit(String query) {
        return submit(query, REPLY_PARTITION);
    }

    /**
     * Sends a query whose results go to {@code replyPartition}; the harness itself reads (and keeps) only
     * {@link #REPLY_PARTITION}, so a client that reads many results on its own partition does not fill the heap here.
     */
    public String submit(String query, int replyPartition) {
        String id = UUID.randomUUID().toString();
        submit(id, query, replyPartition);
        return id;
    }

    /** Sends a query under an id the caller chose (and can look for before the send returns). */
    public void submit(String id, String query, int replyPartition) {
        queries.send(PubSubMessage.query(id, query, replyPartition));
    }

    public void kill(String id) {
        kill(id, REPLY_PARTITION);
    }

    public void kill(String id, int replyPartition) {
        queries.send(PubSubMessage.signal(id, Signal.KILL, replyPartition));
    }

    public void produce(String... records) {
        for (String r : records) {
            firehose.send(new ProducerRecord<>(topic, r.getBytes(StandardCharsets.UTF_8)));
        }
        firehose.flush();
    }

    /** Every result of the query once its final one arrived, in order; null at the deadline. */
    public List<Map<String, Object>> awaitFinal(String id, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            List<Map<String, Object>> mine = received.get(id);
            if (mine != null && !mine.isEmpty() && Boolean.TRUE.equals(mine.get(mine.size() - 1).get("__final"))) {
                return mine;
            }
            poll();
        }
        return null;
    }

    private void poll() {
        for (PubSubMessage m : results.receive(Duration.ofMillis(200))) {
            Map<String, Object> result = JsonCodec.parseMap(m.payload());
            result.put("__final", m.signal() == Signal.COMPLETE);
            received.computeIfAbsent(m.id(), k -> new ArrayList<>()).add(result);
        }
    }

    public boolean hasAnswered(String id) {
        poll();
        return received.containsKey(id);
    }

    /** Makes sure every query sent before now reached the Filter tasks: a probe sent after them finds a marker. */
    public void awaitQueriesRegistered() {
        String marker = "marker-" + UUID.randomUUID();
        String probe = submit("{\"filters\":[{\"field\":\"marker\",\"operation\":\"==\",\"values\":[\"" + marker
                              + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":60000}");
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            produce("{\"marker\":\"" + marker + "\"}");
            if (awaitFinal(probe, Duration.ofMillis(500)) != null) {
                return;
            }
        }
        throw new AssertionError("queries never reached the Filter tasks");
    }

    @Override
    public void close() {
        for (AutoCloseable c : new AutoCloseable[] {firehose, queries, results, topology, kafka}) {
            try {
                c.close();
            } catch (Exception ignored) {
                // best effort at teardown; the broker's directory goes with the test's temp dir
            }
        }
    }
}

package dev.bullet.rest;

import dev.bullet.common.Clock;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.local.EmbeddedKafka;
import dev.bullet.local.LocalTopology;
import dev.bullet.pubsub.KafkaPubSub;
import dev.bullet.pubsub.KafkaPubSubFactory;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.QueryStore;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.StoredQuery;
import dev.bullet.querying.TopologyRestart;
import dev.bullet.record.JsonCodec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Queries outlive their topology: an embedded Kafka broker, the topology in Storm's LocalCluster, the REST server on an
 * ephemeral port driven over real HTTP. A topology killed and submitted again under the same name takes up the running
 * queries from the query store, and the client still waiting on one gets its result; a REST instance that starts
 * kills the stored queries of its response partitions, and only those.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class QueryStoreIT {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final int BEFORE = 20;
    private static final int AFTER = 30;

    private EmbeddedKafka kafka;
    private BulletSettings settings;
    private LocalTopology topology;
    private QueryService service;
    private RestServer server;
    private KafkaProducer<byte[], byte[]> firehose;
    private QueryStore store;
    private String topic;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                                              .connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void start(@TempDir Path dir) {
        kafka = EmbeddedKafka.onFreePorts(dir);
        kafka.start();
        settings = BulletSettings.load(null, Map.of(
                SettingsTable.TOPOLOGY_NAME, "store-it",
                SettingsTable.REST_PORT, 0,
                SettingsTable.REST_RESPONSE_PARTITIONS, List.of("0", "1"),
                // records sent while no topology runs are read by the next one, whether or not the first committed
                SettingsTable.DATASOURCE_KAFKA_AUTO_OFFSET_RESET, "earliest"));
        topology = LocalTopology.start(kafka, settings);
        settings = topology.settings();
        topic = settings.getString(SettingsTable.DATASOURCE_KAFKA_TOPIC);
        store = new KafkaPubSub(KafkaPubSubFactory.config(settings))
                .queryStore(KafkaPubSubFactory.queryStoreTopic(settings), Clock.SYSTEM);
        service = QueryService.start(settings);
        server = RestServer.start(service);
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        firehose = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        awaitCondition(() -> get(RestServer.HEALTH).statusCode() == 200, Duration.ofSeconds(120),
                       "the topology never answered the health probe");
    }

    @AfterAll
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {firehose, store, service, server, topology, kafka}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort: the broker's temp dir goes with @TempDir
            }
        }
    }

    @Test
    @Order(1)
    void aRestInstanceThatStartsKillsTheStoredQueriesOfItsPartitionsOnly() throws Exception {
        // what a REST instance reading partition 2 sent before it died, and one of another instance (partition 3)
        String own = "own-" + UUID.randomUUID();
        String other = "other-" + UUID.randomUUID();
        String query = "{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":120000}";
        try (Publisher dead = new KafkaPubSub(KafkaPubSubFactory.config(settings)).requestPublisher()) {
            dead.send(PubSubMessage.query(own, query, 2));
            dead.send(PubSubMessage.query(other, query, 3));
            awaitCondition(() -> storedIds().containsAll(Set.of(own, other)), DEADLINE,
                           "the query spout never stored the queries");

            BulletSettings restarted = settings.withOverrides(Map.of(SettingsTable.REST_RESPONSE_PARTITIONS, List.of("2")));
            try (QueryService instance = QueryService.start(restarted)) {
                awaitCondition(() -> !storedIds().contains(own), DEADLINE,
                               "the restarted instance's query was never killed (its entry is still stored)");
                assertTrue(storedIds().contains(other), "another instance's query runs on");
                assertNotNull(instance);
            }
            dead.send(PubSubMessage.signal(other, Signal.KILL, 3));
        }
    }

    @Test
    @Order(2)
    void aTopologySubmittedAgainTakesUpTheRunningQueryAndItsWaitingClientGetsTheResult() throws Exception {
        String counted = UUID.randomUUID().toString();
        String query = "{\"filters\":[{\"field\":\"kind\",\"operation\":\"==\",\"values\":[\"" + counted + "\"]}],"
                       + "\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}},"
                       + "\"duration\":40000}";
        CompletableFuture<HttpResponse<String>> waiting = http.sendAsync(request(RestServer.HTTP_QUERY, query),
                                                                         BodyHandlers.ofString());
        awaitCondition(() -> storedQueries().stream().anyMatch(q -> q.query().equals(query)), DEADLINE,
                       "the query spout never stored the query");
        StoredQuery stored = storedQueries().stream().filter(q -> q.query().equals(query)).findFirst().orElseThrow();
        for (int i = 0; i < BEFORE; i++) {
            produce("{\"kind\":\"" + counted + "\",\"n\":" + i + "}");
        }

        topology.close(); // storm kill
        long resubmitted = System.currentTimeMillis();
        topology = LocalTopology.start(kafka, settings); // storm jar, the same name
        awaitNewQueriesAnswered();
        for (int i = 0; i < AFTER; i++) {
            produce("{\"kind\":\"" + counted + "\",\"n\":" + (BEFORE + i) + "}");
        }

        HttpResponse<String> r = waiting.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        assertEquals(200, r.statusCode(), r.body());
        Map<String, Object> result = JsonCodec.parseMap(r.body());
        long count = ((Number) records(result).get(0).get("COUNT")).longValue();
        assertTrue(count >= AFTER && count <= BEFORE + AFTER,
                   "counts every record sent after the resubmit, and none twice: " + count + " in " + r.body());
        @SuppressWarnings("unchecked")
        Map<String, Object> restarted = (Map<String, Object>) meta(result).get(TopologyRestart.META_KEY);
        assertNotNull(restarted, "meta says the topology restarted: " + r.body());
        assertTrue(((Number) restarted.get("at")).longValue() >= resubmitted, r.body());
        assertTrue(List.of(TopologyRestart.REASON, TopologyRestart.REASON_FROM_STATE).contains(restarted.get("reason")),
                   "the reason says whether the query went on from a saved state: " + r.body());
        assertEquals(stored.startTime(), ((Number) meta(result).get("query_receive_time")).longValue(),
                     "the query kept its original start");
        awaitCondition(() -> !storedIds().contains(stored.id()), DEADLINE,
                       "the query's entry was not ended after its final result");
    }

    private List<StoredQuery> storedQueries() {
        return store.load();
    }

    private Set<String> storedIds() {
        return storedQueries().stream().map(StoredQuery::id).collect(Collectors.toSet());
    }

    /** The new topology runs queries: a probe query sent through it finds a marker record. */
    private void awaitNewQueriesAnswered() throws Exception {
        String marker = UUID.randomUUID().toString();
        CompletableFuture<HttpResponse<String>> probe = http.sendAsync(request(RestServer.HTTP_QUERY,
                "{\"filters\":[{\"field\":\"marker\",\"operation\":\"==\",\"values\":[\"" + marker
                + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":60000}"), BodyHandlers.ofString());
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            produce("{\"marker\":\"" + marker + "\"}");
            try {
                assertEquals(200, probe.get(300, TimeUnit.MILLISECONDS).statusCode());
                return;
            } catch (TimeoutException e) {
                // not yet: send the marker again
            }
        }
        fail("the topology submitted again never answered a query");
    }

    private static void awaitCondition(BooleanSupplier condition, Duration timeout, String failure) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail(failure);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        }
    }

    private void produce(String record) {
        firehose.send(new ProducerRecord<>(topic, record.getBytes(StandardCharsets.UTF_8)));
        firehose.flush();
    }

    private HttpRequest request(String path, String body) {
        return HttpRequest.newBuilder(URI.create(server.url() + path)).header("Content-Type", "application/json")
                          .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private HttpResponse<String> get(String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(server.url() + path)).GET().build(),
                             BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError("request to " + server.url() + " failed: " + e, e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> meta(Map<String, Object> result) {
        return (Map<String, Object>) result.get("meta");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> records(Map<String, Object> result) {
        return (List<Map<String, Object>>) result.get("records");
    }
}

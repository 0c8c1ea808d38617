package dev.bullet.rest;

import dev.bullet.common.Clock;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.local.EmbeddedKafka;
import dev.bullet.local.LocalTopology;
import dev.bullet.pubsub.Deliveries;
import dev.bullet.pubsub.Deliveries.RetryPolicy;
import dev.bullet.pubsub.KafkaPubSub;
import dev.bullet.pubsub.KafkaPubSubConfig;
import dev.bullet.pubsub.KafkaPubSubFactory;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.PubSubMessage.Delivery;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.Signal;
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

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Results reach the REST client over real HTTP whatever their size, once each, and across a broker restart: an
 * embedded Kafka broker, the topology in Storm's LocalCluster and the REST server on an ephemeral port.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ResultDeliveryIT {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final int BLOB = 200_000;

    private EmbeddedKafka kafka;
    private LocalTopology topology;
    private QueryService service;
    private RestServer server;
    private KafkaProducer<byte[], byte[]> firehose;
    private String topic;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                                              .connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void start(@TempDir Path dir) {
        kafka = EmbeddedKafka.onFreePorts(dir);
        kafka.start();
        BulletSettings settings = BulletSettings.load(null, Map.of(
                SettingsTable.TOPOLOGY_NAME, "delivery-it",
                SettingsTable.REST_PORT, 0,
                SettingsTable.REST_RESPONSE_PARTITIONS, List.of("0", "1", "2", "3")));
        topology = LocalTopology.start(kafka, settings);
        topic = topology.settings().getString(SettingsTable.DATASOURCE_KAFKA_TOPIC);
        service = QueryService.start(topology.settings());
        server = RestServer.start(service);
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        firehose = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        awaitCondition(() -> get(RestServer.HEALTH).statusCode() == 200, Duration.ofSeconds(150),
                       "the topology never answered the health probe");
    }

    @AfterAll
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {firehose, service, server, topology, kafka}) {
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
    void aRawResultOfSeveralMebibytesReachesTheClientWhole() throws Exception {
        String wanted = UUID.randomUUID().toString();
        String query = "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"" + wanted
                       + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":30},\"duration\":60000}";
        CompletableFuture<HttpResponse<String>> pending = http.sendAsync(request(RestServer.HTTP_QUERY, query),
                                                                         BodyHandlers.ofString());
        awaitRegistered();
        String blob = "x".repeat(BLOB);
        for (int i = 0; i < 30; i++) {
            produce("{\"id\":\"" + wanted + "\",\"n\":" + i + ",\"blob\":\"" + blob + "\"}");
        }
        HttpResponse<String> r = pending.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        assertEquals(200, r.statusCode());
        assertTrue(r.body().length() > 30 * BLOB, "a result of " + r.body().length() + " characters, over 5 MiB");
        List<Map<String, Object>> records = records(JsonCodec.parseMap(r.body()));
        assertEquals(30, records.size());
        List<Long> seen = new ArrayList<>();
        for (Map<String, Object> record : records) {
            assertEquals(blob, record.get("blob"));
            seen.add(((Number) record.get("n")).longValue());
        }
        assertEquals(30, seen.stream().distinct().count(), "every record once: " + seen);
        assertNull(meta(JsonCodec.parseMap(r.body())).get("errors"), r.body().substring(0, 200));
    }

    @Test
    @Order(2)
    void aResultPublishedTwiceReachesTheSseClientOnce() throws Exception {
        HttpResponse<Stream<String>> r = http.send(request(RestServer.SSE_QUERY, idleQuery()), BodyHandlers.ofLines());
        assertEquals(200, r.statusCode());
        String id = r.headers().firstValue("Bullet-Query-Id").orElseThrow();
        CompletableFuture<List<Map<String, Object>>> events = CompletableFuture.supplyAsync(() -> events(r));
        // a small producer request size: the large result travels in 4 chunks (compressed, as an operator may ask)
        Map<String, String> small = Map.of(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, "2000",
                                           ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        String large = result(id, "large", "y".repeat(5_000));
        try (Publisher publisher = publisher(small)) {
            for (int copy = 0; copy < 2; copy++) {
                for (int partition = 0; partition < 4; partition++) {
                    sendAndWait(publisher, new PubSubMessage(id, result(id, "small", "s"), null, partition,
                                                             Delivery.whole("dup-small")));
                    sendAndWait(publisher, new PubSubMessage(id, large, null, partition, Delivery.whole("dup-large")));
                }
            }
            sendAndWait(publisher, new PubSubMessage(id, result(id, "final", "f"), Signal.COMPLETE, 0,
                                                     Delivery.whole("final")));
        }
        List<Map<String, Object>> received = events.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        List<Object> kinds = received.stream().map(e -> records(e).get(0).get("kind")).toList();
        assertEquals(List.of("small", "large", "final"), kinds, "each result once, the large one joined");
        assertEquals("y".repeat(5_000), records(received.get(1)).get(0).get("data"));
    }

    @Test
    @Order(3)
    void aResultSentWhileTheBrokerIsDownArrivesOnceItIsBack() throws Exception {
        HttpResponse<Stream<String>> r = http.send(request(RestServer.SSE_QUERY, idleQuery()), BodyHandlers.ofLines());
        assertEquals(200, r.statusCode());
        String id = r.headers().firstValue("Bullet-Query-Id").orElseThrow();
        CompletableFuture<List<Map<String, Object>>> events = CompletableFuture.supplyAsync(() -> events(r));
        Map<String, String> quick = Map.of(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "3000",
                                           ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "1000",
                                           ProducerConfig.MAX_BLOCK_MS_CONFIG, "2000");
        List<String> delivered = new ArrayList<>();
        List<String> undeliverable = new ArrayList<>();
        Deliveries.Handler<String> handler = new Deliveries.Handler<>() {
            @Override
            public void delivered(String token, PubSubMessage message) {
                delivered.add(token);
            }

            @Override
            public void undeliverable(String token, PubSubMessage message, Exception failure, int attempts) {
                undeliverable.add(token + ": " + failure);
            }
        };
        try (Deliveries<String> deliveries = new Deliveries<>(publisher(quick), new RetryPolicy(30, 500, 2_000),
                                                              Clock.SYSTEM)) {
            kafka.stop();
            try {
                deliveries.send("after-restart", new PubSubMessage(id, result(id, "after-restart", "r"),
                                                                   Signal.COMPLETE, 0, Delivery.whole("restart")));
                awaitCondition(() -> {
                    deliveries.poll(handler);
                    return deliveries.waiting() > 0;
                }, DEADLINE, "the send never failed while the broker was down");
                assertEquals(List.of(), delivered);
            } finally {
                kafka.start();
            }
            awaitCondition(() -> {
                deliveries.poll(handler);
                return !delivered.isEmpty() || !undeliverable.isEmpty();
            }, Duration.ofSeconds(90), "the result was neither delivered nor given up");
            assertEquals(List.of("after-restart"), delivered, "given up: " + undeliverable);
        }
        List<Map<String, Object>> received = events.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        assertEquals(1, received.size(), received.toString());
        assertEquals("after-restart", records(received.get(0)).get(0).get("kind"));
    }

    @Test
    @Order(4)
    void aStreamWhoseClientStopsReadingIsClosedAndItsQueryKilledWhileAnotherStreamGoesOn() throws Exception {
        try (Socket slow = new Socket()) {
            slow.setReceiveBufferSize(4096); // before connecting: the window the server sees stays small
            slow.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
            slow.setSoTimeout((int) DEADLINE.toMillis());
            RawHttp.post(slow.getOutputStream(), server.port(), RestServer.SSE_QUERY,
                         idleQuery().getBytes(StandardCharsets.UTF_8));
            RawHttp.Answer head = RawHttp.head(slow.getInputStream());
            assertEquals(200, head.status(), head.toString());
            String slowId = head.header("Bullet-Query-Id");
            assertNotNull(slowId, head.toString());

            HttpResponse<Stream<String>> r = http.send(request(RestServer.SSE_QUERY, idleQuery()),
                                                       BodyHandlers.ofLines());
            assertEquals(200, r.statusCode());
            String fastId = r.headers().firstValue("Bullet-Query-Id").orElseThrow();
            CompletableFuture<List<Map<String, Object>>> fastEvents = CompletableFuture.supplyAsync(() -> events(r));

            // the slow client reads nothing more: 256 KiB results pile up until the stream's bound (16 Mi
            // characters unwritten, beyond what the sockets hold) closes it and kills its query
            String large = "z".repeat(256 << 10);
            int sent = 0;
            try (Publisher publisher = publisher(Map.of())) {
                while (service.running().stream().anyMatch(q -> q.id().equals(slowId))) {
                    assertTrue(sent < 400, "the stream of a client that stopped reading was still open after " + sent
                                           + " results of 256 KiB");
                    sendAndWait(publisher, new PubSubMessage(slowId, result(slowId, "slow", large), null, 0,
                                                             Delivery.whole("slow-" + sent)));
                    sendAndWait(publisher, new PubSubMessage(fastId, result(fastId, "fast-" + sent, "f"), null, 0,
                                                             Delivery.whole("fast-" + sent)));
                    sent++;
                }
                assertTrue(sent > 40, "closed after " + sent + " results, before 16 Mi characters were unwritten");
                sendAndWait(publisher, new PubSubMessage(fastId, result(fastId, "final", "f"), Signal.COMPLETE, 0,
                                                         Delivery.whole("fast-final")));
            }
            List<Map<String, Object>> received = fastEvents.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            assertEquals(sent + 1, received.size(), "every result reached the client that reads");
            assertEquals("final", records(received.get(sent)).get(0).get("kind"));
            assertEquals(200, get(RestServer.HEALTH).statusCode());
            assertTrue(closedAfterDraining(slow.getInputStream()), "the slow client's stream was never closed");
        }
    }

    // ---- helpers ----

    /** Reads what the server wrote before it closed: true at the end of the stream or a reset, false on a timeout. */
    private static boolean closedAfterDraining(InputStream in) throws IOException {
        byte[] buffer = new byte[1 << 16];
        try {
            while (in.read(buffer) >= 0) {
                // what the server had written before it closed the stream
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true; // reset: the server closed with unread data on its side
        }
    }

    /** A query that matches nothing for two minutes: only the results this test publishes reach its client. */
    private static String idleQuery() {
        return "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"" + UUID.randomUUID()
               + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":120000}";
    }

    private static String result(String id, String kind, String data) {
        return JsonCodec.toJson(Map.of("records", List.of(Map.of("kind", kind, "data", data)),
                                       "meta", Map.of("query_id", id)));
    }

    private Publisher publisher(Map<String, String> props) {
        KafkaPubSubConfig base = KafkaPubSubFactory.config(topology.settings());
        Map<String, String> extra = new HashMap<>(base.extraClientProps());
        extra.putAll(props);
        return new KafkaPubSub(new KafkaPubSubConfig(base.bootstrapServers(), base.requestTopic(), base.responseTopic(),
                                                     base.responsePartitions(), extra))
            .responsePublisher(KafkaPubSubFactory.maxResultBytes(topology.settings()));
    }

    private static void sendAndWait(Publisher publisher, PubSubMessage message) throws Exception {
        CompletableFuture<Exception> done = new CompletableFuture<>();
        publisher.send(message, done::complete);
        Exception failure = done.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        if (failure != null) {
            throw new AssertionError("could not publish " + message.delivery(), failure);
        }
    }

    /** The events of an SSE stream until it closes. */
    private static List<Map<String, Object>> events(HttpResponse<Stream<String>> r) {
        List<Map<String, Object>> events = new ArrayList<>();
        try (Stream<String> lines = r.body()) {
            lines.filter(line -> line.startsWith("data:"))
                 .forEach(line -> events.add(JsonCodec.parseMap(line.substring("data:".length()))));
        }
        return events;
    }

    /** Every query sent so far reached the Filter tasks: a probe sent after them finds a marker record. */
    private void awaitRegistered() throws Exception {
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
        fail("queries never reached the Filter tasks");
    }

    private static void awaitCondition(BooleanSupplier condition, Duration timeout, String failure) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail(failure);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
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
        } catch (IOException e) {
            throw new AssertionError("request to " + server.url() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
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

package dev.bullet.storm;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.local.EmbeddedKafka;
import dev.bullet.pubsub.KafkaPubSubFactory;
import dev.bullet.pubsub.PubSubFactory;
import dev.bullet.record.JsonCodec;
import dev.bullet.rest.QueryService;
import dev.bullet.rest.RestServer;
import dev.bullet.storm.TopologyNames.Fields;
import dev.bullet.storm.TopologyNames.Streams;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Results survive a Result bolt that loses them, as one whose worker dies with results queued or not yet confirmed
 * by Kafka: the Result bolt here drops, unsent and unconfirmed, the first window results and the final result of the
 * test's query. An embedded Kafka broker, the topology in Storm's LocalCluster and the REST server on an ephemeral
 * port, driven by a real HTTP client over SSE: every window reaches it once, and the final result closes the stream.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ResultLossIT {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    /** In the records of the test's query, so in its results; no other query's results carry it. */
    private static final String MARKER = "lost-" + UUID.randomUUID();
    private static final int WINDOWS_LOST = 2;
    /** Results the Result bolt lost (one JVM: the LocalCluster's bolts and this test share it). */
    private static final AtomicInteger LOST = new AtomicInteger();

    /** Loses, as a dying worker would, the first window results and the first final result carrying the marker. */
    static final class LosingResultBolt extends ResultBolt {
        private static final long serialVersionUID = 1L;
        private int windowsToLose = WINDOWS_LOST;
        private int finalsToLose = 1;

        LosingResultBolt(PubSubFactory pubSub) {
            super(pubSub);
        }

        @Override
        public void execute(Tuple tuple) {
            if (Streams.RESULT.equals(tuple.getSourceStreamId()) && tuple.getStringByField(Fields.RESULT).contains(MARKER)
                && (tuple.getBooleanByField(Fields.FINAL) ? finalsToLose-- > 0 : windowsToLose-- > 0)) {
                LOST.incrementAndGet();
                return; // neither sent nor confirmed: gone with the worker
            }
            super.execute(tuple);
        }
    }

    private EmbeddedKafka kafka;
    private LocalClusterRunner cluster;
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
                SettingsTable.TOPOLOGY_NAME, "result-loss-it",
                SettingsTable.REST_PORT, 0,
                SettingsTable.DATASOURCE_KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers(),
                SettingsTable.PUBSUB_KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers()));
        topic = settings.getString(SettingsTable.DATASOURCE_KAFKA_TOPIC);
        kafka.createTopics(Map.of(topic, 1,
                                  settings.getString(SettingsTable.PUBSUB_KAFKA_REQUEST_TOPIC_NAME),
                                  settings.getInt(SettingsTable.PUBSUB_KAFKA_REQUEST_PARTITIONS),
                                  settings.getString(SettingsTable.PUBSUB_KAFKA_RESPONSE_TOPIC_NAME),
                                  settings.getInt(SettingsTable.PUBSUB_KAFKA_RESPONSE_PARTITIONS)));
        KafkaPubSubFactory pubSub = new KafkaPubSubFactory(settings);
        cluster = LocalClusterRunner.start(settings, BulletTopology.build(settings, pubSub, new LosingResultBolt(pubSub)));
        service = QueryService.start(settings);
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
        for (AutoCloseable c : new AutoCloseable[] {firehose, server, service, cluster, kafka}) {
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
    @SuppressWarnings("unchecked")
    void windowsAndTheFinalResultLostByTheResultBoltReachTheSseClientOnceEach() throws Exception {
        String query = "{\"filters\":[{\"field\":\"tag\",\"operation\":\"==\",\"values\":[\"" + MARKER + "\"]}],"
                       + "\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"tag\":\"tag\"},\"attributes\":"
                       + "{\"operations\":[{\"type\":\"COUNT\"}]}},\"window\":{\"emit\":{\"type\":\"TIME\",\"every\":1000}},"
                       + "\"duration\":12000}";
        HttpResponse<Stream<String>> r = http.send(request(RestServer.SSE_QUERY, query), BodyHandlers.ofLines());
        assertEquals(200, r.statusCode());
        CompletableFuture<List<Map<String, Object>>> events = CompletableFuture.supplyAsync(() -> events(r));
        awaitRegistered();
        int records = 0;
        long until = System.nanoTime() + Duration.ofSeconds(6).toNanos();
        while (System.nanoTime() < until && records < 100) { // paced: records in many windows, well before the end
            produce("{\"tag\":\"" + MARKER + "\",\"n\":" + records++ + "}");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }

        List<Map<String, Object>> received = events.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        assertEquals(WINDOWS_LOST + 1, LOST.get(), "the Result bolt lost two windows and the final result");
        List<Long> numbers = new ArrayList<>();
        long counted = 0;
        for (Map<String, Object> event : received) {
            Map<String, Object> meta = (Map<String, Object>) event.get("meta");
            numbers.add(((Number) ((Map<String, Object>) meta.get("window")).get("number")).longValue());
            for (Map<String, Object> row : (List<Map<String, Object>>) event.get("records")) {
                counted += ((Number) row.get("COUNT")).longValue();
            }
        }
        assertEquals(LongStream.rangeClosed(1, received.size()).boxed().toList(), numbers.stream().sorted().toList(),
                     "every window once: " + numbers);
        assertEquals((long) numbers.size(), numbers.get(numbers.size() - 1), "the final result (the last window) closes it");
        assertEquals(records, counted, "the windows together count every record once");
    }

    // ---- helpers ----

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
                "{\"filters\":[{\"field\":\"probe\",\"operation\":\"==\",\"values\":[\"" + marker
                + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":60000}"), BodyHandlers.ofString());
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            produce("{\"probe\":\"" + marker + "\"}");
            try {
                assertEquals(200, probe.get(300, TimeUnit.MILLISECONDS).statusCode());
                return;
            } catch (TimeoutException e) {
                // not yet: send the probe's record again
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
}

package dev.bullet.rest;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.local.EmbeddedKafka;
import dev.bullet.local.LocalTopology;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code GET /api/bullet/schema} for real: an embedded Kafka broker, the topology in LocalCluster, the REST server on
 * an ephemeral port. A feed sends records with known fields (200 records/s, bounded); the schema inferred from the
 * service's internal sampling query must show their types, presence, nested maps and lists and a field that changes
 * type, pick up a field new to the stream, never list the sampling query, and warn about unknown fields. A second
 * service reads a schema file instead.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SchemaIT {
    private static final Duration DEADLINE = Duration.ofSeconds(90);
    /** The feed stops by itself after this many batches (3 minutes at 10 per second). */
    private static final int MAX_BATCHES = 1_800;

    private EmbeddedKafka kafka;
    private LocalTopology topology;
    private QueryService service;
    private RestServer server;
    private QueryService fileService;
    private RestServer fileServer;
    private KafkaProducer<byte[], byte[]> firehose;
    private ScheduledExecutorService feed;
    private final AtomicBoolean withNewField = new AtomicBoolean();
    private final AtomicLong sent = new AtomicLong();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                                              .connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void start(@TempDir Path dir) {
        kafka = EmbeddedKafka.onFreePorts(dir);
        kafka.start();
        BulletSettings settings = BulletSettings.load(null, Map.of(
                SettingsTable.TOPOLOGY_NAME, "schema-it",
                SettingsTable.REST_PORT, 0,
                SettingsTable.SCHEMA_SAMPLE_INTERVAL_MS, 1_000,
                SettingsTable.SCHEMA_SAMPLE_SIZE, 50,
                SettingsTable.SCHEMA_SAMPLE_DURATION_MS, 1_000,
                SettingsTable.SCHEMA_SAMPLE_HISTORY, 20));
        topology = LocalTopology.start(kafka, settings);
        String topic = topology.settings().getString(SettingsTable.DATASOURCE_KAFKA_TOPIC);
        service = QueryService.start(topology.settings());
        server = RestServer.start(service);
        fileService = QueryService.start(topology.settings().withOverrides(Map.of(
                SettingsTable.SCHEMA_FILE, "schema/sample_schema.json",
                // reads the same response partitions: it must not kill the other's queries as its own at start
                SettingsTable.TOPOLOGY_QUERY_STORE_ENABLE, false)));
        fileServer = RestServer.start(fileService);
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        firehose = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        feed = Executors.newSingleThreadScheduledExecutor();
        AtomicLong batches = new AtomicLong();
        feed.scheduleAtFixedRate(() -> {
            if (batches.incrementAndGet() > MAX_BATCHES) {
                return;
            }
            for (int i = 0; i < 20; i++) {
                long n = sent.incrementAndGet();
                firehose.send(new ProducerRecord<>(topic, record(n).getBytes(StandardCharsets.UTF_8)));
            }
        }, 0, 100, TimeUnit.MILLISECONDS);
    }

    /**
     * Every record: id (string), n (long), attrs (map of strings, key "b" in every other record), events (list of maps),
     * tags (list of strings), v (a long in 3 records of 4, else a string); d (double) in one record of 4; with the new
     * field on, fresh (boolean) in one of 10.
     */
    private String record(long n) {
        StringBuilder r = new StringBuilder("{\"id\":\"r").append(n).append("\",\"n\":").append(n)
                .append(",\"attrs\":{\"a\":\"x\"").append(n % 2 == 0 ? ",\"b\":\"y\"" : "").append('}')
                .append(",\"events\":[{\"k\":\"p\",\"t\":").append(n).append("}],\"tags\":[\"t1\",\"t2\"]")
                .append(",\"v\":").append(n % 4 == 0 ? "\"text\"" : String.valueOf(n));
        if (n % 4 == 1) {
            r.append(",\"d\":").append(n).append(".5");
        }
        if (withNewField.get() && n % 10 == 0) {
            r.append(",\"fresh\":true");
        }
        return r.append('}').toString();
    }

    @AfterAll
    void stop() throws InterruptedException {
        if (feed != null) {
            feed.shutdownNow();
            feed.awaitTermination(5, TimeUnit.SECONDS);
        }
        for (AutoCloseable c : new AutoCloseable[] {firehose, fileService, fileServer, service, server, topology, kafka}) {
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
    void theInferredSchemaShowsTypesPresenceAndNestedFieldsAndNeverListsTheSamplingQuery() {
        JsonObject schema = awaitSchema(s -> field(s, "d") != null && field(s, "v") != null
                                             && s.get("records_sampled").getAsLong() >= 200, "the known fields");
        assertEquals("sample", schema.get("source").getAsString());
        assertTrue(schema.get("ready").getAsBoolean());
        JsonObject id = field(schema, "id");
        assertEquals("STRING", id.get("type").getAsString());
        assertEquals(1.0, id.get("presence").getAsDouble());
        assertEquals("LONG", field(schema, "n").get("type").getAsString());
        double d = field(schema, "d").get("presence").getAsDouble();
        assertTrue(d > 0.1 && d < 0.4, "d is in a quarter of the records: " + d);
        assertEquals("DOUBLE", field(schema, "d").get("type").getAsString());
        JsonObject v = field(schema, "v");
        assertEquals("LONG", v.get("type").getAsString());
        JsonObject types = v.getAsJsonObject("types");
        assertTrue(types.has("LONG") && types.has("STRING"), "v changes type: " + v);
        assertTrue(types.get("STRING").getAsDouble() > 0.1 && types.get("STRING").getAsDouble() < 0.4, v.toString());
        JsonObject attrs = field(schema, "attrs");
        assertEquals("MAP", attrs.get("type").getAsString());
        assertEquals("STRING", attrs.get("subtype").getAsString());
        assertEquals(1.0, sub(attrs, "a").get("presence").getAsDouble());
        double b = sub(attrs, "b").get("presence").getAsDouble();
        assertTrue(b > 0.3 && b < 0.7, "b is in every other map: " + b);
        JsonObject events = field(schema, "events");
        assertEquals("LIST", events.get("type").getAsString());
        assertEquals("MAP", events.get("subtype").getAsString());
        assertEquals("LONG", sub(events, "t").get("type").getAsString());
        assertEquals("STRING", field(schema, "tags").get("subtype").getAsString());
        assertEquals("[]", get(server, RestServer.QUERIES).body().replaceAll("\\s", ""),
                     "the sampling query is not a client's");
        assertEquals(0, service.runningCount(), "nor does it take a slot of the concurrent-query limit");
    }

    @Test
    void aFieldNewToTheStreamAppearsWithinTwoMinutes() {
        awaitSchema(s -> field(s, "id") != null, "a first schema");
        assertFalse(field(schema(), "fresh") != null);
        withNewField.set(true);
        JsonObject schema = awaitSchema(s -> field(s, "fresh") != null, "the new field");
        assertEquals("BOOLEAN", field(schema, "fresh").get("type").getAsString());
    }

    @Test
    void unknownFieldsAndImpossibleTypesAreWarningsThatRefuseNothing() throws Exception {
        awaitSchema(s -> field(s, "attrs") != null, "a first schema");
        HttpResponse<String> valid = post(server, RestServer.VALIDATE_QUERY,
                                          "SELECT * FROM STREAM(1000, TIME) WHERE colour = 'red' AND attrs = 'x' LIMIT 1");
        assertEquals(200, valid.statusCode(), valid.body());
        JsonObject body = JsonParser.parseString(valid.body()).getAsJsonObject();
        String warnings = body.getAsJsonArray("warnings").toString();
        assertTrue(warnings.contains("The field colour (in the filters) was not seen"), warnings);
        assertTrue(warnings.contains("attrs = cannot match") || warnings.contains("attrs == cannot match"), warnings);
        HttpResponse<String> result = post(server, RestServer.HTTP_QUERY,
                                           "{\"filters\":[{\"field\":\"colour\",\"operation\":\"==\",\"values\":[\"red\"]}],"
                                           + "\"duration\":1000}");
        assertEquals(200, result.statusCode(), result.body());
        JsonObject meta = JsonParser.parseString(result.body()).getAsJsonObject().getAsJsonObject("meta");
        assertTrue(meta.getAsJsonArray("warnings").toString().contains("colour"), meta.toString());
        assertNotNull(meta.get("query_id"), "the topology's metadata is kept");
    }

    @Test
    void aSchemaFileIsServedAsItsFieldsWithTheirDescriptions() {
        JsonObject schema = JsonParser.parseString(get(fileServer, RestServer.SCHEMA).body()).getAsJsonObject();
        assertEquals("file", schema.get("source").getAsString());
        assertEquals(List.of("id", "l_0", "tags"), schema.getAsJsonArray("fields").asList().stream()
                .map(f -> f.getAsJsonObject().get("name").getAsString()).toList());
        JsonObject tags = field(schema, "tags");
        assertEquals("MAP", tags.get("type").getAsString());
        assertEquals("Where it ran", sub(tags, "env").get("description").getAsString());
        assertEquals("Where it ran", tags.getAsJsonArray("enumerations").get(0).getAsJsonObject()
                                         .get("description").getAsString());
        HttpResponse<String> wrong = post(fileServer, RestServer.SCHEMA, "{}");
        assertEquals(405, wrong.statusCode());
    }

    // ---- helpers ----

    private JsonObject schema() {
        HttpResponse<String> r = get(server, RestServer.SCHEMA);
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        return JsonParser.parseString(r.body()).getAsJsonObject();
    }

    private JsonObject awaitSchema(Predicate<JsonObject> condition, String what) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        JsonObject last = null;
        while (System.nanoTime() < deadline) {
            last = schema();
            assertEquals("[]", get(server, RestServer.QUERIES).body().replaceAll("\\s", ""));
            if (condition.test(last)) {
                return last;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(250));
        }
        fail("the schema never showed " + what + " within " + DEADLINE + ": " + last);
        return last;
    }

    private static JsonObject field(JsonObject schema, String name) {
        return named(schema.getAsJsonArray("fields"), name);
    }

    private static JsonObject sub(JsonObject field, String name) {
        return named(field.getAsJsonArray("fields"), name);
    }

    private static JsonObject named(JsonArray fields, String name) {
        if (fields == null) {
            return null;
        }
        for (JsonElement f : fields) {
            if (name.equals(f.getAsJsonObject().get("name").getAsString())) {
                return f.getAsJsonObject();
            }
        }
        return null;
    }

    private HttpResponse<String> get(RestServer via, String path) {
        return send(HttpRequest.newBuilder(URI.create(via.url() + path)).GET().build());
    }

    private HttpResponse<String> post(RestServer via, String path, String body) {
        return send(HttpRequest.newBuilder(URI.create(via.url() + path)).timeout(Duration.ofSeconds(30))
                               .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("the REST service did not answer " + request.uri(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}

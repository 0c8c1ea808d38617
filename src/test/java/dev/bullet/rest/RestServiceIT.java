package dev.bullet.rest;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.local.EmbeddedKafka;
import dev.bullet.local.LocalTopology;
import dev.bullet.pubsub.KafkaPubSub;
import dev.bullet.pubsub.KafkaPubSubFactory;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.record.JsonCodec;
import dev.bullet.testing.Fuzz;
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
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The REST service for real: an embedded Kafka broker, the topology in Storm's LocalCluster, and REST servers on
 * ephemeral ports driven with {@link HttpClient}. Two REST instances share the topology (response partitions [0, 1]
 * and [2, 3]; the second one allows 2 queries at once).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RestServiceIT {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String WINDOWED = "{\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":"
                                           + "[{\"type\":\"COUNT\"}]}},\"window\":{\"emit\":{\"type\":\"TIME\",\"every\":1000}},"
                                           + "\"duration\":3500}";

    private EmbeddedKafka kafka;
    private LocalTopology topology;
    private QueryService service;
    private RestServer server;
    private QueryService secondService;
    private RestServer second;
    private KafkaProducer<byte[], byte[]> firehose;
    private String topic;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                                              .connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void start(@TempDir Path dir) {
        kafka = EmbeddedKafka.onFreePorts(dir);
        kafka.start();
        BulletSettings settings = BulletSettings.load(null, Map.of(
                SettingsTable.TOPOLOGY_NAME, "rest-it",
                SettingsTable.QUERY_WINDOW_MIN_EMIT_EVERY, 1000,
                SettingsTable.REST_PORT, 0,
                SettingsTable.REST_RESPONSE_PARTITIONS, List.of("0", "1"),
                SettingsTable.REST_SSE_KEEPALIVE_MS, 200));
        topology = LocalTopology.start(kafka, settings);
        topic = topology.settings().getString(SettingsTable.DATASOURCE_KAFKA_TOPIC);
        service = QueryService.start(topology.settings());
        server = RestServer.start(service);
        secondService = QueryService.start(topology.settings().withOverrides(Map.of(
                SettingsTable.REST_RESPONSE_PARTITIONS, List.of("2", "3"),
                SettingsTable.REST_MAX_CONCURRENT_QUERIES, 2)));
        second = RestServer.start(secondService);
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        firehose = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        awaitCondition(() -> get(server, RestServer.HEALTH).statusCode() == 200, Duration.ofSeconds(150),
                       "the topology never answered the health probe");
        awaitCondition(() -> get(second, RestServer.HEALTH).statusCode() == 200, DEADLINE,
                       "the second REST instance never saw the topology");
    }

    @AfterAll
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {firehose, secondService, second, service, server, topology, kafka}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort: the broker's temp dir goes with @TempDir
            }
        }
    }

    // ---- endpoints ----

    @Test
    void healthIsUpWhenKafkaAndTheTopologyAnswer() {
        HttpResponse<String> r = get(server, RestServer.HEALTH);
        assertEquals(200, r.statusCode());
        assertEquals("application/json", r.headers().firstValue("Content-Type").orElse(""));
        assertEquals("UP", json(r).get("status"));
    }

    @Test
    void httpQueryWaitsForTheFinalResultWithTheRecordsFound() throws Exception {
        String wanted = fresh();
        String query = "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"" + wanted
                       + "\"]}],\"aggregation\":{\"type\":\"LIMIT\",\"size\":2},\"duration\":60000}";
        CompletableFuture<HttpResponse<String>> pending = postAsync(server, RestServer.HTTP_QUERY, query);
        awaitListedMentioning(server, wanted, 1);
        awaitRegistered(server);
        produce("{\"id\":\"" + wanted + "\",\"n\":1}", "{\"id\":\"other\"}", "{\"id\":\"" + wanted + "\",\"n\":2}");
        HttpResponse<String> r = pending.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        assertEquals(200, r.statusCode(), r.body());
        Map<String, Object> result = json(r);
        assertEquals(2, records(result).size(), r.body());
        assertTrue(records(result).stream().allMatch(record -> wanted.equals(record.get("id"))));
        assertEquals(r.headers().firstValue("Bullet-Query-Id").orElse("none"), meta(result).get("query_id"));
    }

    @Test
    void runningQueriesAreListedAndDeleteKillsOne() throws Exception {
        String query = "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"" + fresh()
                       + "\"]}],\"duration\":60000}";
        CompletableFuture<HttpResponse<String>> pending = postAsync(server, RestServer.HTTP_QUERY, query);
        Map<String, Object> entry = awaitListed(server, query);
        String id = (String) entry.get("id");
        assertEquals(JsonCodec.parse(query), entry.get("query"));
        assertTrue(entry.get("start_time") instanceof Long);

        HttpResponse<String> deleted = send(server, HttpRequest.newBuilder(uri(server, RestServer.QUERIES + "/" + id))
                .DELETE().build());
        assertEquals(204, deleted.statusCode(), deleted.body());
        HttpResponse<String> waiting = pending.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        assertEquals(409, waiting.statusCode(), "the waiting client learns its query was killed");
        assertTrue(errorMessages(waiting).get(0).contains("killed"), waiting.body());
        assertTrue(listed(server).stream().noneMatch(q -> id.equals(q.get("id"))));

        HttpResponse<String> again = send(server, HttpRequest.newBuilder(uri(server, RestServer.QUERIES + "/" + id))
                .DELETE().build());
        assertEquals(404, again.statusCode());
        assertEquals(List.of(), json(again).get("records"));
    }

    @Test
    void validateQueryAnswersValidAndRunsNothing() {
        HttpResponse<String> r = post(server, RestServer.VALIDATE_QUERY,
                                      "{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":987654}");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(true, json(r).get("valid"));
        assertEquals(JsonCodec.parse("{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":987654}"),
                     json(r).get("query"), "the query's JSON form");
        assertTrue(listed(server).stream().noneMatch(q -> String.valueOf(q.get("query")).contains("987654")));
    }

    @Test
    void plainTextAndFormBodiesAreReadAsTheQuery() {
        for (String type : List.of("text/plain", "application/x-www-form-urlencoded")) {
            HttpResponse<String> r = send(server, HttpRequest.newBuilder(uri(server, RestServer.VALIDATE_QUERY))
                    .header("Content-Type", type).POST(HttpRequest.BodyPublishers.ofString("{}")).build());
            assertEquals(200, r.statusCode(), type + ": " + r.body());
        }
    }

    @Test
    void bqlAsPlainTextRunsAndResultsEchoTheBql() throws Exception {
        String wanted = fresh();
        String bql = "SELECT id, n AS number FROM STREAM(60000, TIME) WHERE id = '" + wanted + "' LIMIT 1";
        HttpRequest request = HttpRequest.newBuilder(uri(server, RestServer.HTTP_QUERY)).header("Content-Type", "text/plain")
                                         .POST(HttpRequest.BodyPublishers.ofString(bql)).build();
        CompletableFuture<HttpResponse<String>> pending = http.sendAsync(request, BodyHandlers.ofString());
        awaitListedMentioning(server, wanted, 1);
        awaitRegistered(server);
        produce("{\"id\":\"other\",\"n\":1}", "{\"id\":\"" + wanted + "\",\"n\":2,\"x\":3}");
        HttpResponse<String> r = pending.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        assertEquals(200, r.statusCode(), r.body());
        Map<String, Object> result = json(r);
        assertEquals(List.of(Map.of("id", wanted, "number", 2L)), records(result));
        assertEquals(bql, meta(result).get("query"), "meta.query is the BQL as submitted");
    }

    @Test
    void bqlInAQueryMemberValidatesToItsJsonFormAndBadBqlIs400WithAPosition() {
        HttpResponse<String> r = post(server, RestServer.VALIDATE_QUERY, "{\"query\": \"SELECT COUNT(*) FROM STREAM(5000, TIME)\"}");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(true, json(r).get("valid"));
        assertEquals(JsonCodec.parse("{\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":"
                                      + "[{\"type\":\"COUNT\",\"newName\":\"COUNT(*)\"}]}},\"duration\":5000}"),
                     json(r).get("query"));
        HttpResponse<String> bad = send(server, HttpRequest.newBuilder(uri(server, RestServer.VALIDATE_QUERY))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString("SELECT * FROM STREAM() WHER")).build());
        assertEquals(400, bad.statusCode(), bad.body());
        assertTrue(errorMessages(bad).get(0).contains("line 1, column 24"), bad.body());
    }

    @Test
    void sseQueryStreamsOneEventPerWindowThenCloses() throws Exception {
        HttpResponse<Stream<String>> r = http.send(request(server, RestServer.SSE_QUERY, WINDOWED), BodyHandlers.ofLines());
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
        List<Long> arrivals = new ArrayList<>();
        List<Map<String, Object>> events = new ArrayList<>();
        try (Stream<String> lines = r.body()) {
            lines.filter(line -> line.startsWith("data:")).forEach(line -> {
                arrivals.add(System.nanoTime());
                events.add(JsonCodec.parseMap(line.substring("data:".length())));
            });
        }
        assertEquals(4, events.size(), "three windows and the final result, then the stream closes: " + events);
        for (int i = 0; i < 3; i++) {
            Map<?, ?> window = (Map<?, ?>) meta(events.get(i)).get("window");
            assertEquals((long) (i + 1), window.get("number"));
        }
        assertTrue(arrivals.get(3) - arrivals.get(0) > TimeUnit.MILLISECONDS.toNanos(1500),
                   "the windows arrive as they close, not all at the end");
        assertTrue(meta(events.get(3)).containsKey("query_finish_time"));
    }

    @Test
    void sseClientThatDisconnectsHasItsQueryKilledInTheTopology() throws Exception {
        String wanted = fresh();
        String query = "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"" + wanted
                       + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":60000}";
        List<Integer> all = List.of(0, 1, 2, 3);
        try (Subscriber responses = new KafkaPubSub(KafkaPubSubFactory.config(topology.settings())).responseSubscriber(all)) {
            HttpResponse<Stream<String>> r = http.send(request(server, RestServer.SSE_QUERY, query), BodyHandlers.ofLines());
            assertEquals(200, r.statusCode());
            String id = r.headers().firstValue("Bullet-Query-Id").orElseThrow();
            awaitListed(server, query);
            awaitRegistered(server);

            r.body().close();
            awaitCondition(() -> listed(server).stream().noneMatch(q -> id.equals(q.get("id"))), Duration.ofSeconds(20),
                           "the query of the client that went away is still listed");

            // A later query for the same record finds it; the killed one, dropped by every Filter task, does not.
            CompletableFuture<HttpResponse<String>> later = postAsync(server, RestServer.HTTP_QUERY, query);
            awaitRegistered(server);
            produce("{\"id\":\"" + wanted + "\"}");
            HttpResponse<String> found = later.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            assertEquals(1, records(json(found)).size(), found.body());
            String laterId = found.headers().firstValue("Bullet-Query-Id").orElseThrow();
            List<String> seen = new ArrayList<>();
            awaitCondition(() -> {
                responses.receive(Duration.ofMillis(200)).forEach(m -> seen.add(m.id()));
                return seen.contains(laterId);
            }, DEADLINE, "the later query's result never reached the response topic");
            long drainUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            while (System.nanoTime() < drainUntil) {
                responses.receive(Duration.ofMillis(200)).stream().map(PubSubMessage::id).forEach(seen::add);
            }
            assertFalse(seen.contains(id), "the killed query must not produce a result");
        }
    }

    @Test
    void twoRestInstancesShareTheTopologyAndEachGetsItsOwnResults() throws Exception {
        String wanted = fresh();
        String query = "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"" + wanted
                       + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":60000}";
        CompletableFuture<HttpResponse<String>> one = postAsync(server, RestServer.HTTP_QUERY, query);
        CompletableFuture<HttpResponse<String>> two = postAsync(second, RestServer.HTTP_QUERY, query);
        awaitListed(second, query);
        awaitRegistered(server);
        produce("{\"id\":\"" + wanted + "\"}");
        HttpResponse<String> a = one.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        HttpResponse<String> b = two.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        assertEquals(200, a.statusCode(), a.body());
        assertEquals(200, b.statusCode(), b.body());
        assertEquals(1, records(json(a)).size());
        assertEquals(1, records(json(b)).size());
        assertNotEquals(meta(json(a)).get("query_id"), meta(json(b)).get("query_id"));
        assertEquals(a.headers().firstValue("Bullet-Query-Id").orElseThrow(), meta(json(a)).get("query_id"));
        assertEquals(b.headers().firstValue("Bullet-Query-Id").orElseThrow(), meta(json(b)).get("query_id"));
    }

    // ---- errors ----

    @Test
    void invalidQueryIs400WithEveryErrorInTheResultShape() {
        String bad = "{\"filters\":[{\"field\":\"a\",\"operation\":\"=~\",\"values\":[\"x\"]},"
                     + "{\"operation\":\"NOT\",\"clauses\":[{\"field\":\"a\",\"operation\":\"==\",\"values\":[\"1\"]},"
                     + "{\"field\":\"b\",\"operation\":\"==\",\"values\":[\"2\"]}]}],\"aggregation\":{\"type\":\"RAW\"}}";
        for (String path : List.of(RestServer.HTTP_QUERY, RestServer.SSE_QUERY, RestServer.VALIDATE_QUERY)) {
            HttpResponse<String> r = post(server, path, bad);
            assertEquals(400, r.statusCode(), path);
            assertEquals("application/json", r.headers().firstValue("Content-Type").orElse(""));
            assertEquals(List.of(), json(r).get("records"));
            List<String> errors = errorMessages(r);
            assertEquals(2, errors.size(), r.body());
            assertTrue(errors.get(0).contains("=~"), r.body());
            assertTrue(errors.get(1).contains("NOT"), r.body());
            Map<?, ?> first = (Map<?, ?>) ((List<?>) meta(json(r)).get("errors")).get(0);
            assertFalse(((List<?>) first.get("resolutions")).isEmpty());
        }
    }

    @Test
    void malformedJsonIs400WithItsLineAndColumn() {
        HttpResponse<String> r = post(server, RestServer.HTTP_QUERY, "{\n  \"aggregation\": {\"type\": \"RAW\",}\n}");
        assertEquals(400, r.statusCode());
        String error = errorMessages(r).get(0);
        assertTrue(error.startsWith("Malformed JSON at line 2, column"), error);
        assertEquals(400, post(server, RestServer.HTTP_QUERY, "").statusCode(), "an empty body is no query");
        assertEquals(400, post(server, RestServer.HTTP_QUERY, "[1,2]").statusCode());
    }

    @Test
    void windowedQueryOnHttpQueryIs400PointingAtSseQuery() {
        HttpResponse<String> r = post(server, RestServer.HTTP_QUERY, WINDOWED);
        assertEquals(400, r.statusCode());
        assertTrue(r.body().contains("sse-query"), r.body());
    }

    @Test
    void bodyOverTheLimitIs413() {
        String big = "{\"duration\":1000}" + " ".repeat(service.settings().maxBodyBytes());
        HttpResponse<String> r = post(server, RestServer.VALIDATE_QUERY, big);
        assertEquals(413, r.statusCode());
        assertTrue(errorMessages(r).get(0).contains("bullet.rest.max.body.bytes"), r.body());
        assertEquals(200, post(server, RestServer.VALIDATE_QUERY, "{}").statusCode(), "the server goes on serving");
    }

    @Test
    void bodyAnnouncedOverTheLimitWithExpectContinueIs413BeforeItIsSent() throws IOException {
        // Raw HTTP: curl sends large bodies like this; the JDK client does not read an early final answer.
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(10_000);
            String head = "POST " + RestServer.HTTP_QUERY + " HTTP/1.1\r\nHost: localhost:" + server.port() + "\r\n"
                          + "Content-Type: application/json\r\nExpect: 100-continue\r\n"
                          + "Content-Length: " + (service.settings().maxBodyBytes() + 1) + "\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 413 "), answer);
            assertTrue(answer.contains("bullet.rest.max.body.bytes"), answer);
        }
    }

    @Test
    void unknownPathIs404AndWrongMethodIs405() {
        HttpResponse<String> missing = get(server, "/api/bullet/nope");
        assertEquals(404, missing.statusCode());
        assertEquals(List.of(), json(missing).get("records"));
        HttpResponse<String> wrong = get(server, RestServer.HTTP_QUERY);
        assertEquals(405, wrong.statusCode());
        assertEquals("POST", wrong.headers().firstValue("Allow").orElse(""));
        assertTrue(errorMessages(wrong).get(0).contains("GET"));
        HttpResponse<String> postToHealth = post(server, RestServer.HEALTH, "{}");
        assertEquals(405, postToHealth.statusCode());
        assertEquals("GET, HEAD", postToHealth.headers().firstValue("Allow").orElse(""));
        assertEquals(405, get(server, RestServer.QUERIES + "/some-id").statusCode());
    }

    @Test
    void headAnswersWhereGetDoesWithTheHeadAlone() {
        for (String path : List.of(RestServer.HEALTH, RestServer.SCHEMA, RestServer.QUERIES)) {
            HttpResponse<String> full = get(server, path);
            HttpResponse<String> head = send(server, HttpRequest.newBuilder(uri(server, path))
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).build());
            assertEquals(full.statusCode(), head.statusCode(), path);
            assertEquals("", head.body(), path);
            assertEquals(full.headers().firstValue("Content-Type"), head.headers().firstValue("Content-Type"), path);
        }
        HttpResponse<String> headOfAPost = send(server, HttpRequest.newBuilder(uri(server, RestServer.HTTP_QUERY))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build());
        assertEquals(405, headOfAPost.statusCode());
        assertEquals("POST", headOfAPost.headers().firstValue("Allow").orElse(""));
    }

    @Test
    void queriesBeyondTheConcurrentLimitAre429() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> running = new ArrayList<>();
        List<String> queries = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            String query = "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"" + fresh()
                           + "\"]}],\"duration\":60000}";
            queries.add(query);
            running.add(postAsync(second, RestServer.HTTP_QUERY, query));
        }
        List<String> ids = new ArrayList<>();
        for (String query : queries) {
            ids.add((String) awaitListed(second, query).get("id"));
        }
        for (String path : List.of(RestServer.HTTP_QUERY, RestServer.SSE_QUERY)) {
            HttpResponse<String> refused = post(second, path, "{\"duration\":1000}");
            assertEquals(429, refused.statusCode(), refused.body());
            assertTrue(refused.headers().firstValue("Retry-After").isPresent());
            assertTrue(errorMessages(refused).get(0).contains("bullet.rest.max.concurrent.queries"), refused.body());
        }
        for (String id : ids) {
            assertEquals(204, send(second, HttpRequest.newBuilder(uri(second, RestServer.QUERIES + "/" + id)).DELETE()
                    .build()).statusCode());
        }
        for (CompletableFuture<HttpResponse<String>> r : running) {
            assertEquals(409, r.get(DEADLINE.toSeconds(), TimeUnit.SECONDS).statusCode());
        }
        assertEquals(400, post(second, RestServer.HTTP_QUERY, "{\"nope\":1}").statusCode(),
                     "a freed slot takes queries again (this one is invalid, so not 429)");
    }

    @Test
    void withoutATopologyHealthAndQueriesAre503() throws Exception {
        Map<String, Integer> topics = Map.of("absent.queries", 1, "absent.responses", 1);
        kafka.createTopics(topics);
        BulletSettings alone = topology.settings().withOverrides(Map.of(
                SettingsTable.PUBSUB_KAFKA_REQUEST_TOPIC_NAME, "absent.queries",
                SettingsTable.PUBSUB_KAFKA_RESPONSE_TOPIC_NAME, "absent.responses",
                SettingsTable.PUBSUB_KAFKA_RESPONSE_PARTITIONS, 1,
                SettingsTable.REST_RESPONSE_PARTITIONS, List.of(),
                SettingsTable.REST_HEALTH_TIMEOUT_MS, 1000,
                SettingsTable.REST_RESULT_GRACE_MS, 500));
        try (QueryService lonely = QueryService.start(alone); RestServer rest = RestServer.start(lonely)) {
            awaitCondition(() -> !get(rest, RestServer.HEALTH).body().contains("cannot read results"), DEADLINE,
                           "the service never connected to Kafka");
            HttpResponse<String> health = get(rest, RestServer.HEALTH);
            assertEquals(503, health.statusCode(), health.body());
            assertTrue(errorMessages(health).get(0).contains("did not answer"), health.body());

            long start = System.nanoTime();
            HttpResponse<String> r = post(rest, RestServer.HTTP_QUERY, "{\"duration\":1000}");
            assertEquals(503, r.statusCode(), r.body());
            assertTrue(errorMessages(r).get(0).contains("No final result"), r.body());
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10));
            assertTrue(listed(rest).isEmpty());
        }
    }

    @Test
    void withoutKafkaHealthAndQueriesAre503AtOnce() throws Exception {
        BulletSettings nowhere = topology.settings().withOverrides(Map.of(
                SettingsTable.PUBSUB_KAFKA_BOOTSTRAP_SERVERS, "127.0.0.1:" + freePort()));
        try (QueryService lonely = QueryService.start(nowhere); RestServer rest = RestServer.start(lonely)) {
            HttpResponse<String> health = get(rest, RestServer.HEALTH);
            assertEquals(503, health.statusCode());
            assertEquals(List.of(), json(health).get("records"));
            HttpResponse<String> r = post(rest, RestServer.HTTP_QUERY, "{\"duration\":1000}");
            assertEquals(503, r.statusCode());
            assertTrue(errorMessages(r).get(0).contains("Kafka"), r.body());
            assertEquals(400, post(rest, RestServer.HTTP_QUERY, "{\"nope\":1}").statusCode(),
                         "bad input is still 400");
        }
    }

    // ---- hostile input ----

    @Test
    void deepQueriesAre400WithinSeconds() {
        StringBuilder b = new StringBuilder("{\"filters\":[");
        b.append("{\"operation\":\"NOT\",\"clauses\":[".repeat(20_000));
        b.append("{\"field\":\"a\",\"operation\":\"==\",\"values\":[\"1\"]}");
        b.append("]}".repeat(20_000)).append("],\"duration\":1000}");
        String deep = b.toString();
        for (String path : new String[]{RestServer.VALIDATE_QUERY, RestServer.HTTP_QUERY, RestServer.SSE_QUERY}) {
            long start = System.nanoTime();
            HttpResponse<String> r = send(server, HttpRequest.newBuilder(uri(server, path))
                    .header("Content-Type", "application/json").timeout(Duration.ofSeconds(10))
                    .POST(HttpRequest.BodyPublishers.ofString(deep)).build());
            assertEquals(400, r.statusCode(), path + ": " + r.body());
            assertTrue(errorMessages(r).get(0).contains("bullet.query.max.depth"), r.body());
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), path + " took too long");
        }
        assertEquals(200, get(server, RestServer.HEALTH).statusCode());
    }

    @Test
    void poisonRecordsAreSkippedAndTheNextOrdinaryRecordIsFound() throws Exception {
        String wanted = fresh();
        CompletableFuture<HttpResponse<String>> pending = postAsync(server, RestServer.HTTP_QUERY,
                "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"" + wanted
                + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":60000}");
        awaitListedMentioning(server, wanted, 1);
        awaitRegistered(server);
        String deep = "{\"id\":".repeat(50_000) + "1" + "}".repeat(50_000);
        firehose.send(new ProducerRecord<>(topic, deep.getBytes(StandardCharsets.UTF_8)));
        firehose.send(new ProducerRecord<>(topic, "[".repeat(100_000).getBytes(StandardCharsets.UTF_8)));
        firehose.send(new ProducerRecord<>(topic, new byte[]{'{', '"', 'i', 'd', (byte) 0xFF, '"', ':', '"', (byte) 0xC0,
                                                             '"', '}'}));
        firehose.send(new ProducerRecord<>(topic, new byte[]{(byte) 0xFE, (byte) 0xFF, 0, 1, 2}));
        for (String notAnObject : new String[]{"[1,2]", "\"id\"", "42", "null", "", "{\"id\":"}) {
            firehose.send(new ProducerRecord<>(topic, notAnObject.getBytes(StandardCharsets.UTF_8)));
        }
        firehose.send(new ProducerRecord<>(topic, ("{\"id\":\"huge\",\"s\":\"" + "x".repeat(900_000) + "\"}")
                .getBytes(StandardCharsets.UTF_8)));
        produce("{\"id\":\"" + wanted + "\",\"n\":1}");
        HttpResponse<String> r = pending.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(List.of(Map.of("id", wanted, "n", 1L)), records(json(r)));
        assertEquals(200, get(server, RestServer.HEALTH).statusCode(), "the stack stays healthy");
    }

    @Test
    void adversarialLiteralsDoNotBlindOrdinaryQueriesOnTheSameField() throws Exception {
        String wanted = fresh();
        List<CompletableFuture<HttpResponse<String>>> hostile = new ArrayList<>();
        for (String v : new String[]{"-NaN", "NaN", "Infinity", "-Infinity", "1e400", "-0", "99999999999999999999999"}) {
            for (String op : new String[]{"<", "<=", ">", ">="}) {
                hostile.add(postAsync(server, RestServer.HTTP_QUERY, "{\"filters\":[{\"field\":\"n\",\"operation\":\""
                        + op + "\",\"values\":[\"" + v + "\"]}],\"aggregation\":{\"type\":\"COUNT DISTINCT\","
                        + "\"fields\":{\"n\":\"n\"}},\"duration\":8000}"));
            }
        }
        CompletableFuture<HttpResponse<String>> below = postAsync(server, RestServer.HTTP_QUERY,
                "{\"filters\":[{\"field\":\"n\",\"operation\":\"<\",\"values\":[\"100\"]},{\"field\":\"id\","
                + "\"operation\":\"==\",\"values\":[\"" + wanted + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":3},"
                + "\"duration\":60000}");
        CompletableFuture<HttpResponse<String>> above = postAsync(server, RestServer.HTTP_QUERY,
                "{\"filters\":[{\"field\":\"n\",\"operation\":\">\",\"values\":[\"NaN\",\"0\"]},{\"field\":\"id\","
                + "\"operation\":\"==\",\"values\":[\"" + wanted + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":3},"
                + "\"duration\":60000}");
        awaitListedMentioning(server, wanted, 2);
        awaitRegistered(server);
        produce("{\"id\":\"" + wanted + "\",\"n\":1}", "{\"id\":\"" + wanted + "\",\"n\":2.5}",
                "{\"id\":\"" + wanted + "\",\"n\":3}");
        for (CompletableFuture<HttpResponse<String>> ordinary : List.of(below, above)) {
            HttpResponse<String> r = ordinary.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            assertEquals(200, r.statusCode(), r.body());
            assertEquals(3, records(json(r)).size(), "an ordinary query missed records: " + r.body());
        }
        for (CompletableFuture<HttpResponse<String>> h : hostile) {
            assertEquals(200, h.get(DEADLINE.toSeconds(), TimeUnit.SECONDS).statusCode());
        }
    }

    @Test
    void fuzzedQueriesNeverGetA5xxNorHang() throws Exception {
        Random random = new Random(11);
        for (int i = 0; i < 300; i++) {
            String body = Fuzz.randomQuery(random);
            HttpResponse<String> r = send(server, HttpRequest.newBuilder(uri(server, RestServer.VALIDATE_QUERY))
                    .header("Content-Type", "application/json").timeout(Duration.ofSeconds(10))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build());
            assertTrue(r.statusCode() == 200 || r.statusCode() == 400, r.statusCode() + " for " + body + ": " + r.body());
            if (r.statusCode() == 400) {
                // an invalid query is refused by every endpoint the same way, at once
                HttpResponse<String> q = send(server, HttpRequest.newBuilder(uri(server, RestServer.HTTP_QUERY))
                        .header("Content-Type", "application/json").timeout(Duration.ofSeconds(10))
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build());
                assertEquals(400, q.statusCode(), body + ": " + q.body());
            }
        }
        assertEquals(200, get(server, RestServer.HEALTH).statusCode());
    }

    // ---- helpers ----

    /** Every query sent so far reached the Filter tasks: a probe sent after them finds a marker record. */
    private void awaitRegistered(RestServer via) throws Exception {
        String marker = fresh();
        CompletableFuture<HttpResponse<String>> probe = postAsync(via, RestServer.HTTP_QUERY,
                "{\"filters\":[{\"field\":\"marker\",\"operation\":\"==\",\"values\":[\"" + marker
                + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":60000}");
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            produce("{\"marker\":\"" + marker + "\"}");
            try {
                HttpResponse<String> r = probe.get(300, TimeUnit.MILLISECONDS);
                assertEquals(200, r.statusCode(), r.body());
                return;
            } catch (TimeoutException e) {
                // not yet: send the marker again
            }
        }
        fail("queries never reached the Filter tasks");
    }

    /**
     * Waits until the service lists {@code count} running queries whose entry mentions {@code text} (a fresh id in
     * their filter): an asynchronous request may still be on its way when the next one is sent, and a probe that
     * overtakes it would find the Filter tasks ready before this query reached them.
     */
    private void awaitListedMentioning(RestServer via, String text, int count) {
        awaitCondition(() -> listed(via).stream().filter(q -> JsonCodec.toJson(q).contains(text)).count() >= count,
                       DEADLINE, count + " queries mentioning " + text + " never listed");
    }

    private Map<String, Object> awaitListed(RestServer via, String query) {
        Object parsed = JsonCodec.parse(query);
        AtomicReference<Map<String, Object>> found = new AtomicReference<>();
        awaitCondition(() -> {
            for (Map<String, Object> q : listed(via)) {
                if (parsed.equals(q.get("query"))) {
                    found.set(q);
                    return true;
                }
            }
            return false;
        }, DEADLINE, "query never listed: " + query);
        return found.get();
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> listed(RestServer via) {
        HttpResponse<String> r = get(via, RestServer.QUERIES);
        assertEquals(200, r.statusCode());
        return (List<Map<String, Object>>) JsonCodec.parse(r.body());
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

    private void produce(String... records) {
        for (String r : records) {
            firehose.send(new ProducerRecord<>(topic, r.getBytes(StandardCharsets.UTF_8)));
        }
        firehose.flush();
    }

    private static String fresh() {
        return UUID.randomUUID().toString();
    }

    private static URI uri(RestServer via, String path) {
        return URI.create(via.url() + path);
    }

    private static HttpRequest request(RestServer via, String path, String body) {
        return HttpRequest.newBuilder(uri(via, path)).header("Content-Type", "application/json")
                          .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private HttpResponse<String> post(RestServer via, String path, String body) {
        return send(via, request(via, path, body));
    }

    private CompletableFuture<HttpResponse<String>> postAsync(RestServer via, String path, String body) {
        return http.sendAsync(request(via, path, body), BodyHandlers.ofString());
    }

    private HttpResponse<String> get(RestServer via, String path) {
        return send(via, HttpRequest.newBuilder(uri(via, path)).GET().build());
    }

    private HttpResponse<String> send(RestServer via, HttpRequest request) {
        try {
            return http.send(request, BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("request to " + via.url() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static Map<String, Object> json(HttpResponse<String> r) {
        return json(r.body());
    }

    private static Map<String, Object> json(String body) {
        return JsonCodec.parseMap(body);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> meta(Map<String, Object> result) {
        return (Map<String, Object>) result.get("meta");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> records(Map<String, Object> result) {
        return (List<Map<String, Object>>) result.get("records");
    }

    private static List<String> errorMessages(HttpResponse<String> r) {
        List<String> out = new ArrayList<>();
        for (Object e : (List<?>) meta(json(r)).get("errors")) {
            out.add((String) ((Map<?, ?>) e).get("error"));
        }
        return out;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        }
    }
}

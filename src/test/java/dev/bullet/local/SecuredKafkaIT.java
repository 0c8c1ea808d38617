package dev.bullet.local;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.pubsub.KafkaPubSub;
import dev.bullet.pubsub.KafkaPubSubFactory;
import dev.bullet.pubsub.PubSubException;
import dev.bullet.record.JsonCodec;
import dev.bullet.rest.QueryService;
import dev.bullet.rest.RestServer;
import dev.bullet.testing.LogCapture;
import dev.bullet.testing.TestCertificates;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.provider.FileConfigProvider;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.security.plain.PlainLoginModule;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The whole path against a broker whose only listeners (client and controller) are SASL_SSL with SASL/PLAIN and a
 * certificate made for the test: records into the firehose topic, the topology in LocalCluster, the PubSub, the REST
 * service, a query answered over HTTP. Bullet's clients get their security from the settings' two maps of Kafka
 * client properties, written in YAML; the PubSub's secrets come through Kafka's file config provider. A client without
 * the properties (or with a wrong password) gets nothing, so the listener is really secured; and no secret appears in
 * any log event, including the configuration dumps of Kafka's clients and of Storm's Nimbus.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SecuredKafkaIT {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String SECRET = "pw-" + UUID.randomUUID();
    /** The SASL/PLAIN password of Bullet's user; only the secrets file holds it. */
    private static final String BULLET_PASSWORD = "bullet-" + SECRET;
    private static final String STORE_PASSWORD = "store-" + SECRET;
    private static final String PLAIN_MODULE = PlainLoginModule.class.getName();

    private LogCapture logs;
    private KafkaListenerSecurity security;
    private EmbeddedKafka kafka;
    private LocalTopology topology;
    private QueryService service;
    private RestServer server;
    private KafkaProducer<byte[], byte[]> firehose;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void start(@TempDir Path dir) throws IOException {
        // the loggers of Kafka's client configuration dumps and of Nimbus's topology submission, captured from INFO
        logs = LogCapture.install("org.apache.kafka.common.config.AbstractConfig", "org.apache.storm.daemon.nimbus");
        TestCertificates tls = TestCertificates.create(dir.resolve("tls"), STORE_PASSWORD);
        security = KafkaListenerSecurity.saslSsl(tls.keystore(), tls.truststore(), tls.password(),
                Map.of("broker", "broker-" + UUID.randomUUID(), "bullet", BULLET_PASSWORD, "feeder", "feeder-" + UUID.randomUUID()),
                "broker");
        kafka = EmbeddedKafka.onFreePorts(dir.resolve("kafka"), security);
        kafka.start();

        Path secrets = dir.resolve("kafka-secrets.properties");
        Files.writeString(secrets, "truststore.password=" + STORE_PASSWORD + "\n"
                + "jaas=" + PLAIN_MODULE + " required username=\\\"bullet\\\" "
                + "password=\\\"" + BULLET_PASSWORD + "\\\";\n", StandardCharsets.UTF_8);
        Path yaml = dir.resolve("bullet.yaml");
        Files.writeString(yaml, """
                bullet.topology.name: secured-it
                bullet.rest.port: 0
                bullet.rest.response.partitions: ["0", "1"]
                bullet.rest.health.timeout.ms: 3000
                bullet.pubsub.kafka.properties:
                  security.protocol: SASL_SSL
                  sasl.mechanism: PLAIN
                  config.providers: file
                  config.providers.file.class: %5$s
                  sasl.jaas.config: "${file:%1$s:jaas}"
                  ssl.truststore.location: "%2$s"
                  ssl.truststore.password: "${file:%1$s:truststore.password}"
                  ssl.truststore.type: PKCS12
                  client.id: bullet-secured-it
                bullet.topology.datasource.kafka.properties:
                  security:
                    protocol: SASL_SSL
                  sasl.mechanism: PLAIN
                  sasl.jaas.config: '%6$s required username="bullet" password="%3$s";'
                  ssl.truststore.location: "%2$s"
                  ssl.truststore.password: "%4$s"
                  ssl.truststore.type: PKCS12
                """.formatted(secrets, tls.truststore(), BULLET_PASSWORD, STORE_PASSWORD, FileConfigProvider.class.getName(),
                        PLAIN_MODULE), StandardCharsets.UTF_8);
        BulletSettings settings = BulletSettings.load(yaml, Map.of());
        assertFalse(settings.toString().contains(SECRET), "the settings dump shows a secret");

        topology = LocalTopology.start(kafka, settings);
        service = QueryService.start(topology.settings());
        server = RestServer.start(service);
        Map<String, Object> p = new HashMap<>(security.clientProperties("feeder"));
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        firehose = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        awaitCondition(() -> get(server, RestServer.HEALTH).statusCode() == 200, Duration.ofSeconds(150),
                "the topology never answered the health probe through the secured broker");
    }

    @AfterAll
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {firehose, service, server, topology, kafka, logs}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort: the broker's directory goes with @TempDir
            }
        }
    }

    @Test
    void aQueryIsAnsweredOverHttpThroughTheSecuredBroker() throws Exception {
        String wanted = UUID.randomUUID().toString();
        String query = "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"" + wanted
                + "\"]}],\"aggregation\":{\"type\":\"LIMIT\",\"size\":2},\"duration\":60000}";
        CompletableFuture<HttpResponse<String>> pending = http.sendAsync(post(server, RestServer.HTTP_QUERY, query),
                HttpResponse.BodyHandlers.ofString());
        // the query reaches the Filter tasks a moment after it is sent: send matching records until it is answered
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        for (int n = 0; !pending.isDone(); n++) {
            if (System.nanoTime() > deadline || n > 600) {
                fail("no answer within " + DEADLINE + " after " + n + " records");
            }
            firehose.send(new ProducerRecord<>(topology.settings().getString(SettingsTable.DATASOURCE_KAFKA_TOPIC),
                    ("{\"id\":\"" + wanted + "\",\"n\":" + n + "}").getBytes(StandardCharsets.UTF_8)));
            firehose.flush();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        HttpResponse<String> r = pending.get();
        assertEquals(200, r.statusCode(), r.body());
        List<?> records = (List<?>) JsonCodec.parseMap(r.body()).get("records");
        assertEquals(2, records.size(), r.body());
        assertTrue(records.stream().allMatch(record -> wanted.equals(((Map<?, ?>) record).get("id"))), r.body());
    }

    @Test
    void aRestServiceWithoutThePropertiesAnswers503() {
        BulletSettings plain = BulletSettings.load(null, Map.of(
                SettingsTable.PUBSUB_KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers(),
                SettingsTable.REST_PORT, 0,
                SettingsTable.REST_RESPONSE_PARTITIONS, List.of("2", "3"),
                SettingsTable.REST_HEALTH_TIMEOUT_MS, 3000));
        QueryService unsecured = QueryService.start(plain);
        RestServer other = RestServer.start(unsecured);
        try {
            HttpResponse<String> health = get(other, RestServer.HEALTH);
            assertEquals(503, health.statusCode(), health.body());
            HttpResponse<String> r = send(post(other, RestServer.HTTP_QUERY,
                    "{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":2000}"));
            assertEquals(503, r.statusCode(), r.body());
            assertTrue(r.body().contains("\"errors\""), r.body());
        } finally {
            other.close();
            unsecured.close();
        }
    }

    @Test
    void kafkaClientsWithoutThePropertiesOrWithAWrongPasswordReadNothing() {
        String topic = topology.settings().getString(SettingsTable.DATASOURCE_KAFKA_TOPIC);
        Map<String, Object> none = consumerConfig(Map.of());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(none)) {
            assertThrows(KafkaException.class, () -> consumer.partitionsFor(topic, Duration.ofSeconds(5)));
        }
        Map<String, String> wrong = new HashMap<>(security.clientProperties("bullet"));
        wrong.put("sasl.jaas.config", PLAIN_MODULE + " required "
                + "username=\"bullet\" password=\"not-the-password\";");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig(wrong))) {
            assertThrows(SaslAuthenticationException.class, () -> consumer.partitionsFor(topic, Duration.ofSeconds(10)));
        }
        // the PubSub without its properties cannot even find the response topic
        KafkaPubSub unsecured = new KafkaPubSub(KafkaPubSubFactory.config(BulletSettings.load(null, Map.of(
                SettingsTable.PUBSUB_KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers(),
                SettingsTable.PUBSUB_KAFKA_PROPERTIES, Map.of("default.api.timeout.ms", "3000",
                        "request.timeout.ms", "3000")))));
        assertThrows(PubSubException.class, unsecured::ping);
        // and the same client with the properties does (the failures above are the listener's doing)
        new KafkaPubSub(KafkaPubSubFactory.config(topology.settings())).ping();
    }

    @Test
    void noSecretIsEverLogged() {
        // the configuration dumps were captured from INFO: they are there, and hide the secrets
        assertTrue(logs.events().stream().anyMatch(e -> e.contains("sasl.jaas.config = [hidden]")),
                "Kafka's client configuration dumps were not captured");
        assertTrue(logs.events().stream().anyMatch(e -> e.contains("Received topology submission")),
                "Nimbus's topology submission was not captured");
        List<String> leaks = logs.events().stream().filter(e -> e.contains(SECRET)).toList();
        assertEquals(List.of(), leaks);
    }

    private Map<String, Object> consumerConfig(Map<String, String> properties) {
        Map<String, Object> config = new HashMap<>(properties);
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000");
        return config;
    }

    private HttpRequest post(RestServer via, String path, String body) {
        return HttpRequest.newBuilder(URI.create(via.url() + path)).timeout(Duration.ofSeconds(90))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private HttpResponse<String> get(RestServer via, String path) {
        return send(HttpRequest.newBuilder(URI.create(via.url() + path)).timeout(Duration.ofSeconds(30)).GET().build());
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("request failed: " + request.uri(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
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
}

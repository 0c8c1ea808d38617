package dev.bullet.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.bullet.generator.GeneratorMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A real KRaft broker on loopback, fed by the real generator and read by a real consumer. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class EmbeddedKafkaIT {
    private static final Duration CONSUME_DEADLINE = Duration.ofSeconds(60);

    private Path dir;
    private EmbeddedKafka kafka;

    @BeforeAll
    void startBroker(@TempDir Path tempDir) {
        dir = tempDir;
        kafka = EmbeddedKafka.onFreePorts(dir.resolve("kafka"));
        kafka.start();
    }

    @AfterAll
    void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void generatedRecordsAllArriveAsJson() {
        kafka.createTopics(Map.of("generated", 2));
        Output output = new Output();
        int code = GeneratorMain.run(new String[] {"--bootstrap", kafka.bootstrapServers(), "--topic", "generated",
            "--count", "200", "--rate", "1000", "--seed", "3"}, output.out, output.err);
        assertEquals(0, code, output.stderr());
        assertTrue(output.stderr().contains("200 records (200 delivered)"), output.stderr());

        List<byte[]> received = consume("generated", 200);
        assertEquals(200, received.size());
        Set<String> ids = new HashSet<>();
        for (byte[] value : received) {
            JsonObject record = JsonParser.parseString(new String(value, StandardCharsets.UTF_8)).getAsJsonObject();
            assertEquals(94, record.size());
            ids.add(record.get("id").getAsString());
        }
        assertEquals(200, ids.size());
    }

    @Test
    void recordsFileArrivesOnceAndInOrder() throws Exception {
        kafka.createTopics(Map.of("fixed", 1));
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            lines.add("{\"id\":\"0123456789\",\"n\":" + i + ",\"tag\":\"validation\"}");
        }
        Path file = dir.resolve("records.jsonl");
        Files.writeString(file, String.join("\n\n", lines) + "\n");
        Output output = new Output();
        int code = GeneratorMain.run(new String[] {"--bootstrap", kafka.bootstrapServers(), "--topic", "fixed",
            "--records", file.toString()}, output.out, output.err);
        assertEquals(0, code, output.stderr());

        List<String> received = new ArrayList<>();
        for (byte[] value : consume("fixed", lines.size())) {
            received.add(new String(value, StandardCharsets.UTF_8));
        }
        assertEquals(lines, received);
    }

    @Test
    void createTopicsIsIdempotent() throws Exception {
        kafka.createTopics(Map.of("twice", 3));
        kafka.createTopics(Map.of("twice", 3, "other", 1));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            assertEquals(3, admin.describeTopics(List.of("twice")).allTopicNames().get().get("twice").partitions().size());
            assertTrue(admin.listTopics().names().get().containsAll(List.of("twice", "other")));
        }
    }

    @Test
    void restartsOnTheSamePortWithItsData() {
        kafka.createTopics(Map.of("durable", 1));
        Output output = new Output();
        String[] args = {"--bootstrap", kafka.bootstrapServers(), "--topic", "durable", "--count", "5", "--rate", "max"};
        assertEquals(0, GeneratorMain.run(args, output.out, output.err), output.stderr());
        kafka.stop();
        kafka.start();
        assertEquals(0, GeneratorMain.run(args, output.out, output.err), output.stderr());
        assertEquals(10, consume("durable", 10).size());
    }

    @Test
    @Timeout(60)
    void generatorFailsFastWithAClearMessageWhenKafkaIsUnreachable() {
        int closedPort = EmbeddedKafka.freePorts(1)[0];
        Output output = new Output();
        long start = System.nanoTime();
        int code = GeneratorMain.run(new String[] {"--bootstrap", "127.0.0.1:" + closedPort, "--count", "5"},
            output.out, output.err);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertEquals(1, code, output.stderr());
        assertTrue(output.stderr().contains("cannot reach Kafka at 127.0.0.1:" + closedPort), output.stderr());
        assertTrue(took.compareTo(Duration.ofSeconds(20)) < 0, "took " + took);
    }

    /** Reads {@code expected} values from the start of the topic, through a consumer group, or fails at the deadline. */
    private List<byte[]> consume(String topic, int expected) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        List<byte[]> values = new ArrayList<>();
        long deadline = System.nanoTime() + CONSUME_DEADLINE.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(topic));
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            // One more short poll: a duplicate or extra record would show up here.
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(300))) {
                values.add(record.value());
            }
        }
        assertEquals(expected, values.size(), "records read from " + topic);
        return values;
    }

    /** Captured stdout and stderr of one generator run. */
    private static final class Output {
        final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
        final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

        String stderr() {
            return errBytes.toString(StandardCharsets.UTF_8);
        }
    }
}

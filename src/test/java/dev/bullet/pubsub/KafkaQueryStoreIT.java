package dev.bullet.pubsub;

import dev.bullet.common.Clock;
import dev.bullet.local.EmbeddedKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The query store on a real broker: a compacted topic read back to its end, and a missing topic that changes nothing. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class KafkaQueryStoreIT {
    @TempDir
    static Path dir;
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void start() {
        kafka = EmbeddedKafka.onFreePorts(dir);
        kafka.start();
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    private static KafkaPubSubConfig config() {
        return new KafkaPubSubConfig(kafka.bootstrapServers(), "q", "r", 1, Map.of("client.id", "store-it"));
    }

    @Test
    void entriesAndTombstonesReadBackFromACompactedTopic() throws Exception {
        KafkaQueryStore.createTopic(config(), "q-queries");
        KafkaQueryStore.createTopic(config(), "q-queries"); // an existing topic is kept
        try (QueryStore writer = new KafkaPubSub(config()).queryStore("q-queries", Clock.SYSTEM)) {
            writer.put(new StoredQuery("a", "{}", 1, 0));
            writer.put(new StoredQuery("b", "{}", 2, 0));
            writer.put(new StoredQuery("a", "{\"duration\": 5}", 3, 0));
            writer.remove("b");
        } // closing sends what it holds
        try (QueryStore reader = new KafkaPubSub(config()).queryStore("q-queries", Clock.SYSTEM)) {
            assertEquals(List.of(new StoredQuery("a", "{\"duration\": 5}", 3, 0)), reader.load());
            assertTrue(reader.available());
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "q-queries");
            assertEquals(TopicConfig.CLEANUP_POLICY_COMPACT, admin.describeConfigs(List.of(topic)).all().get()
                .get(topic).get(TopicConfig.CLEANUP_POLICY_CONFIG).value());
        }
    }

    @Test
    void aMissingTopicLeavesTheStoreOffWithoutCreatingIt() throws Exception {
        try (QueryStore store = new KafkaPubSub(config()).queryStore("nobody-made-this", Clock.SYSTEM)) {
            assertFalse(store.available());
            store.put(new StoredQuery("a", "{}", 1, 0)); // nothing happens, nothing throws
            store.remove("a");
            assertEquals(List.of(), store.load());
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            assertFalse(admin.listTopics().names().get().contains("nobody-made-this"), "not auto-created");
        }
    }
}

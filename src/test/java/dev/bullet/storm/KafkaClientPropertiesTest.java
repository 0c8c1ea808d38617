package dev.bullet.storm;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.ingest.KafkaSpoutConfig;
import dev.bullet.pubsub.KafkaPubSubConfig;
import dev.bullet.pubsub.KafkaPubSubFactory;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two maps of Kafka client properties reach the clients they are for, and only them: the PubSub config, the
 * firehose spout's config (with its own auto.offset.reset), never the Storm config (which Nimbus logs and stores).
 */
class KafkaClientPropertiesTest {
    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "username=\"u\" password=\"very-secret\";";

    private static BulletSettings settings() {
        return BulletSettings.builder().yaml("""
                bullet.pubsub.kafka.properties: {security.protocol: SASL_SSL, sasl.jaas.config: '%s'}
                bullet.topology.datasource.kafka.properties: {security.protocol: SSL, ssl.truststore.password: very-secret}
                bullet.topology.datasource.kafka.auto.offset.reset: earliest
                """.formatted(JAAS), "test.yaml").build();
    }

    @Test
    void eachMapGoesToItsClients() {
        KafkaPubSubConfig pubsub = KafkaPubSubFactory.config(settings());
        assertEquals(Map.of("security.protocol", "SASL_SSL", "sasl.jaas.config", JAAS), pubsub.extraClientProps());
        KafkaSpoutConfig spout = BulletTopology.KafkaSpoutConfigs.from(settings());
        assertEquals(Map.of("security.protocol", "SSL", "ssl.truststore.password", "very-secret",
                "auto.offset.reset", "earliest"), spout.extraConsumerProps());
    }

    @Test
    void theConfigsHideSecretsWhenShown() {
        String pubsub = KafkaPubSubFactory.config(settings()).toString();
        String spout = BulletTopology.KafkaSpoutConfigs.from(settings()).toString();
        assertFalse(pubsub.contains("very-secret"), pubsub);
        assertFalse(spout.contains("very-secret"), spout);
        assertTrue(pubsub.contains("security.protocol=SASL_SSL"), pubsub);
    }

    @Test
    void theStormConfigCarriesNoProperty() {
        String conf = BulletTopology.config(settings()).toString();
        assertFalse(conf.contains("very-secret"), conf);
        assertFalse(conf.contains(SettingsTable.PUBSUB_KAFKA_PROPERTIES), conf);
    }

    @Test
    void thePubSubConfigRefusesWhatBulletSets() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new KafkaPubSubConfig(
                "h:1", "q", "r", 1, Map.of("value.deserializer", "x")));
        assertTrue(e.getMessage().contains("value.deserializer"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new KafkaPubSubConfig("h:1", "q", "r", 1,
                Map.of("group.id", "mine")));
    }
}

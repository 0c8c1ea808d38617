package dev.bullet.config;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.bullet.config.SettingsTable.DATASOURCE_KAFKA_PROPERTIES;
import static dev.bullet.config.SettingsTable.PUBSUB_KAFKA_PROPERTIES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The two maps of Kafka client properties: their forms, the properties Bullet owns, and hidden secrets. */
class KafkaPropertiesSettingsTest {
    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "username=\"alice\" password=\"alice-secret\";";

    private static BulletSettings yaml(String text) {
        return BulletSettings.builder().yaml(text, "test.yaml").build();
    }

    private static SettingsException problems(String text) {
        return assertThrows(SettingsException.class, () -> yaml(text));
    }

    @Test
    void defaultsAreEmpty() {
        assertEquals(Map.of(), BulletSettings.defaults().getProperties(PUBSUB_KAFKA_PROPERTIES));
        assertEquals(Map.of(), BulletSettings.defaults().getProperties(DATASOURCE_KAFKA_PROPERTIES));
    }

    @Test
    void aYamlMapTakesAnyPropertyAndScalarsBecomeText() {
        BulletSettings s = yaml("""
                bullet.pubsub.kafka.properties:
                  security.protocol: SASL_SSL
                  sasl.mechanism: SCRAM-SHA-512
                  sasl.jaas.config: '%s'
                  ssl.truststore.location: /etc/bullet/truststore.p12
                  ssl.truststore.type: PKCS12
                  request.timeout.ms: 20000
                  enable.idempotence: false
                  some.ratio: 0.5
                bullet.topology.datasource.kafka.properties: {security.protocol: SSL, client.id: firehose}
                """.formatted(JAAS));
        Map<String, String> pubsub = s.getProperties(PUBSUB_KAFKA_PROPERTIES);
        assertEquals(List.of("security.protocol", "sasl.mechanism", "sasl.jaas.config", "ssl.truststore.location",
                "ssl.truststore.type", "request.timeout.ms", "enable.idempotence", "some.ratio"),
                List.copyOf(pubsub.keySet()));
        assertEquals(JAAS, pubsub.get("sasl.jaas.config"));
        assertEquals("20000", pubsub.get("request.timeout.ms"));
        assertEquals("false", pubsub.get("enable.idempotence"));
        assertEquals("0.5", pubsub.get("some.ratio"));
        assertEquals(Map.of("security.protocol", "SSL", "client.id", "firehose"),
                s.getProperties(DATASOURCE_KAFKA_PROPERTIES));
        assertTrue(s.isSet(PUBSUB_KAFKA_PROPERTIES));
    }

    @Test
    void nestedMapsAreDottedNames() {
        BulletSettings s = yaml("""
                bullet.pubsub.kafka.properties:
                  security: {protocol: SASL_PLAINTEXT}
                  sasl:
                    mechanism: PLAIN
                """);
        assertEquals(Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN"),
                s.getProperties(PUBSUB_KAFKA_PROPERTIES));
    }

    @Test
    void dottedKeysAreEntriesOfTheMapAndLaterLayersWinEntryByEntry() {
        BulletSettings s = BulletSettings.builder()
                .yaml("""
                        bullet.pubsub.kafka.properties: {security.protocol: SSL, client.id: a}
                        bullet.pubsub.kafka.properties.ssl.truststore.location: /t.p12
                        """, "first.yaml")
                .yaml("bullet.pubsub.kafka.properties.client.id: b\n", "second.yaml")
                .override("bullet.topology.datasource.kafka.properties.security.protocol", "SASL_SSL")
                .build();
        assertEquals(Map.of("security.protocol", "SSL", "client.id", "b", "ssl.truststore.location", "/t.p12"),
                s.getProperties(PUBSUB_KAFKA_PROPERTIES));
        assertEquals(Map.of("security.protocol", "SASL_SSL"), s.getProperties(DATASOURCE_KAFKA_PROPERTIES));
        // what a task reads back from a Storm config that carries the dotted form
        Map<String, Object> stormConf = new LinkedHashMap<>();
        stormConf.put("bullet.pubsub.kafka.properties.sasl.mechanism", "PLAIN");
        stormConf.put("topology.workers", 1);
        assertEquals(Map.of("sasl.mechanism", "PLAIN"),
                BulletSettings.fromTopologyConfig(stormConf).getProperties(PUBSUB_KAFKA_PROPERTIES));
        // the dotted form survives withOverrides (the local stack's re-layering)
        assertEquals(s.getProperties(PUBSUB_KAFKA_PROPERTIES),
                s.withOverrides(Map.of()).getProperties(PUBSUB_KAFKA_PROPERTIES));
    }

    @Test
    void thePrefixAloneOrATypoIsStillAnUnknownSetting() {
        SettingsException e = problems("bullet.pubsub.kafka.propertie.security.protocol: SSL\n");
        assertTrue(e.getMessage().contains("unknown setting"), e.getMessage());
    }

    @Test
    void propertiesBulletOwnsAreRefusedAllAtOnceWithTheSettingToUse() {
        SettingsException e = problems("""
                bullet.pubsub.kafka.properties: {bootstrap.servers: "h:1", value.serializer: x, client.id: ok}
                bullet.topology.datasource.kafka.properties.group.id: mine
                bullet.topology.datasource.kafka.properties.enable.auto.commit: true
                bullet.topology.datasource.kafka.properties.auto.offset.reset: earliest
                """);
        String m = e.getMessage();
        assertEquals(4, e.problems().size(), m);
        assertTrue(m.contains(PUBSUB_KAFKA_PROPERTIES + " (in test.yaml): must not set bootstrap.servers (set it with "
                + SettingsTable.PUBSUB_KAFKA_BOOTSTRAP_SERVERS + ")"), m);
        assertTrue(m.contains("value.serializer"), m);
        assertTrue(m.contains("group.id (set it with " + SettingsTable.DATASOURCE_KAFKA_GROUP_ID + ")"), m);
        assertTrue(m.contains("enable.auto.commit (the spout commits offsets itself"), m);
        assertTrue(m.contains("auto.offset.reset (set it with " + SettingsTable.DATASOURCE_KAFKA_AUTO_OFFSET_RESET), m);
        assertFalse(m.contains("client.id"), m);
    }

    @Test
    void badShapesAreReportedWithoutShowingSecrets() {
        SettingsException e = problems("""
                bullet.pubsub.kafka.properties: "sasl.jaas.config=%s"
                bullet.topology.datasource.kafka.properties:
                  ssl.keystore.password: [s3cr3t-in-a-list]
                  client.id: [visible]
                  "": x
                """.formatted(JAAS.replace("\"", "'")));
        String m = e.getMessage();
        assertFalse(m.contains("alice-secret"), m);
        assertFalse(m.contains("s3cr3t"), m);
        assertTrue(m.contains(PUBSUB_KAFKA_PROPERTIES + " (in test.yaml): expected a map of Kafka client properties"
                + " (name: value entries), got a string"), m);
        assertTrue(m.contains("entry \"ssl.keystore.password\": expected a string, number or boolean, got a list"), m);
        assertTrue(m.contains("entry \"client.id\": expected a string, number or boolean, got a list [visible]"), m);
        assertTrue(m.contains("names must be non-empty strings"), m);
    }

    @Test
    void theSettingsDumpHidesSecretValuesButNotProviderReferences() {
        BulletSettings s = yaml("""
                bullet.pubsub.kafka.properties:
                  security.protocol: SASL_SSL
                  sasl.jaas.config: '%s'
                  ssl.truststore.password: '${file:/etc/bullet/secrets.properties:truststore.password}'
                  ssl.keystore.password: changeit
                  ssl.key.password: changeit
                bullet.topology.datasource.kafka.properties.listener.name.x.plain.sasl.jaas.config: '%s'
                """.formatted(JAAS, JAAS));
        String dump = s.toString();
        assertFalse(dump.contains("alice-secret"), dump);
        assertFalse(dump.contains("changeit"), dump);
        assertTrue(dump.contains("security.protocol=SASL_SSL"), dump);
        assertTrue(dump.contains("ssl.truststore.password=${file:/etc/bullet/secrets.properties:truststore.password}"),
                dump);
        assertTrue(dump.contains("sasl.jaas.config=" + KafkaProperties.HIDDEN), dump);
    }

    @Test
    void secretNames() {
        for (String name : List.of("sasl.jaas.config", "ssl.truststore.password", "ssl.keystore.password",
                "ssl.key.password", "ssl.keystore.key", "ssl.keystore.certificate.chain", "ssl.truststore.certificates",
                "sasl.oauthbearer.client.credentials.client.secret", "basic.auth.user.info",
                "listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config", "SASL.JAAS.CONFIG")) {
            assertTrue(KafkaProperties.isSecret(name), name);
        }
        for (String name : List.of("security.protocol", "sasl.mechanism", "ssl.truststore.location",
                "ssl.truststore.type", "client.id", "config.providers", "config.providers.file.class",
                "ssl.endpoint.identification.algorithm", "key.serializer")) {
            assertFalse(KafkaProperties.isSecret(name), name);
        }
    }
}

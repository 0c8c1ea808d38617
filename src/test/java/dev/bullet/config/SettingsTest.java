package dev.bullet.config;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.bullet.config.SettingsTable.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SettingsTest {

    private static final Path CONF_FILE = Path.of("conf", "bullet_settings.yaml");

    @Test
    void defaultsLoadWithTheDocumentedValues() {
        BulletSettings settings = BulletSettings.defaults();

        assertEquals("127.0.0.1:9092", settings.getString(DATASOURCE_KAFKA_BOOTSTRAP_SERVERS));
        assertEquals("bullet.records", settings.getString(DATASOURCE_KAFKA_TOPIC));
        assertEquals("bullet-storm", settings.getString(DATASOURCE_KAFKA_GROUP_ID));
        assertEquals(1000, settings.getInt(DATASOURCE_SPOUT_BATCH_SIZE));
        assertEquals("", settings.getString(DATASOURCE_SPOUT_CLASS_NAME));
        assertEquals(List.of(), settings.getList(DATASOURCE_SPOUT_ARGS));
        assertEquals("bullet.queries", settings.getString(PUBSUB_KAFKA_REQUEST_TOPIC_NAME));
        assertEquals("bullet.responses", settings.getString(PUBSUB_KAFKA_RESPONSE_TOPIC_NAME));
        assertEquals("bullet-topology", settings.getString(TOPOLOGY_NAME));
        assertEquals(100, settings.tickIntervalMs());
        assertEquals(30_000L, settings.getLong(QUERY_DEFAULT_DURATION));
        assertEquals(500, settings.getInt(QUERY_AGGREGATION_DEFAULT_SIZE));
        assertEquals(500, settings.getInt(QUERY_AGGREGATION_MAX_SIZE));
        assertEquals(500, settings.getInt(QUERY_AGGREGATION_RAW_MAX_SIZE));
        assertEquals(1000L, settings.getLong(QUERY_WINDOW_MIN_EMIT_EVERY));
        assertEquals(16_384, settings.getInt(COUNT_DISTINCT_SKETCH_ENTRIES));
        assertTrue(settings.getBoolean(RESULT_METADATA_ENABLE));
        assertEquals(Map.of(), settings.getStringMap(RESULT_METADATA_METRICS));
        assertEquals("size", settings.metadataName("size"));
        assertEquals(Map.of("default", 60), settings.getIntMap(METRICS_BUILT_IN_EMIT_INTERVAL_MAPPING));
        assertEquals(60, settings.metricEmitIntervalSecs("bullet_active_queries"));
        assertEquals(List.of("json-log"), settings.getList(METRICS_CLASSES));
        assertEquals(9999, settings.getInt(REST_PORT));
        assertEquals(1_048_576, settings.getInt(REST_MAX_BODY_BYTES));
        assertEquals(20_000, settings.getInt(REST_MAX_CONCURRENT_QUERIES));
        assertEquals(new ComponentSpec(2, 100.0, 512.0, 256.0), settings.component(Component.FILTER_BOLT));
        assertFalse(settings.isSet(QUERY_MAX_DURATION));
        assertTrue(settings.passthrough().isEmpty());
    }

    @Test
    void everyComponentHasItsFourResourceKeys() {
        for (Component component : Component.values()) {
            for (String key : List.of(component.parallelismKey(), component.cpuLoadKey(),
                    component.onHeapMemoryKey(), component.offHeapMemoryKey())) {
                assertTrue(DEFINITIONS.containsKey(key), key);
                assertTrue(key.startsWith("bullet.topology." + component.segment() + "."), key);
            }
            assertNotNull(BulletSettings.defaults().component(component));
        }
    }

    @Test
    void seedSettingsBlockLoadsVerbatimWithTheSeedsMeaning() {
        BulletSettings settings = BulletSettings.load(resource("config/seed_settings.yaml"), Map.of());

        assertTrue(settings.getBoolean(METRICS_ENABLE));
        assertTrue(settings.getBoolean(METRICS_BUILT_IN_ENABLE));
        assertEquals(5, settings.metricEmitIntervalSecs("bullet_active_queries"));
        assertEquals(60, settings.metricEmitIntervalSecs("bullet_filter_latency"));
        assertEquals(List.of("package.containing.our.custom.class.pushing.metrics"), settings.getList(METRICS_CLASSES));
        assertEquals(1000L, settings.tickIntervalMs());
        assertEquals(30_000L, settings.getLong(QUERY_DEFAULT_DURATION));
        assertEquals(540_000L, settings.getLong(QUERY_MAX_DURATION));
        assertEquals(512, settings.getInt(QUERY_AGGREGATION_MAX_SIZE));
        assertEquals(500, settings.getInt(QUERY_AGGREGATION_RAW_MAX_SIZE));
        assertEquals(200, settings.getInt(QUERY_AGGREGATION_DISTRIBUTION_MAX_POINTS));
    }

    @Test
    void seedMemoryChangeIsAcceptedAsADouble() {
        BulletSettings settings = BulletSettings.builder()
                .yaml("bullet.topology.filter.bolt.memory.on.heap.load: 1024.0\n", "test.yaml").build();

        assertEquals(1024.0, settings.component(Component.FILTER_BOLT).onHeapMemoryMiB());
        assertEquals(1024.0, settings.getDouble(Component.FILTER_BOLT.onHeapMemoryKey()));
    }

    @Test
    void integersAreAcceptedWhereNumbersAndLongsAreExpected() {
        BulletSettings settings = BulletSettings.builder().yaml("""
                bullet.topology.filter.bolt.cpu.load: 150
                bullet.query.max.duration: 600000
                """, "test.yaml").build();

        assertEquals(150.0, settings.component(Component.FILTER_BOLT).cpuLoad());
        assertEquals(600_000L, settings.getLong(QUERY_MAX_DURATION));
    }

    @Test
    void tickMillisecondsWinOverSecondsWhenBothAreSet() {
        BulletSettings both = BulletSettings.builder().yaml("""
                bullet.topology.tick.interval.secs: 1
                bullet.topology.tick.spout.interval.ms: 50
                """, "test.yaml").build();
        BulletSettings secondsOnly = BulletSettings.builder()
                .yaml("bullet.topology.tick.interval.secs: 1\n", "test.yaml").build();
        BulletSettings secondsFromFileMillisecondsFromFlag = BulletSettings.builder()
                .yaml("bullet.topology.tick.interval.secs: 1\n", "test.yaml")
                .override(TICK_SPOUT_INTERVAL_MS, "20").build();

        assertEquals(50L, both.tickIntervalMs());
        assertEquals(1000L, secondsOnly.tickIntervalMs());
        assertEquals(20L, secondsFromFileMillisecondsFromFlag.tickIntervalMs());
    }

    @Test
    void unknownBulletKeyIsRejectedWithASuggestion() {
        SettingsException e = assertThrows(SettingsException.class, () -> BulletSettings.builder()
                .yaml("bullet.query.max.duraton: 1000\n", "my.yaml").build());

        assertEquals(1, e.problems().size());
        String problem = e.problems().get(0);
        assertTrue(problem.startsWith("bullet.query.max.duraton (in my.yaml): unknown setting"), problem);
        assertTrue(problem.contains("did you mean bullet.query.max.duration?"), problem);
    }

    @Test
    void unknownBulletKeyFarFromAnyKeyIsRejectedWithoutASuggestion() {
        SettingsException e = assertThrows(SettingsException.class, () -> BulletSettings.builder()
                .yaml("bullet.something.completely.different.here: 1\n", "my.yaml").build());

        assertFalse(e.problems().get(0).contains("did you mean"), e.getMessage());
    }

    @Test
    void allowedOriginsAndHostsAreWrittenAsABrowserSendsThem() {
        BulletSettings fine = BulletSettings.builder().yaml("""
                bullet.rest.allowed.origins: ["http://app.example.com:80", "HTTPS://a.example.com", "http://[::1]:8080"]
                bullet.rest.allowed.hosts: ["app.example.com", "10.0.0.7:9999", "[::1]", "*"]
                """, "my.yaml").build();
        assertEquals(3, fine.getList(SettingsTable.REST_ALLOWED_ORIGINS).size());
        SettingsException e = assertThrows(SettingsException.class, () -> BulletSettings.builder().yaml("""
                bullet.rest.allowed.origins: ["evil.example", "http://a.example.com/app", "ftp://a.example.com"]
                bullet.rest.allowed.hosts: ["*.example.com", "http://b.example.com", "b.example.com/x"]
                """, "my.yaml").build());
        assertEquals(2, e.problems().size(), e.getMessage());
        assertTrue(e.problems().get(0).contains("bullet.rest.allowed.origins") && e.problems().get(0).contains("evil.example"),
                   e.getMessage());
        assertTrue(e.problems().get(1).contains("bullet.rest.allowed.hosts") && e.problems().get(1).contains("*.example.com"),
                   e.getMessage());
    }

    @Test
    void theOriginalBulletsKeysAreTakenIgnoredWithAWarningOrRefusedWithTheReason() {
        BulletSettings settings = BulletSettings.builder().yaml("""
                bullet.query.max.duration.ms: 120000
                bullet.query.default.duration.ms: .inf
                bullet.query.window.min.emit.every.ms: 2000
                bullet.topology.bullet.spout.parallelism: 4
                bullet.topology.bullet.spout.class.name:
                bullet.topology.return.bolt.parallelism: 3
                bullet.pubsub.class.name: "com.yahoo.bullet.kafka.KafkaPubSub"
                bullet.pubsub.context.name: "QUERY_PROCESSING"
                bullet.pubsub.kafka.producer.acks: "all"
                bullet.pubsub.kafka.consumer.max.poll.records: 200
                bullet.pubsub.kafka.consumer.group.id: "bullet-query-consumer"
                bullet.pubsub.kafka.producer.key.serializer: "org.apache.kafka.common.serialization.StringSerializer"
                bullet.query.aggregation.count.distinct.sketch.sampling: 1.0
                bullet.query.partitioner.enable: false
                bullet.topology.loop.bolt.parallelism: 2
                bullet.topology.dsl.spout.enable: false
                """, "original.yaml").build();
        assertEquals(120_000L, settings.getLong(SettingsTable.QUERY_MAX_DURATION));
        assertEquals(BulletSettings.defaults().getLong(SettingsTable.QUERY_DEFAULT_DURATION),
                     settings.getLong(SettingsTable.QUERY_DEFAULT_DURATION), ".inf keeps the bound");
        assertEquals(2000L, settings.getLong(SettingsTable.QUERY_WINDOW_MIN_EMIT_EVERY));
        assertEquals(4, settings.component(Component.DATASOURCE_SPOUT).parallelism());
        assertEquals(3, settings.component(Component.RESULT_BOLT).parallelism());
        assertEquals("", settings.getString(SettingsTable.DATASOURCE_SPOUT_CLASS_NAME));
        assertEquals(Map.of("acks", "all", "max.poll.records", "200"),
                     settings.getProperties(SettingsTable.PUBSUB_KAFKA_PROPERTIES));
        List<String> warnings = settings.warnings();
        for (String ignored : List.of("bullet.query.default.duration.ms", "bullet.pubsub.class.name",
                                      "bullet.pubsub.context.name", "bullet.pubsub.kafka.consumer.group.id",
                                      "bullet.pubsub.kafka.producer.key.serializer",
                                      "bullet.query.aggregation.count.distinct.sketch.sampling",
                                      "bullet.query.partitioner.enable", "bullet.topology.loop.bolt.parallelism",
                                      "bullet.topology.dsl.spout.enable")) {
            assertTrue(warnings.stream().anyMatch(w -> w.startsWith(ignored + " (in original.yaml)")), ignored + ": " + warnings);
        }
        assertEquals(9, warnings.size(), warnings.toString());

        SettingsException e = assertThrows(SettingsException.class, () -> BulletSettings.builder().yaml("""
                bullet.pubsub.class.name: "com.yahoo.bullet.storm.drpc.DRPCPubSub"
                bullet.query.window.disable: true
                bullet.topology.dsl.spout.enable: true
                """, "original.yaml").build());
        assertEquals(3, e.problems().size(), e.getMessage());
        assertTrue(e.problems().get(0).contains("PubSub is Kafka"), e.getMessage());
    }

    @Test
    void theOriginalBulletsListOfMetadataNamesIsReadAsRenames() {
        BulletSettings settings = BulletSettings.builder().yaml("""
                bullet.result.metadata.metrics:
                  - name: "Query Identifier"
                    key: "id"
                  - name: "Query Body"
                    key: "query"
                  - name: "Sketch Theta"
                    key: "Theta"
                  - name: "Query Object"
                    key: "object"
                """, "original.yaml").build();
        assertEquals(Map.of("query_id", "id", "query", "query", "theta", "Theta"),
                     settings.getStringMap(SettingsTable.RESULT_METADATA_METRICS));
        assertEquals(1, settings.warnings().size(), settings.warnings().toString());
        assertTrue(settings.warnings().get(0).contains("Query Object"), settings.warnings().toString());
    }

    @Test
    void aMisspeltBulletKeyIsNotPassedToStormInSilence() {
        SettingsException e = assertThrows(SettingsException.class, () -> BulletSettings.builder().yaml("""
                Bullet.query.max.duration: 1000
                bulet.query.max.duration: 1000
                bullet_query_max_duration: 1000
                topology.max.spout.pending: 30
                """, "my.yaml").build());
        assertEquals(3, e.problems().size(), e.getMessage());
        for (String problem : e.problems()) {
            assertTrue(problem.contains("did you mean bullet.query.max.duration?"), problem);
        }
    }

    @Test
    void nonBulletKeysArePassedThroughUnchecked() {
        BulletSettings settings = BulletSettings.builder().yaml("""
                topology.max.spout.pending: 30
                topology.worker.gc.childopts: "-XX:+UseG1GC"
                kafka.consumer.max.poll.records: 500
                """, "test.yaml").override("topology.acker.executors", "4").build();

        assertEquals(Map.of("topology.max.spout.pending", 30, "topology.worker.gc.childopts", "-XX:+UseG1GC",
                "kafka.consumer.max.poll.records", 500, "topology.acker.executors", "4"), settings.passthrough());
    }

    @Test
    void wrongTypeIsRejectedNamingTheKeyTheTypeAndTheValue() {
        SettingsException e = assertThrows(SettingsException.class, () -> BulletSettings.builder()
                .yaml("bullet.query.max.duration: thirty seconds\n", "my.yaml").build());

        assertEquals(List.of("bullet.query.max.duration (in my.yaml): expected a long integer, "
                + "got a string \"thirty seconds\""), e.problems());
    }

    @Test
    void fractionIsNotAnIntegerAndBooleanIsNotAString() {
        SettingsException e = assertThrows(SettingsException.class, () -> BulletSettings.builder().yaml("""
                bullet.topology.filter.bolt.parallelism: 2.5
                bullet.topology.name: no
                bullet.topology.metrics.built.in.emit.interval.mapping:
                  default: often
                """, "my.yaml").build());

        assertEquals(3, e.problems().size(), e.getMessage());
        assertTrue(e.problems().get(0).contains("bullet.topology.filter.bolt.parallelism"), e.getMessage());
        assertTrue(e.problems().get(0).contains("expected an integer, got a number 2.5"), e.getMessage());
        assertTrue(e.problems().get(1).contains("bullet.topology.name"), e.getMessage());
        assertTrue(e.problems().get(1).contains("expected a string, got a boolean false"), e.getMessage());
        assertTrue(e.problems().get(2).contains("entry \"default\": expected an integer"), e.getMessage());
    }

    @Test
    void outOfRangeIsRejectedNamingTheKeyAndTheRange() {
        SettingsException e = assertThrows(SettingsException.class, () -> BulletSettings.builder().yaml("""
                bullet.topology.tick.spout.interval.ms: 0
                bullet.query.aggregation.count.distinct.sketch.entries: 1000
                bullet.topology.datasource.kafka.auto.offset.reset: newest
                """, "my.yaml").build());

        assertEquals(List.of(
                "bullet.topology.tick.spout.interval.ms (in my.yaml): must be between 1 and 10000, got 0",
                "bullet.query.aggregation.count.distinct.sketch.entries (in my.yaml): "
                        + "must be a power of two between 16 and 67108864, got 1000",
                "bullet.topology.datasource.kafka.auto.offset.reset (in my.yaml): "
                        + "must be one of [latest, earliest], got \"newest\""), e.problems());
    }

    @Test
    void crossKeyRulesAreChecked() {
        SettingsException e = assertThrows(SettingsException.class, () -> BulletSettings.builder().yaml("""
                bullet.query.max.duration: 10000
                bullet.query.default.duration: 20000
                bullet.query.aggregation.max.size: 100
                bullet.pubsub.kafka.response.topic.name: bullet.queries
                bullet.topology.tick.interval.secs: 2
                """, "my.yaml").build());

        assertEquals(4, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().contains(
                "bullet.query.default.duration (20000) must not be larger than bullet.query.max.duration (10000)"));
        assertTrue(e.getMessage().contains("bullet.query.aggregation.default.size (500) must not be larger than "
                + "bullet.query.aggregation.max.size (100)"));
        assertTrue(e.getMessage().contains("must be different topics"));
        assertTrue(e.getMessage().contains("the tick interval (2000 ms)"));
    }

    @Test
    void everyProblemIsReportedTogether() {
        SettingsException e = assertThrows(SettingsException.class, () -> BulletSettings.builder()
                .yaml("""
                        bullet.query.max.duraton: 1000
                        bullet.rest.port: 70000
                        bullet.topology.metrics.classes: {a: b}
                        """, "my.yaml")
                .override("bullet.topology.filter.bolt.parallelism", "many")
                .build());

        assertEquals(4, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().startsWith("Invalid Bullet settings (4 problems):"), e.getMessage());
        for (String key : List.of("bullet.query.max.duraton (in my.yaml)", "bullet.rest.port (in my.yaml)",
                "bullet.topology.metrics.classes (in my.yaml)", "bullet.topology.filter.bolt.parallelism (in overrides)")) {
            assertTrue(e.getMessage().contains(key), key + " in " + e.getMessage());
        }
    }

    @Test
    void badKeyIsNotReportedAgainByCrossKeyRules() {
        SettingsException e = assertThrows(SettingsException.class, () -> BulletSettings.builder()
                .yaml("bullet.query.max.duration: -5\n", "my.yaml").build());

        assertEquals(1, e.problems().size(), e.getMessage());
    }

    @Test
    void invalidYamlAndDuplicateKeysAreReported() {
        SettingsException broken = assertThrows(SettingsException.class, () -> BulletSettings.builder()
                .yaml("bullet.query.max.duration: [1, 2\n", "broken.yaml").build());
        SettingsException duplicate = assertThrows(SettingsException.class, () -> BulletSettings.builder().yaml("""
                bullet.query.max.duration: 1000
                bullet.query.max.duration: 2000
                """, "dup.yaml").build());
        SettingsException notAMap = assertThrows(SettingsException.class, () -> BulletSettings.builder()
                .yaml("- just\n- a list\n", "list.yaml").build());
        SettingsException missing = assertThrows(SettingsException.class, () -> BulletSettings.builder()
                .yaml(Path.of("no", "such", "file.yaml")).build());

        assertTrue(broken.getMessage().contains("broken.yaml is not valid YAML"), broken.getMessage());
        assertTrue(duplicate.getMessage().contains("bullet.query.max.duration"), duplicate.getMessage());
        assertTrue(notAMap.getMessage().contains("must be a map of keys to values"), notAMap.getMessage());
        assertTrue(missing.getMessage().contains("cannot read settings file"), missing.getMessage());
    }

    @Test
    void emptyFileMeansDefaults() {
        assertEquals(BulletSettings.defaults(), BulletSettings.builder().yaml("# nothing\n", "empty.yaml").build());
    }

    @Test
    void flagsOverrideTheYamlFile() {
        BulletSettings settings = BulletSettings.builder()
                .yaml("""
                        bullet.topology.datasource.spout.parallelism: 64
                        bullet.topology.datasource.spout.cpu.load: 100.0
                        bullet.topology.datasource.spout.class.name: com.example.MySpout
                        bullet.topology.datasource.spout.args: [a, b]
                        bullet.topology.acking.enable: true
                        """, "my.yaml")
                .overrides(Map.of(
                        Component.DATASOURCE_SPOUT.parallelismKey(), "8",
                        Component.DATASOURCE_SPOUT.onHeapMemoryKey(), "1280.0",
                        DATASOURCE_SPOUT_ARGS, List.of("x"),
                        TOPOLOGY_ACKING_ENABLE, "false"))
                .build();

        assertEquals(new ComponentSpec(8, 100.0, 1280.0, 256.0), settings.component(Component.DATASOURCE_SPOUT));
        assertEquals(List.of("x"), settings.getList(DATASOURCE_SPOUT_ARGS));
        assertFalse(settings.getBoolean(TOPOLOGY_ACKING_ENABLE));
        assertTrue(settings.isSet(Component.DATASOURCE_SPOUT.parallelismKey()));
    }

    @Test
    void mapsAreMergedWithTheirDefaultsEntryByEntry() {
        BulletSettings settings = BulletSettings.builder()
                .yaml("""
                        bullet.topology.metrics.built.in.emit.interval.mapping:
                          bullet_filter_latency: 10
                        bullet.result.metadata.metrics:
                          query_id: id
                        """, "my.yaml")
                .override(METRICS_BUILT_IN_EMIT_INTERVAL_MAPPING, Map.of("default", "30"))
                .build();

        assertEquals(Map.of("default", 30, "bullet_filter_latency", 10),
                settings.getIntMap(METRICS_BUILT_IN_EMIT_INTERVAL_MAPPING));
        assertEquals(30, settings.metricEmitIntervalSecs("bullet_records_decoded"));
        assertEquals("id", settings.metadataName("query_id"));
        assertEquals("query", settings.metadataName("query"));
    }

    @Test
    void unknownMetadataNameIsRejected() {
        SettingsException e = assertThrows(SettingsException.class, () -> BulletSettings.builder()
                .yaml("bullet.result.metadata.metrics: {query_idd: id}\n", "my.yaml").build());

        assertTrue(e.getMessage().contains("unknown names [query_idd]"), e.getMessage());
    }

    @Test
    void readingAnUndefinedKeyOrWithTheWrongTypeIsABug() {
        BulletSettings settings = BulletSettings.defaults();

        assertThrows(IllegalArgumentException.class, () -> settings.getInt("bullet.no.such.key"));
        assertThrows(IllegalArgumentException.class, () -> settings.getInt(QUERY_MAX_DURATION));
        assertThrows(IllegalArgumentException.class, () -> settings.getString(REST_PORT));
        assertThrows(IllegalArgumentException.class, () -> settings.getInt(TICK_INTERVAL_SECS));
        assertThrows(IllegalArgumentException.class, () -> settings.metadataName("nope"));
        assertEquals(9999L, settings.getLong(REST_PORT));
    }

    @Test
    void settingsSurviveJavaSerialization() throws Exception {
        BulletSettings settings = BulletSettings.load(resource("config/seed_settings.yaml"),
                Map.of("topology.workers", 3, "topology.list", List.of("a", "b")));

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(settings);
        }
        BulletSettings copy;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (BulletSettings) in.readObject();
        }

        assertEquals(settings, copy);
        assertEquals(1000L, copy.tickIntervalMs());
        assertEquals(5, copy.metricEmitIntervalSecs("bullet_active_queries"));
    }

    @Test
    void settingsFileIsTheTableRendered() throws IOException {
        assertEquals(SettingsTable.toYaml(), Files.readString(CONF_FILE, StandardCharsets.UTF_8),
                "conf/bullet_settings.yaml drifted from SettingsTable; regenerate it with "
                        + "java -cp target/classes dev.bullet.config.SettingsTable > conf/bullet_settings.yaml");
        try (InputStream in = getClass().getResourceAsStream("/bullet_defaults.yaml")) {
            assertNotNull(in, "bullet_defaults.yaml is missing from the jar's resources");
            assertEquals(SettingsTable.toYaml(), new String(in.readAllBytes(), StandardCharsets.UTF_8),
                    "src/main/resources/bullet_defaults.yaml drifted from SettingsTable");
        }
    }

    @Test
    void settingsFileHasEveryKeyWithItsDefault() throws IOException {
        String text = Files.readString(CONF_FILE, StandardCharsets.UTF_8);
        Map<String, Object> parsed = new Yaml().load(text);

        for (Setting setting : DEFINITIONS.values()) {
            if (setting.commented()) {
                assertFalse(parsed.containsKey(setting.name()), setting.name());
                assertTrue(text.contains("\n# " + setting.name() + ": " + setting.documentedValue() + "\n"),
                        setting.name() + " is not shown commented out");
            } else {
                List<String> problems = new ArrayList<>();
                Object value = setting.parse(parsed.get(setting.name()), problems).orElse(null);
                assertEquals(setting.defaultValue(), value, setting.name() + " " + problems);
            }
        }
        assertEquals(DEFINITIONS.values().stream().filter(s -> !s.commented()).count(), parsed.size());
        assertEquals(BulletSettings.defaults().toString(), BulletSettings.load(CONF_FILE, Map.of()).toString());
    }

    private static Path resource(String name) {
        try {
            return Path.of(SettingsTest.class.getClassLoader().getResource(name).toURI());
        } catch (Exception e) {
            throw new IllegalStateException("missing test resource " + name, e);
        }
    }
}

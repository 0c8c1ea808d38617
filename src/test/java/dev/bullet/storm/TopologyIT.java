package dev.bullet.storm;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.Component;
import dev.bullet.config.SettingsTable;
import dev.bullet.local.EmbeddedKafka;
import dev.bullet.local.LocalTopology;
import dev.bullet.pubsub.KafkaPubSub;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.Result;
import dev.bullet.querying.ResultJson;
import dev.bullet.tools.OfflineRunner;
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

import java.io.BufferedReader;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The whole topology on a real embedded Kafka broker in Storm's LocalCluster, with 2 Filter tasks: queries go in on
 * the request topic, records on the firehose, results come back on the response topic.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class TopologyIT {
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private EmbeddedKafka kafka;
    private LocalTopology topology;
    private KafkaPubSub pubSub;
    private Publisher queries;
    private Subscriber results;
    private KafkaProducer<byte[], byte[]> firehose;
    private String topic;
    private final Map<String, List<Map<String, Object>>> received = new HashMap<>();

    @BeforeAll
    void start(@TempDir Path dir) {
        kafka = EmbeddedKafka.onFreePorts(dir);
        kafka.start();
        BulletSettings settings = BulletSettings.load(null, Map.of(
                Component.FILTER_BOLT.parallelismKey(), 2,
                SettingsTable.TOPOLOGY_NAME, "topology-it",
                SettingsTable.PUBSUB_KAFKA_RESPONSE_PARTITIONS, 2,
                SettingsTable.QUERY_WINDOW_MIN_EMIT_EVERY, 1000));
        topology = LocalTopology.start(kafka, settings);
        topic = topology.settings().getString(SettingsTable.DATASOURCE_KAFKA_TOPIC);
        pubSub = new KafkaPubSub(KafkaPubSubFactory.config(topology.settings()));
        results = pubSub.responseSubscriber(List.of(1));
        queries = pubSub.requestPublisher();
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        firehose = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        awaitTopologyAnswers();
    }

    @AfterAll
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {firehose, queries, results, topology, kafka}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort: the broker's temp dir goes with @TempDir
            }
        }
    }

    /** Sends short probe queries until one answers: the query spout has joined and the topology runs. */
    private void awaitTopologyAnswers() {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            String id = submit("{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":1000}");
            if (awaitFinal(id, Duration.ofSeconds(5)) != null) {
                return;
            }
        }
        fail("the topology never answered a query");
    }

    private String submit(String query) {
        String id = UUID.randomUUID().toString();
        queries.send(PubSubMessage.query(id, query, 1));
        return id;
    }

    private void produce(String... records) {
        for (String r : records) {
            firehose.send(new ProducerRecord<>(topic, r.getBytes(StandardCharsets.UTF_8)));
        }
        firehose.flush();
    }

    /** Polls the response topic until the query's final result arrives; returns every result of it in order. */
    private List<Map<String, Object>> awaitFinal(String id, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            List<Map<String, Object>> mine = received.get(id);
            if (mine != null && !mine.isEmpty() && Boolean.TRUE.equals(mine.get(mine.size() - 1).get("__final"))) {
                return mine;
            }
            for (PubSubMessage m : results.receive(Duration.ofMillis(200))) {
                Map<String, Object> result = ResultJson.parseMap(m.payload());
                result.put("__final", m.signal() == Signal.COMPLETE);
                received.computeIfAbsent(m.id(), k -> new ArrayList<>()).add(result);
            }
        }
        return null;
    }

    /** Makes sure every query sent before now reached the Filter tasks: a probe sent after them finds a marker. */
    private void awaitQueriesRegistered() {
        String marker = "marker-" + UUID.randomUUID();
        String probe = submit("{\"filters\":[{\"field\":\"marker\",\"operation\":\"==\",\"values\":[\"" + marker
                              + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":60000}");
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            produce("{\"marker\":\"" + marker + "\"}");
            if (awaitFinal(probe, Duration.ofMillis(500)) != null) {
                return;
            }
        }
        fail("queries never reached the Filter tasks");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> records(Map<String, Object> result) {
        return (List<Map<String, Object>>) result.get("records");
    }

    @Test
    void rawQueryFindsTheRecordsAndItsResultArrivesOnTheResponseTopic() {
        String wanted = "c39ba8cfe8";
        String id = submit("{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"" + wanted
                           + "\"]}],\"aggregation\":{\"type\":\"LIMIT\",\"size\":3},\"duration\":60000}");
        awaitQueriesRegistered();
        produce("{\"id\":\"other\",\"n\":0}", "{\"id\":\"c39ba8cfe8\",\"n\":1}", "not json at all",
                "{\"id\":\"c39ba8cfe8\",\"n\":2}", "[1,2]", "{\"id\":\"c39ba8cfe8\",\"n\":3}");
        List<Map<String, Object>> out = awaitFinal(id, DEADLINE);
        assertNotNull(out, "no final result");
        List<Map<String, Object>> rows = records(out.get(out.size() - 1));
        assertEquals(3, rows.size(), "the malformed messages are skipped, the query still finds all three: " + rows);
        assertTrue(rows.stream().allMatch(r -> wanted.equals(r.get("id"))));
    }

    @Test
    void aggregationsOverTwoFilterTasksEqualTheOfflineRunner() throws Exception {
        String batch = UUID.randomUUID().toString();
        String filter = "\"filters\":[{\"field\":\"batch\",\"operation\":\"==\",\"values\":[\"" + batch + "\"]}]";
        List<String> queryTexts = List.of(
                "{" + filter + ",\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"kind\":\"kind\"},\"attributes\":"
                + "{\"operations\":[{\"type\":\"COUNT\"},{\"type\":\"SUM\",\"field\":\"n\"},{\"type\":\"MAX\",\"field\":\"n\"}]}},\"duration\":8000}",
                "{" + filter + ",\"aggregation\":{\"type\":\"COUNT DISTINCT\",\"fields\":{\"n\":\"n\"}},\"duration\":8000}",
                "{" + filter + ",\"aggregation\":{\"type\":\"TOP K\",\"size\":3,\"fields\":{\"kind\":\"kind\"}},\"duration\":8000}");
        List<String> ids = new ArrayList<>();
        for (String q : queryTexts) {
            ids.add(submit(q));
        }
        awaitQueriesRegistered();
        StringBuilder lines = new StringBuilder();
        String[] records = new String[300];
        for (int i = 0; i < records.length; i++) {
            records[i] = "{\"batch\":\"" + batch + "\",\"kind\":\"k" + (i % 7) + "\",\"n\":" + (i % 41) + "}";
            lines.append(records[i]).append('\n');
        }
        produce(records);
        for (int i = 0; i < ids.size(); i++) {
            List<Map<String, Object>> out = awaitFinal(ids.get(i), DEADLINE);
            assertNotNull(out, "no final result for " + queryTexts.get(i));
            List<Result> offline = new ArrayList<>();
            new OfflineRunner(QuerySettings.from(topology.settings()), () -> 0L)
                    .run(queryTexts.get(i), new BufferedReader(new StringReader(lines.toString())), offline::add,
                         new PrintStream(PrintStream.nullOutputStream()));
            Object expected = ResultJson.parseMap(offline.get(offline.size() - 1).toJson()).get("records");
            assertEquals(expected, out.get(out.size() - 1).get("records"), queryTexts.get(i));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void timeWindowedQueryEmitsOneResultPerWindowOnTime() {
        String id = submit("{\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}},"
                           + "\"window\":{\"emit\":{\"type\":\"TIME\",\"every\":1000}},\"duration\":3500}");
        List<Map<String, Object>> out = awaitFinal(id, DEADLINE);
        assertNotNull(out);
        assertEquals(4, out.size(), "three closed windows and the final result: " + out);
        for (int i = 0; i < 3; i++) {
            Map<String, Object> window = (Map<String, Object>) ((Map<String, Object>) out.get(i).get("meta")).get("window");
            assertEquals((long) (i + 1), window.get("number"));
            long late = (Long) window.get("emit_time") - (Long) window.get("expected_emit_time");
            assertTrue(late >= 0 && late < 1000, "window " + (i + 1) + " emitted " + late + " ms late");
        }
    }

    @Test
    void killedQueryStopsAndProducesNothingMore() {
        String wanted = "kill-" + UUID.randomUUID();
        String id = submit("{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"" + wanted
                           + "\"]}],\"aggregation\":{\"type\":\"LIMIT\",\"size\":1},\"duration\":60000}");
        awaitQueriesRegistered();
        queries.send(PubSubMessage.signal(id, Signal.KILL, 1));
        // a later query sent after the KILL proves the KILL was processed before the record below
        awaitQueriesRegistered();
        produce("{\"id\":\"" + wanted + "\"}");
        String after = submit("{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"" + wanted
                              + "\"]}],\"aggregation\":{\"type\":\"LIMIT\",\"size\":1},\"duration\":60000}");
        awaitQueriesRegistered();
        produce("{\"id\":\"" + wanted + "\"}");
        assertNotNull(awaitFinal(after, DEADLINE), "a live query finds the record");
        assertFalse(received.containsKey(id), "the killed query must not answer");
    }
}

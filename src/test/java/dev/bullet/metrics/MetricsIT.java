package dev.bullet.metrics;

import dev.bullet.BulletException;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.record.JsonCodec;
import dev.bullet.storm.BulletTopology;
import dev.bullet.testing.TopologyHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Metrics in LocalCluster (SPEC §8): the json-log file, the Prometheus endpoint, two workers, bad class names. */
@Timeout(300)
class MetricsIT {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static Map<String, Object> metricsOn(Path file, int prometheusPort, int workers) {
        return Map.of(SettingsTable.METRICS_ENABLE, true,
                      SettingsTable.METRICS_BUILT_IN_ENABLE, true,
                      SettingsTable.METRICS_BUILT_IN_EMIT_INTERVAL_MAPPING, Map.of("default", 1),
                      SettingsTable.METRICS_CLASSES, List.of("json-log", "prometheus"),
                      SettingsTable.METRICS_JSON_PATH, file.toString(),
                      SettingsTable.METRICS_PROMETHEUS_PORT, prometheusPort,
                      SettingsTable.TOPOLOGY_WORKERS, workers,
                      SettingsTable.TOPOLOGY_NAME, "metrics-it-" + workers);
    }

    /** Polls the json-log file until a data point matches. */
    private static Map<String, Object> awaitPoint(Path file, Predicate<Map<String, Object>> wanted) throws IOException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(file)) {
                for (String line : Files.readAllLines(file)) {
                    Map<String, Object> point = JsonCodec.parseMap(line);
                    if (wanted.test(point)) {
                        return point;
                    }
                }
            }
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // poll interval
        }
        return null;
    }

    private static Predicate<Map<String, Object>> named(String name) {
        return p -> name.equals(p.get("name"));
    }

    @Test
    void jsonLogAndPrometheusReceiveCpuHeapGcLatencyAndActiveQueries(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("metrics.jsonl");
        int port = freePort();
        try (TopologyHarness stack = TopologyHarness.start(dir.resolve("kafka"), metricsOn(file, port, 1))) {
            String id = stack.submit("{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"m1\"]}],"
                                     + "\"aggregation\":{\"type\":\"RAW\",\"size\":5},\"duration\":4000}");
            stack.awaitQueriesRegistered();
            stack.produce("{\"id\":\"m1\"}", "{\"id\":\"m2\"}");
            Map<String, Object> active = awaitPoint(file, p -> BulletMetricsNames.ACTIVE.equals(p.get("name"))
                                                               && ((Number) p.get("value")).longValue() > 0);
            assertNotNull(active, "bullet_active_queries goes up while a query runs");
            for (String name : List.of("cpu.process.ms", "memory.heap.used", "memory.heap.max", "bullet_records_decoded")) {
                assertNotNull(awaitPoint(file, named(name)), name);
            }
            assertNotNull(awaitPoint(file, p -> String.valueOf(p.get("name")).matches("GC\\..+\\.(count|time)")), "GC");
            Map<String, Object> latency = awaitPoint(file, named("bullet_filter_latency"));
            assertNotNull(latency, "filter latency");
            assertTrue(((Map<?, ?>) latency.get("value")).keySet().containsAll(List.of("mean", "p50", "p99", "max")));
            assertNotNull(stack.awaitFinal(id, WAIT));
            long after = System.currentTimeMillis() / 1000 * 1000;
            assertNotNull(awaitPoint(file, p -> BulletMetricsNames.ACTIVE.equals(p.get("name"))
                                                && ((Number) p.get("value")).longValue() == 0
                                                && ((Number) p.get("timestamp")).longValue() > after),
                          "bullet_active_queries goes down when the query ends");

            HttpResponse<String> scrape = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, scrape.statusCode());
            assertTrue(scrape.body().contains("bullet_active_queries{"), scrape.body());
            assertTrue(scrape.body().contains("memory_heap_used{"), scrape.body());
        }
    }

    @Test
    void twoWorkerTopologyWithAConsumerStaysAlive(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("metrics.jsonl");
        try (TopologyHarness stack = TopologyHarness.start(dir.resolve("kafka"), metricsOn(file, freePort(), 2))) {
            assertNotNull(awaitPoint(file, named("memory.heap.used")), "metrics flow with two workers");
            String id = stack.submit("{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"w2\"]}],"
                                     + "\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":30000}");
            stack.awaitQueriesRegistered();
            stack.produce("{\"id\":\"w2\"}");
            assertNotNull(stack.awaitFinal(id, WAIT), "the topology still answers after metrics crossed workers");
        }
    }

    @Test
    void misspelledConsumerClassIsRejectedAtSubmissionWithItsName() {
        BulletSettings settings = BulletSettings.load(null, Map.of(
                SettingsTable.METRICS_ENABLE, true,
                SettingsTable.METRICS_CLASSES, List.of("json-log", "com.example.NoSuchConsumer")));
        BulletException e = assertThrows(BulletException.class, () -> BulletTopology.config(settings));
        assertTrue(e.getMessage().contains("com.example.NoSuchConsumer"), e.getMessage());
        assertTrue(e.getMessage().contains(SettingsTable.METRICS_CLASSES), e.getMessage());
    }

    /** Names used by the assertions. */
    private static final class BulletMetricsNames {
        static final String ACTIVE = "bullet_active_queries";
    }
}

package dev.bullet.storm;

import dev.bullet.record.JsonCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;

import static dev.bullet.storm.StormClusterFixture.offline;
import static dev.bullet.storm.StormClusterFixture.records;
import static dev.bullet.storm.StormClusterFixture.sorted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The topology jar on a real multi-process Storm cluster ({@code scripts/storm-cluster.sh}: ZooKeeper, Nimbus and two
 * Supervisors as separate JVMs, four real worker JVMs) with cross-worker shuffles
 * ({@code topology.disable.loadaware.messaging: true}), so records, partials and metrics all cross workers through
 * Kryo. Every aggregation gives the offline runner's answer, and metrics arrive from every worker. What happens when
 * a worker, the broker or the assignment fails mid-query is {@link FailureExactnessIT}'s.
 * One cluster serves the whole class.
 */
@Timeout(900)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StormClusterIT {
    @TempDir
    static Path dir;
    private static Path metrics;
    private static StormClusterFixture cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        metrics = dir.resolve("metrics.jsonl");
        cluster = StormClusterFixture.start(dir, List.of(
                "bullet.topology.name: bullet-cluster-it",
                "bullet.topology.workers: 4",
                "bullet.topology.filter.bolt.parallelism: 4",
                "bullet.topology.datasource.bolt.parallelism: 2",
                "topology.disable.loadaware.messaging: true",
                "bullet.topology.metrics.enable: true",
                "bullet.topology.metrics.built.in.enable: true",
                "bullet.topology.metrics.built.in.emit.interval.mapping:",
                "  default: 5",
                "bullet.topology.metrics.classes: [json-log]",
                "bullet.topology.metrics.json.path: " + metrics), 1);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.stop();
        }
    }

    // ------------------------------------------------------------------------------------------------ the tests

    @Test
    @Order(1)
    void everyAggregationAcrossWorkersEqualsTheOfflineRunner() throws Exception {
        String run = "agg-" + UUID.randomUUID();
        String filter = "\"filters\":[{\"field\":\"run\",\"operation\":\"==\",\"values\":[\"" + run + "\"]}]";
        Map<String, String> byName = new LinkedHashMap<>();
        byName.put("RAW", "{" + filter + ",\"aggregation\":{\"type\":\"RAW\",\"size\":500},\"duration\":25000}");
        byName.put("GROUP", "{" + filter + ",\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"g\":\"g\"},\"attributes\":"
                            + "{\"operations\":[{\"type\":\"COUNT\"},{\"type\":\"SUM\",\"field\":\"v\",\"newName\":\"s\"}]}},"
                            + "\"duration\":25000}");
        byName.put("COUNT DISTINCT", "{" + filter + ",\"aggregation\":{\"type\":\"COUNT DISTINCT\",\"fields\":{\"u\":\"u\"}},"
                                     + "\"duration\":25000}");
        byName.put("TOP K", "{" + filter + ",\"aggregation\":{\"type\":\"TOP K\",\"size\":10,\"fields\":{\"u\":\"u\"}},"
                            + "\"duration\":25000}");
        byName.put("DISTRIBUTION", "{" + filter + ",\"aggregation\":{\"type\":\"DISTRIBUTION\",\"fields\":{\"v\":\"v\"},"
                                   + "\"attributes\":{\"type\":\"QUANTILE\",\"points\":[0,0.25,0.5,0.75,1]}},\"duration\":25000}");
        String windowed = "{" + filter + ",\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":"
                          + "[{\"type\":\"COUNT\"}]}},\"window\":{\"emit\":{\"type\":\"TIME\",\"every\":2000}},\"duration\":25000}";
        Map<String, String> ids = new LinkedHashMap<>();
        for (Map.Entry<String, String> q : byName.entrySet()) {
            ids.put(q.getKey(), cluster.send(q.getValue()));
        }
        String windowedId = cluster.send(windowed);
        cluster.awaitQueriesRegistered(Duration.ofSeconds(60));

        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 240; i++) {
            lines.add("{\"run\":\"" + run + "\",\"id\":\"r" + i + "\",\"g\":\"g" + (i % 4) + "\",\"u\":\"u" + (i % 30)
                      + "\",\"v\":" + (i % 17) + "}");
        }
        cluster.produce(lines);

        for (Map.Entry<String, String> q : byName.entrySet()) {
            List<Map<String, Object>> answer = cluster.awaitFinal(ids.get(q.getKey()), Duration.ofSeconds(90));
            assertEquals(sorted(offline(q.getValue(), lines).get(0)), sorted(records(answer.get(answer.size() - 1))),
                         q.getKey() + ": the cluster's answer equals the offline runner's");
        }
        long total = 0;
        for (Map<String, Object> window : cluster.awaitFinal(windowedId, Duration.ofSeconds(90))) {
            for (Map<String, Object> r : records(window)) {
                total += ((Number) r.get("COUNT")).longValue();
            }
        }
        assertEquals(lines.size(), total, "the windows of a windowed query together count every record once");
    }

    @Test
    @Order(2)
    void metricsArriveFromEveryWorker() throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        Set<Object> seen = new HashSet<>();
        while (System.nanoTime() < deadline) {
            if (Files.exists(metrics)) {
                for (String line : Files.readAllLines(metrics)) {
                    Map<String, Object> point = JsonCodec.parseMap(line);
                    if ("memory.heap.used".equals(point.get("name"))) {
                        seen.add(point.get("worker"));
                    }
                }
                if (seen.size() >= 4) {
                    return;
                }
            }
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos()); // poll interval
        }
        fail("metrics from 4 workers expected, saw " + seen);
    }
}

package dev.bullet.bench;

import dev.bullet.config.SettingsTable;
import dev.bullet.testing.TopologyHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pipeline benchmarks' client, both ways it can talk to the topology, against a real stack (embedded Kafka,
 * LocalCluster, the REST service on an ephemeral port): results arrive with their latencies, and a query that
 * completes is submitted again so the count stays.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ResultFlowIT {
    /** A RAW of one record: every stamped record completes one, so results and restarts keep coming. */
    private static final String QUERY = "{\"filters\":[{\"field\":\"kind\",\"operation\":\"==\",\"values\":[\"flow\"]}],"
                                        + "\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":60000}";

    @Test
    void resultsFlowThroughTheResponseTopicAndThroughTheRestService(@TempDir Path dir) throws Exception {
        Map<String, Object> overrides = new LinkedHashMap<>();
        overrides.put(SettingsTable.TOPOLOGY_NAME, "flow-it");
        overrides.put(SettingsTable.RECORD_INJECT_TIMESTAMP_ENABLE, true);
        overrides.put(SettingsTable.PUBSUB_KAFKA_RESPONSE_PARTITIONS, ResultFlow.PARTITION + 1);
        try (TopologyHarness stack = TopologyHarness.start(dir, overrides);
             PipelineBenchmark.RestFront rest = PipelineBenchmark.RestFront.start(stack)) {
            String filteredKey = stack.settings().getString(SettingsTable.RECORD_INJECT_TIMESTAMP_KEY);
            for (boolean viaRest : new boolean[] {false, true}) {
                try (ResultFlow flow = new ResultFlow(stack, List.of(QUERY), filteredKey, viaRest ? rest.base() : null)) {
                    flow.setQueries(3);
                    ResultFlow.Interval interval = flow.begin();
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                    long filtered = 0;
                    long results = 0;
                    double restarts = 0;
                    Map<String, Object> seen = Map.of();
                    while (System.nanoTime() < deadline && (filtered < 5 || results < 5 || restarts == 0)) {
                        long now = System.currentTimeMillis();
                        byte[] record = ("{\"kind\":\"flow\",\"n\":" + now + "}").getBytes(StandardCharsets.UTF_8);
                        stack.produce(new String(ResultFlow.stamp(record, now), StandardCharsets.UTF_8));
                        seen = flow.end(interval); // each call takes the latencies recorded since the last
                        filtered += count(seen, "produce_to_filtered_ms");
                        results += count(seen, "produce_to_result_ms");
                        restarts += ((Number) seen.get("restarts_per_second")).doubleValue(); // any interval's
                        TimeUnit.MILLISECONDS.sleep(50); // paces the records sent; the counts above end the loop
                    }
                    String how = viaRest ? "through the REST service" : "through the response topic";
                    assertTrue(filtered >= 5, how + ": " + filtered + " produce -> filtered, last " + seen);
                    assertTrue(results >= 5, how + ": " + results + " produce -> result, last " + seen);
                    assertTrue(restarts > 0, how + ": no query was submitted again; last " + seen);
                }
            }
            // a query the service refuses (400) is dropped, not sent again in a loop
            try (ResultFlow flow = new ResultFlow(stack, List.of("{\"aggregation\":{\"type\":\"NOPE\"}}"), filteredKey,
                                                  rest.base())) {
                ResultFlow.Interval interval = flow.begin();
                flow.setQueries(2);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (flow.running() > 0 && System.nanoTime() < deadline) {
                    TimeUnit.MILLISECONDS.sleep(20); // polls the condition, with a deadline
                }
                assertEquals(0, flow.running(), "refused queries are not running");
                assertEquals(0L, ((Number) flow.end(interval).get("restarts_per_second")).longValue());
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static long count(Map<String, Object> m, String key) {
        Object h = m.get(key);
        return h == null ? 0 : ((Number) ((Map<String, Object>) h).get("count")).longValue();
    }
}

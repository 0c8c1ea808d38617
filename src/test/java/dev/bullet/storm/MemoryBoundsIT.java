package dev.bullet.storm;

import dev.bullet.config.SettingsTable;
import dev.bullet.testing.TopologyHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bounds on what a query holds, on the real topology (embedded Kafka, LocalCluster): a query that would fill the
 * heap ends early with the {@code bullet.query.max.bytes} error while the other queries are answered exactly and the
 * worker goes on. The bound is lowered here (900,000 bytes) so queries cross it within a few seconds, and so their
 * final results, which carry the rows kept, still fit in one message of the response topic (Kafka's default 1 MiB).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class MemoryBoundsIT {
    private static final long MAX_BYTES = 900_000;
    private static final Duration DEADLINE = TopologyHarness.DEADLINE;
    private static final long COUNT_DURATION_MS = 15_000;

    private TopologyHarness stack;

    @BeforeAll
    void start(@TempDir Path dir) {
        stack = TopologyHarness.start(dir, Map.of(SettingsTable.QUERY_MAX_BYTES, MAX_BYTES,
                                                  SettingsTable.TOPOLOGY_NAME, "memory-bounds-it"));
    }

    @AfterAll
    void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    private static String filterOn(String run) {
        return "\"filters\":[{\"field\":\"run\",\"operation\":\"==\",\"values\":[\"" + run + "\"]}]";
    }

    private static String countQuery(String run) {
        return "{" + filterOn(run) + ",\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":"
               + "[{\"type\":\"COUNT\"}]}},\"duration\":" + COUNT_DURATION_MS + "}";
    }

    private static String record(String run, int i, int padBytes) {
        return "{\"run\":\"" + run + "\",\"i\":" + i + ",\"pad\":\"" + "x".repeat(padBytes) + "\"}";
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> records(Map<String, Object> result) {
        return (List<Map<String, Object>>) result.get("records");
    }

    @SuppressWarnings("unchecked")
    private static String errors(Map<String, Object> result) {
        Map<String, Object> meta = (Map<String, Object>) result.get("meta");
        Object errors = meta == null ? null : meta.get("errors");
        return errors == null ? "" : errors.toString();
    }

    private Map<String, Object> awaitLast(String id) {
        List<Map<String, Object>> results = stack.awaitFinal(id, DEADLINE);
        assertNotNull(results, "no final result for " + id);
        return results.get(results.size() - 1);
    }

    private static long count(Map<String, Object> result) {
        return ((Number) records(result).get(0).get("COUNT")).longValue();
    }

    @Test
    void recordWindowThatWouldHoldTooMuchEndsWithTheErrorWhileACountIsAnsweredExactly() {
        String run = UUID.randomUUID().toString();
        String hostile = stack.submit("{" + filterOn(run) + ",\"aggregation\":{\"type\":\"RAW\",\"size\":500},"
                                      + "\"window\":{\"emit\":{\"type\":\"RECORD\",\"every\":2000000000}},"
                                      + "\"duration\":600000}");
        String count = stack.submit(countQuery(run));
        stack.awaitQueriesRegistered();

        int produced = 0;
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        // 3 KB records: the window (clamped to 500 records) would hold 1.5 MB, the bound is 900 KB
        while (produced < 600 && System.nanoTime() < deadline) {
            String[] batch = new String[50];
            for (int i = 0; i < batch.length; i++) {
                batch[i] = record(run, produced++, 3_000);
            }
            stack.produce(batch);
        }

        Map<String, Object> ended = awaitLast(hostile);
        String error = errors(ended);
        assertTrue(error.contains("bullet.query.max.bytes"), "meta.errors: " + error);
        int kept = records(ended).size();
        assertTrue(kept > 0 && (long) kept * 3_000 <= MAX_BYTES, "rows kept: " + kept);

        Map<String, Object> counted = awaitLast(count);
        assertEquals("", errors(counted));
        assertEquals(produced, count(counted));
    }

    @Test
    void rawQueryOverOneMegabyteRecordsEndsWithTheErrorAndTheWorkerGoesOn() {
        String run = UUID.randomUUID().toString();
        String hostile = stack.submit("{" + filterOn(run) + ",\"aggregation\":{\"type\":\"RAW\",\"size\":500},"
                                      + "\"duration\":600000}");
        String count = stack.submit(countQuery(run));
        stack.awaitQueriesRegistered();

        int produced = 0;
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        // 500 records of ~1 MB would be 500 MB; the first one is already over the 900 KB bound
        while (produced < 40 && System.nanoTime() < deadline) {
            stack.produce(record(run, produced++, 1_000_000 - 100));
        }

        Map<String, Object> ended = awaitLast(hostile);
        String error = errors(ended);
        assertTrue(error.contains("bullet.query.max.bytes"), "meta.errors: " + error);
        assertTrue(records(ended).isEmpty(), "no ~1 MB row fits in 900 KB");

        Map<String, Object> counted = awaitLast(count);
        assertEquals(produced, count(counted));

        // the worker is still there: a new query is answered
        String after = UUID.randomUUID().toString();
        String probe = stack.submit("{" + filterOn(after) + ",\"aggregation\":{\"type\":\"RAW\",\"size\":1},"
                                    + "\"duration\":60000}");
        stack.awaitQueriesRegistered();
        stack.produce(record(after, 0, 10));
        assertEquals(1, records(awaitLast(probe)).size());
    }
}

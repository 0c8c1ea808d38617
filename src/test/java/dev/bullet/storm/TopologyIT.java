package dev.bullet.storm;

import dev.bullet.config.Component;
import dev.bullet.config.SettingsTable;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.Result;
import dev.bullet.record.JsonCodec;
import dev.bullet.testing.TopologyHarness;
import dev.bullet.tools.OfflineRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole topology on a real embedded Kafka broker in Storm's LocalCluster, with 2 Filter tasks: queries go in on
 * the request topic, records on the firehose, results come back on the response topic.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class TopologyIT {
    private static final Duration DEADLINE = TopologyHarness.DEADLINE;

    private TopologyHarness stack;

    @BeforeAll
    void start(@TempDir Path dir) {
        stack = TopologyHarness.start(dir, Map.of(Component.FILTER_BOLT.parallelismKey(), 2,
                                                  SettingsTable.TOPOLOGY_NAME, "topology-it"));
    }

    @AfterAll
    void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    private String submit(String query) {
        return stack.submit(query);
    }

    private void produce(String... records) {
        stack.produce(records);
    }

    private List<Map<String, Object>> awaitFinal(String id, Duration timeout) {
        return stack.awaitFinal(id, timeout);
    }

    private void awaitQueriesRegistered() {
        stack.awaitQueriesRegistered();
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
            new OfflineRunner(QuerySettings.from(stack.settings()), () -> 0L)
                    .run(queryTexts.get(i), new BufferedReader(new StringReader(lines.toString())), offline::add,
                         new PrintStream(PrintStream.nullOutputStream()));
            Object expected = JsonCodec.parseMap(offline.get(offline.size() - 1).toJson()).get("records");
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
        stack.kill(id);
        // a later query sent after the KILL proves the KILL was processed before the record below
        awaitQueriesRegistered();
        produce("{\"id\":\"" + wanted + "\"}");
        String after = submit("{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"" + wanted
                              + "\"]}],\"aggregation\":{\"type\":\"LIMIT\",\"size\":1},\"duration\":60000}");
        awaitQueriesRegistered();
        produce("{\"id\":\"" + wanted + "\"}");
        assertNotNull(awaitFinal(after, DEADLINE), "a live query finds the record");
        assertFalse(stack.hasAnswered(id), "the killed query must not answer");
    }
}

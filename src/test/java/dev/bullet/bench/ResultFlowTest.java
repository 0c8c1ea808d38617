package dev.bullet.bench;

import dev.bullet.common.Cli;
import dev.bullet.record.JsonCodec;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pipeline benchmark's producer-side stamp and the latencies read back from results. */
class ResultFlowTest {
    private static Map<String, Object> stamped(String json, long ms) {
        return JsonCodec.parseMap(new String(ResultFlow.stamp(json.getBytes(StandardCharsets.UTF_8), ms), StandardCharsets.UTF_8));
    }

    @Test
    void theIntendedSendTimeBecomesTheRecordsLastFieldAndEverythingElseStays() {
        Map<String, Object> r = stamped("{\"id\":\"a\",\"m\":{\"k\":1}}", 1_700_000_000_123L);
        assertEquals("a", r.get("id"));
        assertEquals(Map.of("k", 1L), r.get("m"));
        assertEquals(1_700_000_000_123L, ((Number) r.get(ResultFlow.SENT_FIELD)).longValue());
        assertEquals(List.of("id", "m", ResultFlow.SENT_FIELD), new ArrayList<>(r.keySet()));
    }

    @Test
    void emptyObjectsAndTrailingSpaceStayValidJson() {
        assertEquals(Map.of(ResultFlow.SENT_FIELD, 5L), stamped("{}", 5));
        assertEquals(Map.of(ResultFlow.SENT_FIELD, 5L), stamped("{ \n }", 5));
        assertEquals(7L, ((Number) stamped("{\"a\":true} \n", 7).get(ResultFlow.SENT_FIELD)).longValue());
    }

    @Test
    void stampedRecordsGiveFilterLatenciesAndEachResultOneArrivalLatency() {
        String payload = "{\"records\":[{\"id\":\"a\",\"bench_sent_ms\":1000,\"ts_f\":1004},"
                         + "{\"id\":\"b\",\"bench_sent_ms\":1010},{\"id\":\"projected away\"}],\"meta\":{}}";
        List<Long> filtered = new ArrayList<>();
        List<Long> result = new ArrayList<>();
        ResultFlow.latencies(payload, 1030, "ts_f", filtered::add, result::add);
        assertEquals(List.of(4L), filtered);
        assertEquals(List.of(20L), result, "one per result: the newest record, the one that completed it");

        filtered.clear();
        result.clear();
        String escaped = "{\"records\":[{\"i\\\"d\":\"\u00e9\",\"bench_sent_ms\":1000,\"ts_f\":1007}],\"meta\":{\"q\":\"a\\nb\"}}";
        ResultFlow.latencies(escaped, 1030, "ts_f", filtered::add, result::add); // not read in place: decoded
        assertEquals(List.of(7L), filtered);
        assertEquals(List.of(30L), result);

        List<Long> none = new ArrayList<>();
        ResultFlow.latencies("{\"records\":[{\"s_00\":\"x\",\"COUNT\":3}],\"meta\":{}}", 1030, "ts_f", none::add, none::add);
        ResultFlow.latencies(null, 1030, "ts_f", none::add, none::add);
        assertTrue(none.isEmpty());
    }

    @Test
    void stampsReadInPlaceAgreeWithTheDecodedResultOrDeferToIt() {
        String[] payloads = {
            // as the pipeline writes them: stamped records, the Filter's time right after, projected records
            "{\"records\":[{\"id\":\"a\",\"n\":-3,\"bench_sent_ms\":1000,\"ts_f\":1004},{\"id\":\"b\",\"bench_sent_ms\":1010},"
                + "{\"kind\":\"x\",\"ts_f\":1020}],\"meta\":{\"query\":{\"filters\":[{\"field\":\"bench_sent_ms\"}]}}}",
            "{\"records\":[{\"bench_sent_ms\":1000,\"ts_f\":999}],\"meta\":{}}",
            // not as expected: each must go to the decoded reading
            "{\"records\":[{\"bench_sent_ms\":1000,\"x\":1,\"ts_f\":1004}],\"meta\":{}}",
            "{\"records\":[{\"bench_sent_ms\":1000.5,\"ts_f\":1004}],\"meta\":{}}",
            "{\"records\":[{\"bench_sent_ms\":1000,\"ts_f\":1004,\"y\":2}],\"meta\":{}}",
            "{\"records\":[],\"meta\":{\"query\":{\"projection\":{\"fields\":{\"bench_sent_ms\":\"s\"}}}}}",
            "{\"records\":[{\"s\":\"\\\"bench_sent_ms\\\":5}\",\"bench_sent_ms\":1000}],\"meta\":{}}",
        };
        boolean[] inPlace = {true, true, false, false, false, false, false};
        for (int i = 0; i < payloads.length; i++) {
            List<Long> filtered = new ArrayList<>();
            List<Long> result = new ArrayList<>();
            boolean read = ResultFlow.stampsInPlace(payloads[i], 1030, ",\"ts_f\":", filtered::add, result::add);
            assertEquals(inPlace[i], read, payloads[i]);
            if (!read) {
                assertTrue(filtered.isEmpty() && result.isEmpty(), "nothing recorded when deferring: " + payloads[i]);
            }
            List<Long> decodedFiltered = new ArrayList<>();
            List<Long> decodedResult = new ArrayList<>();
            ResultFlow.decodedLatencies(payloads[i], 1030, "ts_f", decodedFiltered::add, decodedResult::add);
            List<Long> bothFiltered = new ArrayList<>();
            List<Long> bothResult = new ArrayList<>();
            ResultFlow.latencies(payloads[i], 1030, "ts_f", bothFiltered::add, bothResult::add);
            assertEquals(decodedFiltered, bothFiltered, payloads[i]);
            assertEquals(decodedResult, bothResult, payloads[i]);
            if (read) {
                assertEquals(decodedFiltered, filtered, payloads[i]);
                assertEquals(decodedResult, result, payloads[i]);
            }
        }
    }

    @Test
    void summariesHaveTheTailPercentiles() {
        Histogram h = new Histogram(3_600_000, 3);
        for (int v = 1; v <= 1000; v++) {
            h.recordValue(v);
        }
        Map<String, Object> s = ResultFlow.summary(h);
        assertEquals(1000L, s.get("count"));
        assertEquals(500L, ((Number) s.get("p50")).longValue());
        assertEquals(990L, ((Number) s.get("p99")).longValue());
        assertEquals(999L, ((Number) s.get("p999")).longValue());
        assertEquals(1000L, ((Number) s.get("max")).longValue());
    }

    private static PipelineBenchmark.Options options(String... args) {
        return Cli.parse(new PipelineBenchmark.Options(), args);
    }

    @Test
    void theWorkloadComesFromTheMixOrAFile() throws Exception {
        assertNull(PipelineBenchmark.workload(options()));
        assertNull(PipelineBenchmark.workload(options("--mix", "id")));
        assertEquals(RealisticQueries.load(), PipelineBenchmark.workload(options("--mix", "realistic")));
        Path file = Files.createTempFile("queries", ".jsonl");
        try {
            Files.writeString(file, "{\"aggregation\":{\"type\":\"RAW\"}}\n\n{\"duration\":1000}\n");
            assertEquals(2, PipelineBenchmark.workload(options("--queries-file", file.toString())).size());
        } finally {
            Files.delete(file);
        }
        assertThrows(IllegalArgumentException.class, () -> PipelineBenchmark.workload(options("--mix", "nope")));
    }
}

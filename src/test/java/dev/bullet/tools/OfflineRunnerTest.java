package dev.bullet.tools;

import dev.bullet.common.Clock;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.Result;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The offline runner with a scripted clock: each record line carries {@code "t"}, the ms after the start at which it
 * "arrives"; the end of the input arrives at {@code endAt}. Time windows and durations can so be tested exactly.
 */
class OfflineRunnerTest {
    private static final long T0 = 1_000_000L;

    /** Lines whose reading moves the clock to T0 + their "t" field (T0 + endAt at the end of the input). */
    private static final class TimedLines extends BufferedReader {
        private final long endAt;
        long now = T0;

        TimedLines(String lines, long endAt) {
            super(new StringReader(lines));
            this.endAt = endAt;
        }

        @Override
        public String readLine() throws IOException {
            String line = super.readLine();
            if (line == null) {
                now = T0 + endAt;
            } else {
                Map<String, Object> record = RecordDecoder.decodeMap(line);
                if (record != null && record.get("t") instanceof Long) {
                    now = T0 + (Long) record.get("t");
                }
            }
            return line;
        }
    }

    private final ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    private final List<Result> results = new ArrayList<>();

    private OfflineRunner.Outcome run(String query, TimedLines lines) throws IOException {
        Clock clock = () -> lines.now;
        return new OfflineRunner(QuerySettings.defaults(), clock)
                .run(query, lines, results::add, new PrintStream(diagnostics, true, StandardCharsets.UTF_8));
    }

    private static String at(long... times) {
        StringBuilder lines = new StringBuilder();
        for (long t : times) {
            lines.append("{\"t\": ").append(t).append("}\n");
        }
        return lines.toString();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> window(Result r) {
        return (Map<String, Object>) r.meta().get("window");
    }

    private static final String COUNT = "\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\": [{\"type\": \"COUNT\"}]}}";

    @Test
    void tumblingWindowsCloseAsRecordsArriveAndTheOpenWindowIsFinal() throws IOException {
        String query = "{" + COUNT + ", \"duration\": 10000, \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}}}";
        OfflineRunner.Outcome outcome = run(query, new TimedLines(at(100, 200, 1000, 1500, 3200), 3400));
        assertTrue(outcome.valid());
        assertEquals(5, outcome.records());
        assertEquals(5, outcome.matched());
        // windows [0,1000) [1000,2000) [2000,3000) closed; [3000, ...) is open when the input ends
        assertEquals(List.of(2L, 2L, 0L, 1L), results.stream().map(r -> r.records().get(0).get("COUNT")).toList());
        assertEquals(List.of(1, 2, 3, 4), results.stream().map(r -> window(r).get("number")).toList());
        assertEquals(List.of(false, false, false, true), results.stream().map(Result::isFinal).toList());
        assertEquals(T0 + 1000, window(results.get(0)).get("expected_emit_time"));
        assertEquals(T0 + 1000, window(results.get(0)).get("emit_time"), "closed when the record at 1000 arrived");
        assertEquals(T0 + 3400, results.get(3).meta().get("query_finish_time"));
    }

    @Test
    void aRecordArrivingAsAWindowClosesBelongsToTheNextWindow() throws IOException {
        String query = "{\"duration\": 10000, \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}}}";
        run(query, new TimedLines("{\"t\": 999, \"i\": 1}\n{\"t\": 1000, \"i\": 2}\n", 1200));
        assertEquals(2, results.size());
        assertEquals(List.of(mapOf("t", 999L, "i", 1L)), results.get(0).records());
        assertEquals(List.of(mapOf("t", 1000L, "i", 2L)), results.get(1).records());
    }

    @Test
    void additiveWindowsAccumulate() throws IOException {
        String query = "{" + COUNT + ", \"duration\": 10000, \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}, \"include\": {\"type\": \"ALL\"}}}";
        run(query, new TimedLines(at(100, 1100, 1200, 2500), 2600));
        assertEquals(List.of(1L, 3L, 4L), results.stream().map(r -> r.records().get(0).get("COUNT")).toList());
    }

    @Test
    void recordsAfterTheDurationAreNotPartOfTheQuery() throws IOException {
        OfflineRunner.Outcome outcome = run("{" + COUNT + ", \"duration\": 1000}", new TimedLines(at(10, 999, 1000, 1001), 5000));
        assertEquals(1, results.size());
        assertEquals(List.of(mapOf("COUNT", 2L)), results.get(0).records());
        assertEquals(2, outcome.matched());
    }

    @Test
    void rawStopsReadingOnceSizeRecordsMatched() throws IOException {
        OfflineRunner.Outcome outcome = run("{\"aggregation\": {\"size\": 2}}", new TimedLines(at(1, 2, 3, 4, 5), 10));
        assertEquals(1, results.size());
        assertEquals(2, results.get(0).records().size());
        assertEquals(2, outcome.records(), "nothing read after the query ended");
        assertEquals(T0 + 2, results.get(0).meta().get("query_finish_time"));
    }

    @Test
    void slidingWindowsCloseAsRecordsArrive() throws IOException {
        run("{\"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 3}}}", new TimedLines(at(1, 2, 3, 4, 5, 6, 7), 10));
        assertEquals(List.of(3, 3, 1), results.stream().map(r -> r.records().size()).toList());
        assertTrue(results.get(2).isFinal());
    }

    @Test
    void malformedLinesAreCountedReportedAndSkipped() throws IOException {
        OfflineRunner.Outcome outcome = run("{}", new TimedLines("{\"t\": 1}\n{oops\n\n42\n{\"t\": 2}\n", 10));
        assertEquals(2, outcome.records());
        assertEquals(2, outcome.malformed());
        assertEquals(2, results.get(0).records().size());
        String text = diagnostics.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("line 2: not a JSON object, skipped"), text);
        assertTrue(text.contains("line 4: not a JSON object, skipped"), text);
        assertTrue(text.contains("2 malformed line(s) skipped"), text);
    }

    @Test
    void anInvalidQueryGivesOneErrorResult() throws IOException {
        OfflineRunner.Outcome outcome = run("{\"window\": {}}", new TimedLines(at(1), 10));
        assertFalse(outcome.valid());
        assertEquals(1, results.size());
        assertTrue(results.get(0).isFinal());
        assertTrue(results.get(0).meta().containsKey("errors"));
        assertEquals(0, outcome.records());
    }
}

package dev.bullet.tools;

import dev.bullet.record.JsonCodec;
import dev.bullet.testing.CommandLines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;

import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line of {@code scripts/bullet-query.sh} (SPEC §6.11). */
class QueryMainTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String stdin, String... args) {
        InputStream in = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
        return QueryMain.run(args, in, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private List<Map<String, Object>> results() {
        return stdout().lines().filter(l -> !l.isBlank()).map(JsonCodec::parseMap).toList();
    }

    private Path file(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }

    @Test
    void aDeeplyNestedQueryIsOneErrorResultWithStatusTwoAndNoStackTrace() throws IOException {
        String deep = "{\"filters\":[" + "{\"operation\":\"NOT\",\"clauses\":[".repeat(20_000)
                      + "{\"field\":\"a\",\"operation\":\"==\",\"values\":[\"1\"]}" + "]}".repeat(20_000) + "]}";
        Path query = file("deep.json", deep);
        assertEquals(2, run("{\"a\":\"1\"}\n", "--query", query.toString(), "--records", "-"));
        List<Map<String, Object>> results = results();
        assertEquals(1, results.size());
        assertTrue(stdout().contains("bullet.query.max.depth"), stdout());
        assertFalse(stderr().contains("Exception") || stderr().contains("\tat "), stderr());
    }

    @Test
    void hostileRecordLinesAreSkippedAndTheNextOrdinaryOneIsFound() throws IOException {
        Path query = file("q.json", "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"x\"]}]}");
        byte[] invalidUtf8 = {'{', '"', 'i', 'd', (byte) 0xFF, '"', ':', '1', '}', '\n'};
        Path records = dir.resolve("r.jsonl");
        Files.write(records, ("{\"a\":".repeat(50_000) + "1" + "}".repeat(50_000) + "\n[1]\n").getBytes(StandardCharsets.UTF_8));
        Files.write(records, invalidUtf8, StandardOpenOption.APPEND);
        Files.write(records, "{\"id\":\"x\"}\n".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
        assertEquals(0, run("", "--query", query.toString(), "--records", records.toString()));
        assertTrue(stdout().contains("\"id\":\"x\""), stdout());
        assertTrue(stderr().contains("line 1: nested deeper than"), stderr());
        assertTrue(stderr().contains("2 malformed line(s) skipped"), stderr());
        assertFalse(stderr().contains("\tat "), stderr());
    }

    @Test
    void helpPrintsUsageAndExitsZero() {
        assertEquals(0, run("", "--help"));
        assertTrue(stdout().contains("Usage: bullet-query.sh"), stdout());
        assertTrue(stdout().contains("--records"));
        CommandLines.assertHelpListsEveryFlag(new CommandLines.Outcome(0, stdout(), stderr()), "bullet-query.sh",
            List.of("--query", "--records", "--bullet-conf"));
        out.reset();
        assertEquals(0, run("", "--query", "q.json", "-h"));
    }

    @Test
    void unknownFlagIsAnErrorWithStatusTwo() {
        assertEquals(2, run("", "--query", "q.json", "--records", "r.jsonl", "--verbose"));
        assertTrue(stderr().contains("unknown option '--verbose'"), stderr());
        assertTrue(stderr().contains("--help"), "points to the usage: " + stderr());
        assertEquals("", stdout());
        CommandLines.assertOneLineUsageError(new CommandLines.Outcome(2, stdout(), stderr()), "--verbose");
    }

    @Test
    void aFlagWithoutItsValueIsAnError() {
        assertEquals(2, run("", "--query"));
        assertTrue(stderr().contains("Missing required parameter for option '--query'"), stderr());
    }

    @Test
    void queryAndRecordsAreBothRequired() {
        assertEquals(2, run("", "--query", "q.json"));
        assertTrue(stderr().contains("--query and --records are both required"), stderr());
    }

    @Test
    void onlyOneInputCanBeStdin() {
        assertEquals(2, run("", "--query", "-", "--records", "-"));
        assertTrue(stderr().contains("only one of --query and --records can read stdin"), stderr());
    }

    @Test
    void missingFileExitsOne() throws IOException {
        Path query = file("q.json", "{}");
        assertEquals(1, run("", "--query", query.toString(), "--records", dir.resolve("nope.jsonl").toString()));
        assertTrue(stderr().contains("no such file"), stderr());
    }

    @Test
    void runsAQueryOverAFileAndPrintsOneLinePerResult() throws IOException {
        Path query = file("q.json", "{\"filters\": [{\"field\": \"id\", \"operation\": \"==\", \"values\": [\"b\"]}]}");
        Path records = file("r.jsonl", "{\"id\": \"a\"}\n{\"id\": \"b\", \"n\": 1}\n");
        assertEquals(0, run("", "--query", query.toString(), "--records", records.toString()));
        assertEquals(1, results().size());
        assertEquals(List.of(mapOf("id", "b", "n", 1L)), results().get(0).get("records"));
        assertEquals("", stderr());
    }

    @Test
    void readsTheQueryFromStdin() throws IOException {
        Path records = file("r.jsonl", "{\"id\": \"a\"}\n{\"id\": \"b\"}\n");
        assertEquals(0, run("{\"aggregation\": {\"type\": \"RAW\", \"size\": 1}}", "--query", "-", "--records", records.toString()));
        assertEquals(List.of(mapOf("id", "a")), results().get(0).get("records"));
    }

    @Test
    void readsTheRecordsFromStdin() throws IOException {
        Path query = file("q.json", "{\"aggregation\": {\"type\": \"COUNT DISTINCT\", \"fields\": {\"id\": \"id\"}}}");
        assertEquals(0, run("{\"id\": \"a\"}\n{\"id\": \"b\"}\n{\"id\": \"a\"}\n", "--records", "-", "--query", query.toString()));
        assertEquals(List.of(mapOf("COUNT DISTINCT", 2L)), results().get(0).get("records"));
    }

    @Test
    void malformedRecordLinesAreCountedReportedOnStderrAndSkipped() throws IOException {
        Path query = file("q.json", "{}");
        Path records = file("r.jsonl", "{\"i\": 1}\nnot json\n[1, 2]\n\n{\"i\": 2}\n{\"i\": 3} tail\n");
        assertEquals(0, run("", "--query", query.toString(), "--records", records.toString()));
        assertEquals(List.of(mapOf("i", 1L), mapOf("i", 2L)), results().get(0).get("records"));
        assertTrue(stderr().contains("line 2: not a JSON object, skipped"), stderr());
        assertTrue(stderr().contains("line 3: not a JSON object, skipped"), stderr());
        assertTrue(stderr().contains("line 6: not a JSON object, skipped"), stderr());
        assertTrue(stderr().contains("3 malformed line(s) skipped"), stderr());
        assertTrue(!stderr().contains("line 4"), "a blank line is not a record, nor malformed");
    }

    @Test
    void anInvalidQueryPrintsOneErrorResultAndExitsTwo() throws IOException {
        Path records = file("r.jsonl", "{\"i\": 1}\n");
        assertEquals(2, run("{\"aggregation\": {\"type\": \"NOPE\"}, \"duration\": \"x\"}", "--query", "-", "--records", records.toString()));
        List<Map<String, Object>> results = results();
        assertEquals(1, results.size());
        assertEquals(List.of(), results.get(0).get("records"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> errors = (List<Map<String, Object>>) ((Map<String, Object>) results.get(0).get("meta")).get("errors");
        assertEquals(2, errors.size());
        assertTrue(((List<?>) errors.get(0).get("resolutions")).size() > 0);
    }

    @Test
    void malformedQueryJsonReportsLineAndColumn() throws IOException {
        Path query = file("q.json", "{\n  \"duration\": 10,\n  \"aggregation\": {\"size\": }\n}\n");
        Path records = file("r.jsonl", "");
        assertEquals(2, run("", "--query", query.toString(), "--records", records.toString()));
        assertTrue(stdout().contains("Malformed JSON at line 3, column"), stdout());
    }
}

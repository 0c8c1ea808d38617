package dev.bullet.tools;

import com.google.gson.JsonParser;
import dev.bullet.bql.Bql;
import dev.bullet.record.JsonCodec;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Golden files for the offline runner's wire format (SPEC §6.11): every folder under {@code golden/} holds a
 * {@code query.json} (or a BQL {@code query.bql}, with the JSON query it becomes in {@code translated.json}), a {@code records.jsonl} and the {@code expected.jsonl} results, one JSON object per line, written
 * by hand from the SPEC; an optional {@code status} file holds the exit status (default 0) and an {@code unordered} file
 * lets the records of a result come in any order (GROUP rows have no specified order).
 *
 * <p>Records are compared exactly, number types included ({@code 2} is not {@code 2.0}). Metadata is compared only
 * where the expected file has it, recursively, so volatile keys (ids and times) are simply left out of the expected
 * files; {@code errors} and {@code warnings} must be present exactly when expected, entry for entry, each expected
 * {@code error} text being a fragment of the actual one, with at least one resolution.
 */
class GoldenFilesTest {

    @TestFactory
    Stream<DynamicTest> goldenCases() throws IOException, URISyntaxException {
        URL url = GoldenFilesTest.class.getResource("/golden");
        assertNotNull(url, "golden files on the test classpath");
        Path root = Path.of(url.toURI());
        List<Path> cases;
        try (Stream<Path> dirs = Files.list(root)) {
            cases = dirs.filter(Files::isDirectory).sorted().toList();
        }
        assertTrue(cases.size() >= 40, "about 40 golden cases, found " + cases.size());
        return cases.stream().map(dir -> DynamicTest.dynamicTest(dir.getFileName().toString(), () -> check(dir)));
    }

    private static void check(Path dir) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path bql = dir.resolve("query.bql");
        Path translated = dir.resolve("translated.json");
        if (Files.exists(translated)) {
            Bql.Translation translation = Bql.translate(Files.readString(bql, StandardCharsets.UTF_8));
            assertEquals(JsonParser.parseString(Files.readString(translated, StandardCharsets.UTF_8)), translation.query(),
                         "the JSON form of the BQL (translated.json); errors: " + translation.errors());
        }
        Path query = Files.exists(bql) ? bql : dir.resolve("query.json");
        String[] args = {"--query", query.toString(), "--records", dir.resolve("records.jsonl").toString()};
        int status = QueryMain.run(args, InputStream.nullInputStream(), new PrintStream(out, true, StandardCharsets.UTF_8),
                                   new PrintStream(err, true, StandardCharsets.UTF_8));
        String stdout = out.toString(StandardCharsets.UTF_8);
        String context = "\nstdout:\n" + stdout + "stderr:\n" + err.toString(StandardCharsets.UTF_8);

        Path statusFile = dir.resolve("status");
        int expectedStatus = Files.exists(statusFile) ? Integer.parseInt(Files.readString(statusFile).trim()) : 0;
        assertEquals(expectedStatus, status, "exit status" + context);

        List<String> expected = lines(Files.readString(dir.resolve("expected.jsonl"), StandardCharsets.UTF_8));
        List<String> actual = lines(stdout);
        assertEquals(expected.size(), actual.size(), "number of results" + context);
        boolean unordered = Files.exists(dir.resolve("unordered"));
        for (int i = 0; i < expected.size(); i++) {
            Map<String, Object> e = JsonCodec.parseMap(expected.get(i));
            Map<String, Object> a = JsonCodec.parseMap(actual.get(i));
            assertEquals(List.of("records", "meta"), List.copyOf(a.keySet()), "result shape" + context);
            assertRecords(e.get("records"), a.get("records"), unordered, "result " + (i + 1) + context);
            assertMeta(asMap(e.get("meta")), asMap(a.get("meta")), "result " + (i + 1) + " meta" + context);
        }
    }

    private static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                lines.add(line);
            }
        }
        return lines;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o) {
        return o == null ? Map.of() : (Map<String, Object>) o;
    }

    private static void assertRecords(Object expected, Object actual, boolean unordered, String context) {
        if (!unordered) {
            assertEquals(expected, actual, "records of " + context);
            return;
        }
        assertEquals(multiset((List<?>) expected), multiset((List<?>) actual), "records (any order) of " + context);
    }

    private static Map<Object, Integer> multiset(List<?> rows) {
        Map<Object, Integer> counts = new HashMap<>();
        rows.forEach(r -> counts.merge(r, 1, Integer::sum));
        return counts;
    }

    private static void assertMeta(Map<String, Object> expected, Map<String, Object> actual, String context) {
        for (String key : List.of("errors", "warnings")) {
            assertEquals(expected.containsKey(key), actual.containsKey(key), key + " in " + context);
            if (expected.containsKey(key)) {
                assertErrors((List<?>) expected.get(key), (List<?>) actual.get(key), key + " of " + context);
            }
        }
        for (Map.Entry<String, Object> entry : expected.entrySet()) {
            if (!entry.getKey().equals("errors") && !entry.getKey().equals("warnings")) {
                assertSubset(entry.getValue(), actual.get(entry.getKey()), entry.getKey(), context);
            }
        }
    }

    private static void assertErrors(List<?> expected, List<?> actual, String context) {
        assertEquals(expected.size(), actual.size(), "count of " + context);
        for (int i = 0; i < expected.size(); i++) {
            String fragment = (String) asMap(expected.get(i)).get("error");
            Map<String, Object> a = asMap(actual.get(i));
            String message = (String) a.get("error");
            assertNotNull(message, context);
            assertTrue(message.contains(fragment), "'" + message + "' should contain '" + fragment + "' in " + context);
            Object resolutions = a.get("resolutions");
            assertTrue(resolutions instanceof List && !((List<?>) resolutions).isEmpty(), "resolutions in " + context);
        }
    }

    private static void assertSubset(Object expected, Object actual, String path, String context) {
        if (expected instanceof Map) {
            if (!(actual instanceof Map)) {
                fail(path + " should be an object, was " + actual + " in " + context);
            }
            for (Map.Entry<String, Object> entry : asMap(expected).entrySet()) {
                Map<String, Object> a = asMap(actual);
                assertTrue(a.containsKey(entry.getKey()), path + "." + entry.getKey() + " missing in " + context);
                assertSubset(entry.getValue(), a.get(entry.getKey()), path + "." + entry.getKey(), context);
            }
            return;
        }
        assertEquals(expected, actual, path + " in " + context);
        assertFalse(expected instanceof Double != actual instanceof Double, path + " number type in " + context);
    }
}

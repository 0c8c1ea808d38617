package dev.bullet.fuzz;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Replays the fuzzing corpus in {@code src/test/resources/fuzz} in every test run: queries
 * ({@code queries/*.json}, raw bytes as sent) and records ({@code records/*.bin}, raw message bytes), each one an input
 * that once broke something or sits on an edge.
 */
class FuzzCorpusTest {

    private static List<Path> files(String dir) throws IOException, URISyntaxException {
        Path root = Path.of(FuzzCorpusTest.class.getResource("/fuzz/" + dir).toURI());
        try (Stream<Path> s = Files.list(root)) {
            return s.sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusQueryIsAnswered() throws Exception {
        List<Path> files = files("queries");
        assertFalse(files.isEmpty());
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () ->
                FuzzChecks.queryIsAnsweredNeverThrown(new String(Files.readAllBytes(f), StandardCharsets.UTF_8))));
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusRecordDecodesAsGsonDecodesIt() throws Exception {
        List<Path> files = files("records");
        assertFalse(files.isEmpty());
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () ->
                FuzzChecks.lazyDecodeEqualsGson(Files.readAllBytes(f))));
    }
}

package dev.bullet.generator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.bullet.testing.CommandLines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The generator's command line without Kafka: flags, exit codes, file output. */
@Timeout(30)
class GeneratorMainTest {
    private static final long NOW = 1_763_790_000_000L;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void helpPrintsTheFlagsAndExitsZero() {
        assertEquals(0, run("--help"));
        for (String flag : List.of("--bootstrap", "--topic", "--rate", "--duration", "--count", "--seed", "--out",
            "--records")) {
            assertTrue(stdout().contains(flag), flag);
        }
        CommandLines.assertHelpListsEveryFlag(new CommandLines.Outcome(0, stdout(), stderr()), "generate.sh",
            List.of("--bootstrap", "--topic", "--rate", "--duration", "--count", "--seed", "--out", "--records"));
    }

    @Test
    void unknownFlagExitsTwoWithAClearMessage() {
        assertEquals(2, run("--speed", "5"));
        assertTrue(stderr().contains("unknown option '--speed'"), stderr());
        assertTrue(!stderr().contains("Exception"), stderr());
        CommandLines.assertOneLineUsageError(new CommandLines.Outcome(2, stdout(), stderr()), "--speed");
    }

    @Test
    void badValuesExitTwo() {
        assertEquals(2, run("--rate", "fast"));
        assertEquals(2, run("--count", "0"));
        assertEquals(2, run("--count", "5", "--duration", "1"));
        assertEquals(2, run("--bootstrap", "localhost"));
        assertEquals(2, run("--records", "x.jsonl", "--count", "3"));
        assertEquals(2, run("--topic"));
        assertEquals(2, run("stray"));
    }

    @Test
    void outDashWritesTheSeedsRecordsToStdout() {
        assertEquals(0, run("--out", "-", "--count", "5", "--rate", "max", "--seed", "9"));
        String[] lines = stdout().split("\n");
        assertEquals(5, lines.length);
        RecordGenerator expected = new RecordGenerator(9, () -> NOW);
        for (String line : lines) {
            assertArrayEquals(expected.next(), line.getBytes(StandardCharsets.UTF_8));
        }
        assertTrue(stderr().contains("done: 5 records"), stderr());
    }

    @Test
    void durationAtAFixedRateSendsRateTimesDurationRecords() {
        assertEquals(0, run("--out", "-", "--duration", "0.2", "--rate", "50"));
        assertEquals(10, stdout().split("\n").length);
    }

    @Test
    void recordsFileIsCopiedInOrderWithoutBlankLines(@TempDir Path dir) throws IOException {
        Path in = dir.resolve("in.jsonl");
        Path copy = dir.resolve("out.jsonl");
        Files.writeString(in, "{\"id\":\"a\"}\n\n{\"id\":\"b\"}\r\n   \nnot json\n{\"id\":\"c\"}");
        assertEquals(0, run("--records", in.toString(), "--out", copy.toString()));
        assertEquals(List.of("{\"id\":\"a\"}", "{\"id\":\"b\"}", "not json", "{\"id\":\"c\"}"), Files.readAllLines(copy));
        assertTrue(stderr().contains("line 5 is not a JSON object"), stderr());
    }

    @Test
    void recordsFromStdin() {
        byte[] input = "{\"n\":1}\n{\"n\":2}\n".getBytes(StandardCharsets.UTF_8);
        int code = GeneratorMain.run(new String[] {"--records", "-", "--out", "-"}, new ByteArrayInputStream(input),
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
            () -> false, () -> NOW, System::nanoTime);
        assertEquals(0, code, stderr());
        assertEquals("{\"n\":1}\n{\"n\":2}\n", stdout());
    }

    @Test
    void missingRecordsFileExitsTwo(@TempDir Path dir) {
        assertEquals(2, run("--records", dir.resolve("missing.jsonl").toString(), "--out", "-"));
        assertTrue(stderr().contains("not found"), stderr());
    }

    @Test
    void unwritableOutFileExitsOne(@TempDir Path dir) {
        assertEquals(1, run("--out", dir.resolve("no/such/dir/out.jsonl").toString(), "--count", "1"));
        assertTrue(stderr().contains("cannot write"), stderr());
    }

    @Test
    void stopRequestEndsTheRunWithASummary() {
        int code = GeneratorMain.run(new String[] {"--out", "-", "--count", "1000000", "--rate", "max"},
            new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), () -> true, () -> NOW, System::nanoTime);
        assertEquals(0, code);
        assertTrue(stderr().contains("stopped after 0 records"), stderr());
    }

    private int run(String... args) {
        out.reset();
        err.reset();
        return GeneratorMain.run(args, new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
            () -> false, () -> NOW, System::nanoTime);
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }
}

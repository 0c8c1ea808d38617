package dev.bullet.bench;

import dev.bullet.common.Cli;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad option values are named before anything starts (the scripts print them and exit 2, no stack trace). */
class PipelineBenchmarkTest {
    private static PipelineBenchmark.Options parse(String... args) {
        return Cli.parse(new PipelineBenchmark.Options(), args);
    }

    @Test
    void goodOptionsPass() {
        PipelineBenchmark.Options o = parse("--mode", "throughput", "--queries", "0, 100", "--rates", "1000",
                                            "--step-seconds", "1.5", "--mix", "realistic", "--via", "rest");
        assertArrayEquals(new int[] {0, 100}, o.queryCounts());
        assertEquals(1.5, o.stepSeconds);
        PipelineBenchmark.Options defaults = parse();
        assertEquals("curve", defaults.mode);
        assertArrayEquals(new int[] {1, 10, 100, 1000, 2500, 5000, 10000}, defaults.queryCounts());
        assertEquals(10_000, defaults.rate);
        assertEquals("pubsub", defaults.via);
        assertArrayEquals(new int[] {0, 100, 1000, 10000}, parse("--mode", "throughput").queryCounts());
        assertFalse(defaults.cluster);
        PipelineBenchmark.Options cluster = parse("--mode", "throughput", "--cluster", "--workers", "2", "--supervisors", "2",
                                                  "--jfr", System.getProperty("java.io.tmpdir"));
        assertTrue(cluster.cluster);
        assertEquals(2, cluster.workers);
        assertEquals(2, cluster.supervisors);
    }

    @Test
    void eachBadValueIsNamed() {
        Map<String[], String> cases = Map.of(
                new String[] {"--rates", "abc"}, "--rates",
                new String[] {"--queries", "1,,2"}, "--queries",
                new String[] {"--rate", "1e4"}, "--rate",
                new String[] {"--warmup-seconds", "soon"}, "--warmup-seconds",
                new String[] {"--mix", "bogus"}, "--mix",
                new String[] {"--via", "carrier-pigeon"}, "--via",
                new String[] {"--mode", "fast"}, "--mode",
                new String[] {"--queries-file", "/no/such/file.jsonl"}, "--queries-file",
                new String[] {"--queries-fil", "x"}, "--queries-file");
        Map<String[], String> cluster = Map.of(
                new String[] {"--join-snapshots", "maybe"}, "--join-snapshots",
                new String[] {"--workers", "2"}, "--cluster",
                new String[] {"--jfr", "/tmp"}, "--cluster",
                new String[] {"--cluster", "--workers", "0"}, "--workers",
                new String[] {"--cluster", "--workers", "5"}, "--workers",
                new String[] {"--cluster", "--supervisors", "3"}, "--supervisors",
                new String[] {"--cluster", "--jfr", "/no/such/dir"}, "--jfr");
        Map<String[], String> all = new HashMap<>(cases);
        all.putAll(cluster);
        all.forEach((args, name) -> {
            Cli.UsageException error = assertThrows(Cli.UsageException.class, () -> parse(args), String.join(" ", args));
            assertTrue(error.getMessage().contains(name), String.join(" ", args) + " -> " + error.getMessage());
        });
    }
}

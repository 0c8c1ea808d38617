package dev.bullet.bench;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad option values are named before anything starts (the scripts print them and exit 2, no stack trace). */
class PipelineBenchmarkTest {
    @Test
    void goodOptionsPass() {
        assertNull(PipelineBenchmark.badOption(Map.of("--mode", "throughput", "--queries", "0, 100", "--rates", "1000",
                                                      "--step-seconds", "1.5", "--mix", "realistic", "--via", "rest")));
        assertNull(PipelineBenchmark.badOption(Map.of()));
    }

    @Test
    void eachBadValueIsNamed() {
        Map<Map<String, String>, String> cases = Map.of(
                Map.of("--rates", "abc"), "--rates",
                Map.of("--queries", "1,,2"), "--queries",
                Map.of("--rate", "1e4"), "--rate",
                Map.of("--warmup-seconds", "soon"), "--warmup-seconds",
                Map.of("--mix", "bogus"), "--mix",
                Map.of("--via", "carrier-pigeon"), "--via",
                Map.of("--mode", "fast"), "--mode",
                Map.of("--queries-file", "/no/such/file.jsonl"), "--queries-file");
        cases.forEach((options, name) -> {
            String error = PipelineBenchmark.badOption(options);
            assertTrue(error != null && error.startsWith(name), options + " -> " + error);
        });
    }
}

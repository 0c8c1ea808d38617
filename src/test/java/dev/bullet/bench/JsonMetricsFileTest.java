package dev.bullet.bench;

import dev.bullet.metrics.MetricPoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A cluster benchmark reads the Filter's latency from the json-log consumer's file as the workers append to it. */
class JsonMetricsFileTest {
    @TempDir
    Path dir;

    private static String line(long ts, String name, String value) {
        return "{\"timestamp\":" + ts + ",\"worker\":\"127.0.0.1:6700\",\"component\":\"filter-bolt\",\"task\":3,\"name\":\""
               + name + "\",\"value\":" + value + "}\n";
    }

    @Test
    void readsWholeLinesAsTheyAreAppendedAndKeepsBulletPointsOnly() throws Exception {
        Path file = dir.resolve("metrics.jsonl");
        JsonMetricsFile metrics = new JsonMetricsFile(file);
        assertTrue(metrics.between("bullet_filter_latency", 0, Long.MAX_VALUE).isEmpty(), "no file yet");
        long now = System.currentTimeMillis();
        String half = line(now + 1, "bullet_filter_latency", "{\"p50\":2.0,\"p99\":9.5}");
        Files.writeString(file, line(now, "bullet_filter_latency", "{\"p50\":1.0,\"p99\":7.0}") + line(now, "__receive", "5")
                                + "not json\n" + half.substring(0, 20));
        List<MetricPoint> first = metrics.between("bullet_filter_latency", now, now + 10);
        assertEquals(1, first.size(), "the line being written is left for the next read");
        assertEquals(Map.of("p50", 1.0, "p99", 7.0), first.get(0).value());
        assertEquals("filter-bolt", first.get(0).component());
        assertEquals(3, first.get(0).task());

        Files.writeString(file, half.substring(20), StandardOpenOption.APPEND);
        List<MetricPoint> both = metrics.between("bullet_filter_latency", now, now + 10);
        assertEquals(2, both.size(), "the rest of the line arrived");
        assertEquals(1, metrics.between("bullet_filter_latency", now + 1, now + 10).size(), "[from, to)");
        assertTrue(metrics.between("__receive", 0, Long.MAX_VALUE).isEmpty(), "Storm's own metrics are not kept");
    }

    @Test
    void aLineThatIsNoDataPointIsSkipped() {
        assertNull(JsonMetricsFile.parse(""));
        assertNull(JsonMetricsFile.parse("[1,2]"));
        assertNull(JsonMetricsFile.parse("{\"name\":\"bullet_x\"}"), "no timestamp");
        assertNull(JsonMetricsFile.parse("{\"timestamp\":1,\"name\":7}"), "a name that is not text");
    }
}

package dev.bullet.bench;

import dev.bullet.metrics.MetricPoint;
import dev.bullet.record.JsonCodec;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Bullet's data points as the {@code json-log} metrics consumer writes them (one JSON object a line), read as the
 * file grows: how a benchmark reads the metrics of topology tasks in other JVMs. Keeps, as {@link BenchMetricsSink}
 * does, only Bullet's own metrics of the last minutes. Not thread-safe: the benchmark's main thread reads it.
 */
final class JsonMetricsFile {
    private final Path file;
    private final List<MetricPoint> points = new ArrayList<>();
    private long offset;

    JsonMetricsFile(Path file) {
        this.file = file;
    }

    /** The points of one metric whose timestamp lies in [from, to), after reading what was appended. */
    List<MetricPoint> between(String name, long from, long to) {
        readNew();
        List<MetricPoint> out = new ArrayList<>();
        for (MetricPoint p : points) {
            if (p.name().equals(name) && p.timestamp() >= from && p.timestamp() < to) {
                out.add(p);
            }
        }
        return out;
    }

    /** Reads the whole lines appended since the last read; a line being written is left for the next one. */
    private void readNew() {
        if (!Files.exists(file)) {
            return;
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            if (length <= offset) {
                return;
            }
            byte[] bytes = new byte[(int) Math.min(length - offset, Integer.MAX_VALUE - 8)];
            in.seek(offset);
            in.readFully(bytes);
            int end = lastNewline(bytes);
            if (end < 0) {
                return;
            }
            offset += end + 1;
            for (String line : new String(bytes, 0, end, StandardCharsets.UTF_8).split("\n")) {
                MetricPoint p = parse(line);
                if (p != null && p.name().startsWith(BenchMetricsSink.KEPT_PREFIX)) {
                    points.add(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the metrics file " + file, e);
        }
        long cutoff = System.currentTimeMillis() - BenchMetricsSink.RETENTION_MS;
        points.removeIf(p -> p.timestamp() < cutoff);
    }

    private static int lastNewline(byte[] bytes) {
        for (int i = bytes.length - 1; i >= 0; i--) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** One line of the json-log consumer as a data point; null for a line that is not one. */
    static MetricPoint parse(String line) {
        if (line.isBlank()) {
            return null;
        }
        try {
            Map<String, Object> m = JsonCodec.parseMap(line);
            Object name = m.get("name");
            if (!(name instanceof String) || !(m.get("timestamp") instanceof Number ts)) {
                return null;
            }
            int task = m.get("task") instanceof Number t ? t.intValue() : -1;
            return new MetricPoint(ts.longValue(), String.valueOf(m.get("worker")), String.valueOf(m.get("component")),
                                   task, (String) name, m.get("value"));
        } catch (RuntimeException e) {
            return null;
        }
    }
}

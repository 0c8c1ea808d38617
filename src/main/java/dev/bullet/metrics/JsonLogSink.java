package dev.bullet.metrics;

import dev.bullet.record.JsonCodec;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code json-log} consumer: appends one JSON object per data point
 * ({@code {"timestamp", "worker", "component", "task", "name", "value"}}) to
 * {@code bullet.topology.metrics.json.path}, flushed after every delivery.
 */
public final class JsonLogSink implements MetricsSink {
    private BufferedWriter out;

    @Override
    public void prepare(Map<String, Object> settings) {
        String path = MetricsSettings.from(settings).jsonPath();
        try {
            Path file = Path.of(path).toAbsolutePath();
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the metrics file " + path, e);
        }
    }

    @Override
    public void accept(List<MetricPoint> points) {
        try {
            for (MetricPoint p : points) {
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("timestamp", p.timestamp());
                line.put("worker", p.worker());
                line.put("component", p.component());
                line.put("task", p.task());
                line.put("name", p.name());
                line.put("value", p.value());
                out.write(JsonCodec.toResultJson(line));
                out.write('\n');
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the metrics file", e);
        }
    }

    @Override
    public void close() {
        try {
            if (out != null) {
                out.close();
            }
        } catch (IOException ignored) {
            // closing at shutdown: nothing left to report to
        }
    }
}

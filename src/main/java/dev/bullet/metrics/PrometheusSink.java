package dev.bullet.metrics;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code prometheus} consumer: keeps the latest value of every metric and serves them in Prometheus text
 * format on {@code http://127.0.0.1:<bullet.topology.metrics.prometheus.port>/metrics} (JDK HTTP server). Names are
 * made Prometheus-safe (other characters become {@code _}); a map value becomes one series per key
 * ({@code name_key}); worker, component and task are labels.
 */
public final class PrometheusSink implements MetricsSink {
    private final Map<String, Double> latest = new ConcurrentHashMap<>();
    private HttpServer server;

    @Override
    public void prepare(Map<String, Object> settings) {
        int port = MetricsSettings.from(settings).prometheusPort();
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve Prometheus metrics on 127.0.0.1:" + port, e);
        }
        server.createContext("/", exchange -> {
            byte[] body = render().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream os = exchange.getResponseBody()) {
                os.write(body);
            }
        });
        server.start();
    }

    /** The port actually bound (useful with port 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void accept(List<MetricPoint> points) {
        for (MetricPoint p : points) {
            String labels = "{worker=\"" + p.worker() + "\",component=\"" + p.component() + "\",task=\"" + p.task() + "\"}";
            if (p.value() instanceof Number) {
                latest.put(sanitize(p.name()) + labels, ((Number) p.value()).doubleValue());
            } else if (p.value() instanceof Map) {
                for (Map.Entry<?, ?> e : ((Map<?, ?>) p.value()).entrySet()) {
                    if (e.getValue() instanceof Number) {
                        latest.put(sanitize(p.name() + "_" + e.getKey()) + labels, ((Number) e.getValue()).doubleValue());
                    }
                }
            }
        }
    }

    String render() {
        StringBuilder sb = new StringBuilder();
        String lastName = null;
        for (Map.Entry<String, Double> e : new TreeMap<>(latest).entrySet()) {
            String name = e.getKey().substring(0, e.getKey().indexOf('{'));
            if (!name.equals(lastName)) {
                sb.append("# TYPE ").append(name).append(" gauge\n");
                lastName = name;
            }
            sb.append(e.getKey()).append(' ').append(e.getValue()).append('\n');
        }
        return sb.toString();
    }

    static String sanitize(String name) {
        StringBuilder sb = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || i > 0 && c >= '0' && c <= '9';
            sb.append(ok ? c : '_');
        }
        return sb.toString();
    }

    @Override
    public void close() {
        if (server != null) {
            server.stop(0);
        }
    }
}

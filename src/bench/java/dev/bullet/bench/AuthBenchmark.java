package dev.bullet.bench;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.local.EmbeddedKafka;
import dev.bullet.record.JsonCodec;
import dev.bullet.rest.QueryService;
import dev.bullet.rest.RestServer;
import dev.bullet.testing.EchoTopology;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * What authentication and tenant quotas cost a query's round trip, in one JVM and one run: two REST servers on one
 * embedded Kafka broker and a stand-in topology ({@link EchoTopology}, which answers short queries at once), one with
 * {@code bullet.rest.auth.type: none} and one with {@code tokens}. Round trips of {@code validate-query} and of a
 * short {@code http-query} alternate between the two, one request at a time. Then, on the tokens server, the
 * {@code http-query} round trips of a quiet tenant alone and while another tenant sends 10× its per-minute quota.
 * Prints JSON (µs). {@code java -cp target/test-classes:target/classes:$(cat target/classpath.txt)
 * dev.bullet.bench.AuthBenchmark [ROUNDS]}.
 */
public final class AuthBenchmark {
    private static final String QUICK = "{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":500}";
    private static final String TOKEN_QUIET = "quiet-token-0123456789abcdef";
    private static final String TOKEN_NOISY = "noisy-token-0123456789abcdef";
    private static final String TOKEN_CALM = "calm-token-0123456789abcdef";
    private static final int PER_MINUTE = 600;

    private AuthBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5_000;
        Path dir = Files.createTempDirectory("auth-bench");
        Path tokens = dir.resolve("tokens");
        Files.writeString(tokens, TOKEN_QUIET + " quiet\n" + TOKEN_NOISY + " noisy\n" + TOKEN_CALM + " calm\n");
        try (EmbeddedKafka kafka = EmbeddedKafka.onFreePorts(dir.resolve("kafka"))) {
            kafka.start();
            Map<String, Object> base = new HashMap<>();
            base.put(SettingsTable.PUBSUB_KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers());
            base.put(SettingsTable.PUBSUB_KAFKA_RESPONSE_PARTITIONS, 2);
            base.put(SettingsTable.REST_PORT, 0);
            BulletSettings settings = BulletSettings.load(null, base);
            try (EchoTopology echo = EchoTopology.start(settings);
                 QueryService open = QueryService.start(settings.withOverrides(Map.of(
                         SettingsTable.REST_RESPONSE_PARTITIONS, List.of("0"))));
                 RestServer openServer = RestServer.start(open);
                 QueryService authed = QueryService.start(settings.withOverrides(Map.of(
                         SettingsTable.REST_RESPONSE_PARTITIONS, List.of("1"), SettingsTable.REST_AUTH_TYPE, "tokens",
                         SettingsTable.REST_AUTH_TOKENS_FILE, tokens.toString(),
                         SettingsTable.REST_TENANT_MAX_QUERIES_PER_MINUTE, PER_MINUTE,
                         SettingsTable.REST_TENANT_MAX_CONCURRENT_QUERIES, 1_000_000)));
                 RestServer authedServer = RestServer.start(authed)) {
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                awaitHealthy(http, openServer);
                awaitHealthy(http, authedServer);
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("rounds", rounds);
                for (String path : List.of(RestServer.VALIDATE_QUERY, RestServer.HTTP_QUERY)) {
                    int n = path.equals(RestServer.HTTP_QUERY) ? Math.min(rounds, PER_MINUTE - 50) : rounds;
                    Histogram none = new Histogram(3);
                    Histogram withToken = new Histogram(3);
                    for (int i = 0; i < n / 5 + 100; i++) { // warm-up; the per-minute quota is one minute's worth
                        roundTrip(http, openServer, path, null);
                    }
                    for (int i = 0; i < n; i++) {
                        none.recordValue(roundTrip(http, openServer, path, null));
                        withToken.recordValue(roundTrip(http, authedServer, path, TOKEN_QUIET));
                    }
                    out.put(path.substring(path.lastIndexOf('/') + 1), Map.of("none", summary(none),
                                                                              "tokens", summary(withToken),
                                                                              "n", n));
                }
                out.put("fairness", fairness(http, authedServer));
                out.put("kills_seen", echo.kills());
                System.out.println(JsonCodec.toJson(out));
            }
        }
        System.exit(0);
    }

    /** A calm tenant's http-query round trips alone, then while the noisy one sends 10× its per-minute quota. */
    private static Map<String, Object> fairness(HttpClient http, RestServer server) throws Exception {
        long pauseNs = TimeUnit.SECONDS.toNanos(60) / PER_MINUTE / 10;
        int n = 250;
        Histogram alone = new Histogram(3);
        paced(http, server, alone, n);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong refused = new AtomicLong();
        AtomicLong sent = new AtomicLong();
        Thread noisy = new Thread(() -> {
            long next = System.nanoTime();
            while (!stop.get()) {
                HttpRequest r = post(server, RestServer.HTTP_QUERY, TOKEN_NOISY);
                http.sendAsync(r, BodyHandlers.discarding()).thenAccept(a -> {
                    if (a.statusCode() == 429) {
                        refused.incrementAndGet();
                    }
                });
                sent.incrementAndGet();
                next += pauseNs;
                LockSupport.parkNanos(next - System.nanoTime());
            }
        }, "noisy-tenant");
        noisy.start();
        Histogram beside = new Histogram(3);
        paced(http, server, beside, n);
        stop.set(true);
        noisy.join();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("calm_alone", summary(alone));
        out.put("calm_beside_noisy", summary(beside));
        out.put("noisy_sent", sent.get());
        out.put("noisy_refused_429", refused.get());
        out.put("noisy_rate_per_s", 1e9 / pauseNs);
        return out;
    }

    /** {@code n} calm round trips, 40 ms apart (2 × 250 stays under the calm tenant's own quota). */
    private static void paced(HttpClient http, RestServer server, Histogram into, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            into.recordValue(roundTrip(http, server, RestServer.HTTP_QUERY, TOKEN_CALM));
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(40));
        }
    }

    private static long roundTrip(HttpClient http, RestServer server, String path, String token)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        int status = http.send(post(server, path, token), BodyHandlers.discarding()).statusCode();
        long us = (System.nanoTime() - start) / 1_000;
        if (status != 200) {
            throw new IllegalStateException(path + " answered " + status);
        }
        return us;
    }

    private static HttpRequest post(RestServer server, String path, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path))
                                           .header("Content-Type", "application/json")
                                           .POST(HttpRequest.BodyPublishers.ofString(QUICK));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return b.build();
    }

    private static Map<String, Object> summary(Histogram h) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("p50_us", h.getValueAtPercentile(50));
        out.put("p99_us", h.getValueAtPercentile(99));
        out.put("max_us", h.getMaxValue());
        return out;
    }

    private static void awaitHealthy(HttpClient http, RestServer server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            int status = http.send(HttpRequest.newBuilder(URI.create(server.url() + RestServer.HEALTH)).build(),
                                   BodyHandlers.discarding()).statusCode();
            if (status == 200) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        throw new IllegalStateException("the stand-in topology never answered " + server.url());
    }
}

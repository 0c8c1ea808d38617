package dev.bullet.bench;

import dev.bullet.common.Cli;
import dev.bullet.record.JsonCodec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Benchmark P3 (BENCHMARKS.md; the seed's Tests 3–4) against a running local stack: N simultaneous RAW queries
 * (LIMIT 10) for one fresh id through {@code POST /api/bullet/queries/http-query}, then the 10 matching records,
 * then a check that every query returned all 10. The same check as {@code raw-query-validation.sh}, with one
 * asynchronous HTTP client instead of N curl processes, so N can reach the tens of thousands.
 * {@code scripts/bench-max-queries.sh}.
 */
public final class MaxQueriesBenchmark {
    private MaxQueriesBenchmark() {
    }

    /** The command line of {@code scripts/bench-max-queries.sh}. */
    @Command(name = "bench-max-queries.sh", sortOptions = false,
             description = {"Against a running stack (scripts/bullet-local.sh --no-generator is best): for each N, N simultaneous",
                            "RAW queries for a fresh id, 10 matching records, and a check that all N got all 10. Prints JSON.",
                            ""},
             footer = {"", "Exit status: 0 measured, 2 bad command line, 3 the stack is not healthy."})
    static final class Options implements Cli.Validated {
        @Option(names = "--queries", paramLabel = "N,N,...",
                description = "the simultaneous query counts, one run each (default 1000,5000,10000)")
        String queries = "1000,5000,10000";
        @Option(names = "--url", paramLabel = "URL", description = "the REST service (default http://127.0.0.1:9999)")
        String url = "http://127.0.0.1:9999";
        @Option(names = "--bootstrap", paramLabel = "HOST:PORT",
                description = "Kafka bootstrap servers for the matching records (default 127.0.0.1:9092)")
        String bootstrap = "127.0.0.1:9092";
        @Option(names = "--topic", paramLabel = "NAME", description = "the firehose topic (default bullet.records)")
        String topic = "bullet.records";
        @Option(names = "--duration", paramLabel = "MS", description = "each query's duration in ms (default 30000)")
        long duration = 30_000;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        boolean help;

        @Override
        public void validate() {
            try {
                counts();
            } catch (NumberFormatException e) {
                throw new Cli.UsageException("--queries needs a comma-separated list of numbers, not '" + queries + "'");
            }
        }

        List<Integer> counts() {
            List<Integer> out = new ArrayList<>();
            for (String n : queries.split(",")) {
                out.add(Integer.parseInt(n.trim()));
            }
            return out;
        }
    }

    public static void main(String[] args) throws Exception {
        Options o = new Options();
        int early = Cli.parse(o, args, System.out, System.err);
        if (early != Cli.RUN) {
            System.exit(early);
        }
        String url = o.url.replaceAll("/$", "");
        String bootstrap = o.bootstrap;
        String topic = o.topic;
        long duration = o.duration;
        HttpClient http = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(4))
                                    .connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> health;
        try {
            health = http.send(HttpRequest.newBuilder(URI.create(url + "/api/bullet/health")).build(),
                               HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            System.err.println("error: nothing answers at " + url + " (" + e + "); start the stack with scripts/bullet-local.sh");
            System.exit(3);
            return;
        }
        if (health.statusCode() != 200) {
            System.err.println("error: the stack at " + url + " is not healthy (" + health.statusCode() + "): " + health.body());
            System.exit(3);
        }
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        List<Map<String, Object>> points = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int n : o.counts()) {
                Map<String, Object> point = run(http, producer, url, topic, n, duration);
                System.err.println(JsonCodec.toJson(point));
                points.add(point);
            }
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("benchmark", "P3");
        result.put("date", Instant.now().toString());
        result.put("points", points);
        System.out.println(JsonCodec.toJson(result));
        System.exit(0);
    }

    private static CompletableFuture<HttpResponse<String>> query(HttpClient http, String url, String body, long timeoutMs) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/api/bullet/queries/http-query"))
                                         .header("Content-Type", "application/json").timeout(Duration.ofMillis(timeoutMs))
                                         .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> run(HttpClient http, KafkaProducer<byte[], byte[]> producer, String url, String topic,
                                   int n, long duration) throws Exception {
        String id = "p3-" + UUID.randomUUID().toString().substring(0, 8);
        String body = "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"" + id
                      + "\"]}],\"aggregation\":{\"type\":\"LIMIT\",\"size\":10},\"duration\":" + duration + "}";
        long start = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> futures = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            futures.add(query(http, url, body, duration + 60_000));
        }
        // every query sent before the probe is running once the probe finds its marker
        String marker = "marker-" + UUID.randomUUID();
        CompletableFuture<HttpResponse<String>> probe = query(http, url,
                "{\"filters\":[{\"field\":\"marker\",\"operation\":\"==\",\"values\":[\"" + marker
                + "\"]}],\"aggregation\":{\"type\":\"LIMIT\",\"size\":1},\"duration\":" + (duration * 4) + "}", duration * 4 + 60_000);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(duration * 4);
        while (!probe.isDone() && System.nanoTime() < deadline) {
            producer.send(new ProducerRecord<>(topic, ("{\"marker\":\"" + marker + "\"}").getBytes(StandardCharsets.UTF_8)));
            producer.flush();
            try {
                probe.get(500, TimeUnit.MILLISECONDS);
            } catch (TimeoutException notYet) {
                // keep sending markers until the probe is registered and finds one
            }
        }
        long registered = System.nanoTime();
        for (int k = 0; k < 10; k++) {
            producer.send(new ProducerRecord<>(topic, ("{\"id\":\"" + id + "\",\"k\":" + k + "}").getBytes(StandardCharsets.UTF_8)));
        }
        producer.flush();
        int complete = 0;
        int failed = 0;
        Map<Integer, Integer> statuses = new LinkedHashMap<>();
        for (CompletableFuture<HttpResponse<String>> f : futures) {
            try {
                HttpResponse<String> r = f.get(duration + 90_000, TimeUnit.MILLISECONDS);
                statuses.merge(r.statusCode(), 1, Integer::sum);
                List<Object> records = r.statusCode() == 200
                        ? (List<Object>) JsonCodec.parseMap(r.body()).get("records") : List.of();
                if (records.size() == 10) {
                    complete++;
                }
            } catch (Exception e) {
                failed++;
            }
        }
        long done = System.nanoTime();
        Map<String, Object> point = new LinkedHashMap<>();
        point.put("queries", n);
        point.put("complete", complete);
        point.put("all_complete", complete == n);
        point.put("client_errors", failed);
        point.put("status_codes", statuses);
        point.put("seconds_to_register", Math.round((registered - start) / 1e6) / 1000.0);
        point.put("seconds_to_all_results", Math.round((done - registered) / 1e6) / 1000.0);
        return point;
    }
}

package dev.bullet.storm;

import dev.bullet.common.Clock;
import dev.bullet.local.EmbeddedKafka;
import dev.bullet.pubsub.KafkaPubSub;
import dev.bullet.pubsub.KafkaPubSubConfig;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.JoinQuerier;
import dev.bullet.querying.Result;
import dev.bullet.record.JsonCodec;
import dev.bullet.tools.OfflineRunner;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;

import static dev.bullet.testing.Ports.freePort;
import static dev.bullet.testing.Ports.freePortPair;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The topology jar on a real multi-process Storm cluster ({@code scripts/storm-cluster.sh}: ZooKeeper, Nimbus and two
 * Supervisors as separate JVMs, four real worker JVMs) with cross-worker shuffles
 * ({@code topology.disable.loadaware.messaging: true}), so records, partials and metrics all cross workers through
 * Kryo. Every aggregation gives the offline runner's answer; a Filter worker killed with {@code kill -9} mid-query
 * leaves the count exact; the Result bolt's worker killed mid-query still delivers every result once, the answer
 * the offline runner's; the Join's worker killed still gets the query answered, flagged as maybe incomplete; a
 * {@code storm rebalance} mid-query still gets it answered.
 * One cluster serves the whole class.
 */
@Timeout(900)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StormClusterIT {
    private static final Path SCRIPT = Path.of("scripts/storm-cluster.sh").toAbsolutePath();
    private static final int REPLY_PARTITION = 1;

    @TempDir
    static Path dir;
    private static Map<String, String> env;
    private static File log;
    private static Path metrics;
    private static EmbeddedKafka kafka;
    private static Publisher queries;
    private static Subscriber results;
    private static KafkaProducer<byte[], byte[]> firehose;
    private static final Map<String, List<Map<String, Object>>> received = new HashMap<>();
    private static final Set<String> finished = new HashSet<>();
    /** Delivery ids of the results received: a second copy is dropped, as REST does. */
    private static final Set<String> deliveries = new HashSet<>();



    private static String script(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log));
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("timed out: " + command);
        }
        Files.writeString(log.toPath(), out, StandardOpenOption.APPEND);
        assertEquals(0, p.exitValue(), String.join(" ", command) + " failed; see " + log);
        return out;
    }

    @BeforeAll
    static void startCluster() throws Exception {
        StringBuilder slots = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            slots.append(i == 0 ? "" : ",").append(freePort());
        }
        env = Map.of("STORM_HOME", dir.resolve("storm-home").toString(),
                     "STORM_ZK_PORT", Integer.toString(freePort()),
                     "STORM_NIMBUS_PORT", Integer.toString(freePort()),
                     "STORM_SUP_PORT", Integer.toString(freePortPair()),
                     "STORM_SLOTS", slots.toString());
        log = dir.resolve("cluster.log").toFile();
        Files.writeString(log.toPath(), "");
        metrics = dir.resolve("metrics.jsonl");
        kafka = EmbeddedKafka.onFreePorts(dir.resolve("kafka"));
        kafka.start();
        kafka.createTopics(Map.of("bullet.records", 1, "bullet.queries", 1, "bullet.responses", 2));
        Path conf = dir.resolve("cluster.yaml");
        Files.writeString(conf, String.join("\n",
                "bullet.topology.name: bullet-cluster-it",
                "bullet.topology.workers: 4",
                "bullet.topology.filter.bolt.parallelism: 4",
                "bullet.topology.datasource.bolt.parallelism: 2",
                "topology.disable.loadaware.messaging: true",
                "bullet.topology.datasource.kafka.bootstrap.servers: " + kafka.bootstrapServers(),
                "bullet.pubsub.kafka.bootstrap.servers: " + kafka.bootstrapServers(),
                "bullet.pubsub.kafka.response.partitions: 2",
                "bullet.topology.metrics.enable: true",
                "bullet.topology.metrics.built.in.enable: true",
                "bullet.topology.metrics.built.in.emit.interval.mapping:",
                "  default: 5",
                "bullet.topology.metrics.classes: [json-log]",
                "bullet.topology.metrics.json.path: " + metrics,
                ""));
        try {
            script("start", "--supervisors", "2");
            script("submit", "--bullet-conf", conf.toString());
        } catch (Throwable e) {
            stopCluster();
            throw e;
        }
        KafkaPubSub pubSub = new KafkaPubSub(new KafkaPubSubConfig(kafka.bootstrapServers(), "bullet.queries",
                                                                   "bullet.responses", 2, Map.of()));
        queries = pubSub.requestPublisher();
        results = pubSub.responseSubscriber(List.of(REPLY_PARTITION));
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        firehose = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        awaitQueriesRegistered(Duration.ofSeconds(240));
    }

    @AfterAll
    static void stopCluster() throws Exception {
        try {
            script("stop");
        } finally {
            for (AutoCloseable c : new AutoCloseable[] {firehose, results, queries, kafka}) {
                if (c != null) {
                    c.close();
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ the tests

    @Test
    @Order(1)
    void everyAggregationAcrossWorkersEqualsTheOfflineRunner() throws Exception {
        String run = "agg-" + UUID.randomUUID();
        String filter = "\"filters\":[{\"field\":\"run\",\"operation\":\"==\",\"values\":[\"" + run + "\"]}]";
        Map<String, String> byName = new LinkedHashMap<>();
        byName.put("RAW", "{" + filter + ",\"aggregation\":{\"type\":\"RAW\",\"size\":500},\"duration\":25000}");
        byName.put("GROUP", "{" + filter + ",\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"g\":\"g\"},\"attributes\":"
                            + "{\"operations\":[{\"type\":\"COUNT\"},{\"type\":\"SUM\",\"field\":\"v\",\"newName\":\"s\"}]}},"
                            + "\"duration\":25000}");
        byName.put("COUNT DISTINCT", "{" + filter + ",\"aggregation\":{\"type\":\"COUNT DISTINCT\",\"fields\":{\"u\":\"u\"}},"
                                     + "\"duration\":25000}");
        byName.put("TOP K", "{" + filter + ",\"aggregation\":{\"type\":\"TOP K\",\"size\":10,\"fields\":{\"u\":\"u\"}},"
                            + "\"duration\":25000}");
        byName.put("DISTRIBUTION", "{" + filter + ",\"aggregation\":{\"type\":\"DISTRIBUTION\",\"fields\":{\"v\":\"v\"},"
                                   + "\"attributes\":{\"type\":\"QUANTILE\",\"points\":[0,0.25,0.5,0.75,1]}},\"duration\":25000}");
        String windowed = "{" + filter + ",\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":"
                          + "[{\"type\":\"COUNT\"}]}},\"window\":{\"emit\":{\"type\":\"TIME\",\"every\":2000}},\"duration\":25000}";
        Map<String, String> ids = new LinkedHashMap<>();
        for (Map.Entry<String, String> q : byName.entrySet()) {
            ids.put(q.getKey(), send(q.getValue()));
        }
        String windowedId = send(windowed);
        awaitQueriesRegistered(Duration.ofSeconds(60));

        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 240; i++) {
            lines.add("{\"run\":\"" + run + "\",\"id\":\"r" + i + "\",\"g\":\"g" + (i % 4) + "\",\"u\":\"u" + (i % 30)
                      + "\",\"v\":" + (i % 17) + "}");
        }
        produce(lines);

        for (Map.Entry<String, String> q : byName.entrySet()) {
            List<Map<String, Object>> cluster = awaitFinal(ids.get(q.getKey()), Duration.ofSeconds(90));
            assertEquals(sorted(offline(q.getValue(), lines).get(0)), sorted(records(cluster.get(cluster.size() - 1))),
                         q.getKey() + ": the cluster's answer equals the offline runner's");
        }
        long total = 0;
        for (Map<String, Object> window : awaitFinal(windowedId, Duration.ofSeconds(90))) {
            for (Map<String, Object> r : records(window)) {
                total += ((Number) r.get("COUNT")).longValue();
            }
        }
        assertEquals(lines.size(), total, "the windows of a windowed query together count every record once");
    }

    @Test
    @Order(2)
    void killingAFilterWorkerMidGroupQueryKeepsTheCountExact() throws Exception {
        String run = "kill-" + UUID.randomUUID();
        String id = send("{\"filters\":[{\"field\":\"run\",\"operation\":\"==\",\"values\":[\"" + run + "\"]}],"
                         + "\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"g\":\"g\"},\"attributes\":{\"operations\":"
                         + "[{\"type\":\"COUNT\"}]}},\"duration\":50000}");
        awaitQueriesRegistered(Duration.ofSeconds(60));
        produce(records(run, 0, 300));

        Worker victim = workers().stream().filter(w -> w.components().contains("filter-bolt")
                                                       && !w.components().contains("join-bolt")).findFirst()
                .orElseThrow(() -> new AssertionError("no worker with Filter tasks and no Join task"));
        assertTrue(ProcessHandle.of(victim.pid()).orElseThrow().destroyForcibly(), "kill -9 " + victim);
        produce(records(run, 300, 600)); // some go to the dead worker's tasks: sent again after the timeout
        awaitRestarted(victim, Duration.ofSeconds(120));
        produce(records(run, 600, 900));

        List<Map<String, Object>> finals = awaitFinal(id, Duration.ofSeconds(120));
        long total = 0;
        for (Map<String, Object> r : records(finals.get(finals.size() - 1))) {
            assertEquals(300L, ((Number) r.get("COUNT")).longValue(), "group " + r.get("g") + " counted exactly");
            total += ((Number) r.get("COUNT")).longValue();
        }
        assertEquals(900, total);
    }

    @Test
    @Order(3)
    @SuppressWarnings("unchecked")
    void killingTheResultWorkerMidQueryStillDeliversEveryResultOnce() throws Exception {
        String run = "result-" + UUID.randomUUID();
        String filter = "\"filters\":[{\"field\":\"run\",\"operation\":\"==\",\"values\":[\"" + run + "\"]}]";
        String grouped = "{" + filter + ",\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"g\":\"g\"},\"attributes\":"
                         + "{\"operations\":[{\"type\":\"COUNT\"}]}},\"duration\":30000}";
        String windowed = "{" + filter + ",\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":"
                          + "[{\"type\":\"COUNT\"}]}},\"window\":{\"emit\":{\"type\":\"TIME\",\"every\":2000}},"
                          + "\"duration\":30000}";
        Worker victim = workers().stream().filter(w -> w.components().contains("result-bolt")
                                                       && !w.components().contains("join-bolt")
                                                       && !w.components().contains("datasource-spout"))
                .findFirst().orElse(null);
        assumeTrue(victim != null, "the scheduler put the Result bolt with the Join or the DataSource spout: " + workers());
        String groupedId = send(grouped);
        String windowedId = send(windowed);
        awaitQueriesRegistered(Duration.ofSeconds(60));
        List<String> lines = records(run, 0, 300);
        produce(lines);

        assertTrue(ProcessHandle.of(victim.pid()).orElseThrow().destroyForcibly(), "kill -9 " + victim);
        awaitRestarted(victim, Duration.ofSeconds(120));

        List<Map<String, Object>> finals = awaitFinal(groupedId, Duration.ofSeconds(120));
        assertEquals(sorted(offline(grouped, lines).get(0)), sorted(records(finals.get(finals.size() - 1))),
                     "the answer equals the offline runner's");
        List<Long> numbers = new ArrayList<>();
        long total = 0;
        for (Map<String, Object> window : awaitFinal(windowedId, Duration.ofSeconds(120))) {
            numbers.add(((Number) ((Map<String, Object>) ((Map<String, Object>) window.get("meta")).get("window"))
                .get("number")).longValue());
            for (Map<String, Object> r : records(window)) {
                total += ((Number) r.get("COUNT")).longValue();
            }
        }
        assertEquals(LongStream.rangeClosed(1, numbers.size()).boxed().toList(), numbers.stream().sorted().toList(),
                     "every window once, whether the dead worker lost it or not: " + numbers);
        assertEquals(lines.size(), total, "the windows together count every record once");
    }

    @Test
    @Order(4)
    @SuppressWarnings("unchecked")
    void killingTheJoinWorkerStillAnswersByTheDeadlineSayingWhatMayBeIncomplete() throws Exception {
        String run = "join-" + UUID.randomUUID();
        long duration = 45_000;
        String id = send("{\"filters\":[{\"field\":\"run\",\"operation\":\"==\",\"values\":[\"" + run + "\"]}],"
                         + "\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}},"
                         + "\"duration\":" + duration + "}");
        long sent = System.nanoTime();
        awaitQueriesRegistered(Duration.ofSeconds(60));
        produce(records(run, 0, 100));
        Worker join = workers().stream().filter(w -> w.components().contains("join-bolt")).findFirst().orElseThrow();
        assertTrue(ProcessHandle.of(join.pid()).orElseThrow().destroyForcibly(), "kill -9 " + join);
        awaitRestarted(join, Duration.ofSeconds(120));
        produce(records(run, 100, 200));

        long deadline = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent) + duration + 30_000;
        List<Map<String, Object>> finals = awaitFinal(id, Duration.ofMillis(deadline));
        Map<String, Object> meta = (Map<String, Object>) finals.get(finals.size() - 1).get("meta");
        assertTrue(meta.containsKey(JoinQuerier.INCOMPLETE), "the result says it may miss data: " + meta);
    }

    @Test
    @Order(5)
    void stormRebalanceMidQueryStillAnswers() throws Exception {
        String run = "rebalance-" + UUID.randomUUID();
        long duration = 40_000;
        String id = send("{\"filters\":[{\"field\":\"run\",\"operation\":\"==\",\"values\":[\"" + run + "\"]}],"
                         + "\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}},"
                         + "\"duration\":" + duration + "}");
        awaitQueriesRegistered(Duration.ofSeconds(60));
        produce(records(run, 0, 100));

        script("rebalance", "bullet-cluster-it", "-w", "1");
        produce(records(run, 100, 200));

        List<Map<String, Object>> finals = awaitFinal(id, Duration.ofMillis(duration + 60_000));
        assertTrue(finals.get(finals.size() - 1).containsKey("records"), "answered after the rebalance");
    }

    @Test
    @Order(6)
    void metricsArriveFromEveryWorker() throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        Set<Object> seen = new HashSet<>();
        while (System.nanoTime() < deadline) {
            if (Files.exists(metrics)) {
                for (String line : Files.readAllLines(metrics)) {
                    Map<String, Object> point = JsonCodec.parseMap(line);
                    if ("memory.heap.used".equals(point.get("name"))) {
                        seen.add(point.get("worker"));
                    }
                }
                if (seen.size() >= 4) {
                    return;
                }
            }
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos()); // poll interval
        }
        fail("metrics from 4 workers expected, saw " + seen);
    }

    @Test
    @Order(7)
    void brokerRestartMidQueryLosesNoRecord() throws Exception {
        String run = "broker-" + UUID.randomUUID();
        long duration = 60_000;
        String id = send("{\"filters\":[{\"field\":\"run\",\"operation\":\"==\",\"values\":[\"" + run + "\"]}],"
                         + "\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}},"
                         + "\"duration\":" + duration + "}");
        awaitQueriesRegistered(Duration.ofSeconds(60));
        produce(records(run, 0, 100));

        kafka.stop(); // SIGTERM-like: a clean shutdown, same data directory and port
        kafka.start();
        produce(records(run, 100, 200));

        List<Map<String, Object>> finals = awaitFinal(id, Duration.ofMillis(duration + 60_000));
        List<Map<String, Object>> rows = records(finals.get(finals.size() - 1));
        long count = rows.isEmpty() ? 0 : ((Number) rows.get(0).get("COUNT")).longValue();
        assertTrue(count >= 200, "at-least-once across a broker restart: every record counted, got " + count);
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private record Worker(int port, long pid, List<String> components) {
    }

    private static List<Worker> workers() throws Exception {
        List<Worker> out = new ArrayList<>();
        for (String line : script("workers").split("\n")) {
            String[] parts = line.trim().split(" ");
            if (parts.length == 3 && !parts[1].equals("-")) {
                out.add(new Worker(Integer.parseInt(parts[0]), Long.parseLong(parts[1]), List.of(parts[2].split(","))));
            }
        }
        return out;
    }

    /** Waits until a worker JVM runs again on the killed worker's port (Storm restarted it). */
    private static void awaitRestarted(Worker killed, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (Worker w : workers()) {
                if (w.port() == killed.port() && w.pid() != killed.pid()) {
                    return;
                }
            }
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos()); // poll interval
        }
        fail("worker on port " + killed.port() + " was not restarted");
    }

    private static List<String> records(String run, int from, int to) {
        List<String> lines = new ArrayList<>();
        for (int i = from; i < to; i++) {
            lines.add("{\"run\":\"" + run + "\",\"g\":\"g" + (i % 3) + "\",\"i\":" + i + "}");
        }
        return lines;
    }

    private static void produce(List<String> lines) {
        for (String line : lines) {
            firehose.send(new ProducerRecord<>("bullet.records", line.getBytes(StandardCharsets.UTF_8)));
        }
        firehose.flush();
    }

    private static String send(String query) {
        String id = UUID.randomUUID().toString();
        queries.send(PubSubMessage.query(id, query, REPLY_PARTITION));
        return id;
    }

    /**
     * Proves that the queries sent so far reached the Filter tasks: a probe RAW query sent after them (the query spout
     * keeps their order) finds a marker record.
     */
    private static void awaitQueriesRegistered(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            String marker = "probe-" + UUID.randomUUID();
            String id = send("{\"filters\":[{\"field\":\"probe\",\"operation\":\"==\",\"values\":[\"" + marker + "\"]}],"
                             + "\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":20000}");
            long until = Math.min(deadline, System.nanoTime() + Duration.ofSeconds(25).toNanos());
            while (System.nanoTime() < until) {
                produce(List.of("{\"probe\":\"" + marker + "\"}"));
                poll(Duration.ofMillis(300));
                if (finished.contains(id)) {
                    if (!records(received.get(id).get(received.get(id).size() - 1)).isEmpty()) {
                        return;
                    }
                    break;
                }
            }
        }
        fail("the topology did not answer a probe query within " + timeout);
    }

    private static void poll(Duration timeout) {
        for (PubSubMessage m : results.receive(timeout)) {
            if (m.delivery() != null && !deliveries.add(m.delivery().id())) {
                continue;
            }
            received.computeIfAbsent(m.id(), k -> new ArrayList<>()).add(JsonCodec.parseMap(m.payload()));
            if (m.signal() == Signal.COMPLETE || m.signal() == Signal.FAIL) {
                finished.add(m.id());
            }
        }
    }

    /** Every result of the query (window results, then the final one), once the final one arrived. */
    private static List<Map<String, Object>> awaitFinal(String id, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline && !finished.contains(id)) {
            poll(Duration.ofMillis(500));
        }
        assertTrue(finished.contains(id), "no final result for " + id + " within " + timeout);
        return received.get(id);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> records(Map<String, Object> result) {
        return (List<Map<String, Object>>) result.get("records");
    }

    /** The offline runner's results for the query over these lines. */
    private static List<List<Map<String, Object>>> offline(String query, List<String> lines) throws IOException {
        List<List<Map<String, Object>>> out = new ArrayList<>();
        new OfflineRunner(QuerySettings.defaults(), Clock.SYSTEM)
                .run(query, new BufferedReader(new StringReader(String.join("\n", lines))),
                     (Result r) -> out.add(records(JsonCodec.parseMap(r.toJson()))),
                     new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        return out;
    }

    private static List<String> sorted(List<Map<String, Object>> records) {
        return records.stream().map(JsonCodec::toJson).sorted(Comparator.naturalOrder()).toList();
    }
}

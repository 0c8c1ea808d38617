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
import dev.bullet.querying.Result;
import dev.bullet.record.JsonCodec;
import dev.bullet.tools.OfflineRunner;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

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
import java.util.Arrays;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static dev.bullet.testing.Ports.freePort;
import static dev.bullet.testing.Ports.freePortPair;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A real multi-process Storm cluster for the cluster ITs: embedded Kafka on loopback, {@code scripts/storm-cluster.sh}
 * (ZooKeeper, Nimbus, Supervisors as separate JVMs, real worker JVMs) with the topology jar submitted, the PubSub's
 * query publisher and result subscriber, and a firehose producer. Also: the workers and their components, killing
 * and awaiting a restarted worker, probes that prove queries reached the Filter tasks and records flow, and the
 * offline runner's answer to compare with.
 */
final class StormClusterFixture {
    static final String RECORDS_TOPIC = "bullet.records";
    static final int REPLY_PARTITION = 1;
    private static final Path SCRIPT = Path.of("scripts/storm-cluster.sh").toAbsolutePath();
    private static final Pattern WORKER_LOADED = Pattern.compile("has finished loading");

    private final Path dir;
    private final Map<String, String> env;
    private final File log;
    private final int recordPartitions;
    private EmbeddedKafka kafka;
    private Publisher queries;
    private Subscriber results;
    private KafkaProducer<byte[], byte[]> firehose;
    private final Map<String, List<Map<String, Object>>> received = new HashMap<>();
    private final Set<String> finished = new HashSet<>();

    /** A worker JVM: its slot port, pid, and the components with tasks in it. */
    record Worker(int port, long pid, List<String> components) {
        boolean has(String component) {
            return components.contains(component);
        }
    }

    private StormClusterFixture(Path dir, int recordPartitions) throws IOException {
        this.dir = dir;
        this.recordPartitions = recordPartitions;
        StringBuilder slots = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            slots.append(i == 0 ? "" : ",").append(freePort());
        }
        this.env = Map.of("STORM_HOME", dir.resolve("storm-home").toString(),
                          "STORM_ZK_PORT", Integer.toString(freePort()),
                          "STORM_NIMBUS_PORT", Integer.toString(freePort()),
                          "STORM_SUP_PORT", Integer.toString(freePortPair()),
                          "STORM_SLOTS", slots.toString());
        this.log = dir.resolve("cluster.log").toFile();
        Files.writeString(log.toPath(), "");
    }

    /**
     * Starts Kafka and a cluster of two Supervisors, submits the topology with {@code bulletConf} (the Kafka settings
     * added) and waits until it answers a probe query.
     *
     * @param bulletConf lines of the topology's settings file, without the Kafka bootstrap servers
     * @param recordPartitions partitions of the firehose topic
     */
    static StormClusterFixture start(Path dir, List<String> bulletConf, int recordPartitions) throws Exception {
        StormClusterFixture c = new StormClusterFixture(dir, recordPartitions);
        try {
            c.kafka = EmbeddedKafka.onFreePorts(dir.resolve("kafka"));
            c.kafka.start();
            c.kafka.createTopics(Map.of(RECORDS_TOPIC, recordPartitions, "bullet.queries", 1, "bullet.responses", 2));
            List<String> lines = new ArrayList<>(bulletConf);
            lines.add("bullet.topology.datasource.kafka.bootstrap.servers: " + c.kafka.bootstrapServers());
            lines.add("bullet.pubsub.kafka.bootstrap.servers: " + c.kafka.bootstrapServers());
            lines.add("bullet.pubsub.kafka.response.partitions: 2");
            Path conf = dir.resolve("cluster.yaml");
            Files.writeString(conf, String.join("\n", lines) + "\n");
            c.script("start", "--supervisors", "2");
            c.script("submit", "--bullet-conf", conf.toString());
            KafkaPubSub pubSub = new KafkaPubSub(new KafkaPubSubConfig(c.kafka.bootstrapServers(), "bullet.queries",
                                                                       "bullet.responses", 2, Map.of()));
            c.queries = pubSub.requestPublisher();
            c.results = pubSub.responseSubscriber(List.of(REPLY_PARTITION));
            Properties p = new Properties();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, c.kafka.bootstrapServers());
            p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
            c.firehose = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
            c.awaitQueriesRegistered(Duration.ofSeconds(240));
            return c;
        } catch (Throwable e) {
            c.stop();
            throw e;
        }
    }

    /** Stops the cluster (workers, Supervisors, Nimbus, ZooKeeper), the clients and Kafka. */
    void stop() throws Exception {
        try {
            if (Files.exists(dir.resolve("storm-home").resolve("run"))) {
                script("stop");
            }
        } finally {
            for (AutoCloseable a : new AutoCloseable[] {firehose, results, queries, kafka}) {
                if (a != null) {
                    a.close();
                }
            }
        }
    }

    EmbeddedKafka kafka() {
        return kafka;
    }

    KafkaProducer<byte[], byte[]> firehose() {
        return firehose;
    }

    int recordPartitions() {
        return recordPartitions;
    }

    /** Runs {@code storm-cluster.sh} with the arguments; its output (asserting it succeeded). */
    String script(String... args) throws Exception {
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

    // ------------------------------------------------------------------------------------------------ workers

    List<Worker> workers() throws Exception {
        List<Worker> out = new ArrayList<>();
        for (String line : script("workers").split("\n")) {
            String[] parts = line.trim().split(" ");
            if (parts.length == 3 && !parts[1].equals("-")) {
                out.add(new Worker(Integer.parseInt(parts[0]), Long.parseLong(parts[1]), List.of(parts[2].split(","))));
            }
        }
        return out;
    }

    /** {@code kill -9} of the worker JVM. */
    static void kill(Worker w) {
        assertTrue(ProcessHandle.of(w.pid()).orElseThrow(() -> new AssertionError("no process " + w)).destroyForcibly(),
                   "kill -9 " + w);
    }

    /** How many times a worker JVM finished loading on this port (its log is kept across restarts). */
    long loads(int port) throws IOException {
        Path artifacts = dir.resolve("storm-home").resolve("logs").resolve("workers-artifacts");
        if (!Files.isDirectory(artifacts)) {
            return 0;
        }
        long n = 0;
        try (Stream<Path> logs = Files.find(artifacts, 3, (p, a) -> p.endsWith(Path.of(Integer.toString(port), "worker.log")))) {
            for (Path p : logs.toList()) {
                Matcher m = WORKER_LOADED.matcher(Files.readString(p, StandardCharsets.ISO_8859_1));
                while (m.find()) {
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * Waits until a new worker JVM on the killed worker's port finished loading (Storm restarted it: its executors
     * run), {@code loadsBefore} being {@link #loads} before the kill.
     */
    void awaitRestarted(Worker killed, long loadsBefore, Duration timeout) throws Exception {
        awaitLoaded(killed.port(), loadsBefore, timeout);
    }

    /** Waits until a worker JVM on this port finished loading once more than {@code loadsBefore} times. */
    void awaitLoaded(int port, long loadsBefore, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (isLoaded(port, loadsBefore)) {
                return;
            }
            LockSupport.parkNanos(Duration.ofMillis(300).toNanos()); // poll interval
        }
        fail("no worker (re)started on port " + port + " within " + timeout + "; see " + dir);
    }

    /** Whether a worker JVM runs on this port and finished loading more than {@code loadsBefore} times. */
    boolean isLoaded(int port, long loadsBefore) throws IOException {
        return loads(port) > loadsBefore && workerPid(port) != -1;
    }

    /** The worker JVM on this slot port under this cluster's Storm home, or -1 (as {@code ClusterWorkers} finds it). */
    private long workerPid(int port) {
        String home = env.get("STORM_HOME");
        String portFlag = "-Dworker.port=" + port;
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().arguments().map(a -> {
                    List<String> args = Arrays.asList(a);
                    return args.contains("org.apache.storm.daemon.worker.Worker") && !args.contains("org.apache.storm.LogWriter")
                           && args.contains(portFlag) && args.stream().anyMatch(x -> x.contains(home));
                }).orElse(false))
                .mapToLong(ProcessHandle::pid).findFirst().orElse(-1);
    }

    // ------------------------------------------------------------------------------------------------ queries

    void produce(List<String> lines) {
        for (String line : lines) {
            firehose.send(new ProducerRecord<>(RECORDS_TOPIC, line.getBytes(StandardCharsets.UTF_8)));
        }
        firehose.flush();
    }

    /** Sends a query (JSON) on the PubSub; its id. */
    String send(String query) {
        String id = UUID.randomUUID().toString();
        queries.send(PubSubMessage.query(id, query, REPLY_PARTITION));
        return id;
    }

    /**
     * Proves that the queries sent so far reached the Filter tasks and that records of every partition of the firehose
     * flow to them: one probe RAW query per partition, sent after them (the query spout keeps their order), finds a
     * marker record produced to its partition. Since a partition is read in order, every record produced to it before
     * the marker was read before the probe's answer.
     */
    void awaitQueriesRegistered(Duration timeout) {
        List<Integer> all = new ArrayList<>();
        for (int p = 0; p < recordPartitions; p++) {
            all.add(p);
        }
        awaitQueriesRegistered(timeout, all);
    }

    /** As above, for these partitions of the firehose only. */
    void awaitQueriesRegistered(Duration timeout, List<Integer> partitions) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Map<Integer, String> probes = new LinkedHashMap<>();
            Map<Integer, String> markers = new LinkedHashMap<>();
            for (int p : partitions) {
                String marker = "probe-" + UUID.randomUUID();
                markers.put(p, marker);
                probes.put(p, send("{\"filters\":[{\"field\":\"probe\",\"operation\":\"==\",\"values\":[\"" + marker + "\"]}],"
                                   + "\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":20000}"));
            }
            long until = Math.min(deadline, System.nanoTime() + Duration.ofSeconds(25).toNanos());
            while (System.nanoTime() < until) {
                for (Map.Entry<Integer, String> e : markers.entrySet()) {
                    if (!answered(probes.get(e.getKey()))) {
                        firehose.send(new ProducerRecord<>(RECORDS_TOPIC, e.getKey(), null,
                                                           ("{\"probe\":\"" + e.getValue() + "\"}").getBytes(StandardCharsets.UTF_8)));
                    }
                }
                firehose.flush();
                poll(Duration.ofMillis(300));
                if (probes.values().stream().allMatch(this::answered)) {
                    return;
                }
                if (probes.values().stream().anyMatch(id -> finished.contains(id) && !answered(id))) {
                    break; // a probe ended empty: try again
                }
            }
        }
        fail("the topology did not answer a probe query on every partition within " + timeout);
    }

    private boolean answered(String id) {
        List<Map<String, Object>> r = received.get(id);
        return finished.contains(id) && !records(r.get(r.size() - 1)).isEmpty();
    }

    void poll(Duration timeout) {
        for (PubSubMessage m : results.receive(timeout)) {
            received.computeIfAbsent(m.id(), k -> new ArrayList<>()).add(JsonCodec.parseMap(m.payload()));
            if (m.signal() == Signal.COMPLETE || m.signal() == Signal.FAIL) {
                finished.add(m.id());
            }
        }
    }

    /** Every result of the query (window results, then the final one), once the final one arrived. */
    List<Map<String, Object>> awaitFinal(String id, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline && !finished.contains(id)) {
            poll(Duration.ofMillis(500));
        }
        assertTrue(finished.contains(id), "no final result for " + id + " within " + timeout);
        return received.get(id);
    }

    /** The final result of the query, or null while it has not arrived (polls once). */
    Map<String, Object> finalResult(String id) {
        poll(Duration.ofMillis(200));
        List<Map<String, Object>> r = received.get(id);
        return finished.contains(id) ? r.get(r.size() - 1) : null;
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> records(Map<String, Object> result) {
        return (List<Map<String, Object>>) result.get("records");
    }

    /** The offline runner's results for the query over these lines. */
    static List<List<Map<String, Object>>> offline(String query, List<String> lines) throws IOException {
        List<List<Map<String, Object>>> out = new ArrayList<>();
        new OfflineRunner(QuerySettings.defaults(), Clock.SYSTEM)
                .run(query, new BufferedReader(new StringReader(String.join("\n", lines))),
                     (Result r) -> out.add(records(JsonCodec.parseMap(r.toJson()))),
                     new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        return out;
    }

    static List<String> sorted(List<Map<String, Object>> records) {
        return records.stream().map(JsonCodec::toJson).sorted(Comparator.naturalOrder()).toList();
    }
}

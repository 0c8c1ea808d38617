package dev.bullet.storm;

import dev.bullet.local.EmbeddedKafka;
import dev.bullet.storm.StormClusterFixture.Worker;
import dev.bullet.storm.TopologyNames.Components;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import static dev.bullet.storm.StormClusterFixture.offline;
import static dev.bullet.storm.StormClusterFixture.records;
import static dev.bullet.storm.StormClusterFixture.sorted;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Exact answers through failures, on a real multi-process Storm cluster ({@link StormClusterFixture}: ZooKeeper,
 * Nimbus, two Supervisors, five worker JVMs, cross-worker shuffles, a firehose of two partitions read by two spout
 * tasks). For each failure, four queries (COUNT, GROUP COUNT by a field, COUNT DISTINCT, RAW) run at once over records
 * of their own tag, fed at a steady rate before, during and after it; each final answer must equal the offline
 * runner's over exactly the records sent in the query's window, with no {@code meta.incomplete}.
 *
 * <p>The failures, one case each: {@code kill -9} of the DataSource spout's worker, of a worker with Filter tasks and
 * no spout, Join or Result task (it holds a decode task and the query spout too), of the Join's worker, of the Result
 * bolt's worker; a broker restart; partitions moved between the two spout tasks (a third member joins their consumer
 * group, then leaves); and {@code storm rebalance} to four workers, which restarts every worker: the queries come back
 * from the query store and the Join state, and the Filter tasks take no batch before they are back. The Kafka consumers'
 * session timeout is 10 s here (Kafka's default, 45 s, keeps a dead spout task's partitions, or the query spout's,
 * unread that long), so a failure is over within ~25 s; the rebalance within ~45 s, ~70 s on a loaded machine (every
 * worker JVM starts at once).
 *
 * <p>The window: the queries are sent, then probe queries sent after them find a marker record on every partition
 * (the query spout keeps their order, so the queries run at the Filter tasks); only then is the feed started. It stops
 * well before the queries' end ({@link #MARGIN_MS}); before it stops, the failed part is back and records flow again
 * on every partition (the same probe), so every record sent was read before the end. A window sized for an idle
 * machine is tried first; when the failure outlasts it, the case runs again, failure included, in a longer one.
 *
 * <p>Layout: the default scheduler deals executors (ordered by task id: ackers, decode, spout, Filter, Join, query,
 * Result, tick) round robin over the slots; with five workers, two spout tasks and five Filter tasks the spout tasks,
 * the Join and the Result bolt land in different workers and a fifth holds Filter tasks and none of them. Four workers
 * cannot do that with two spout tasks. One cluster serves the whole class; the rebalance comes last. Its files and logs
 * stay in {@code target/failure-exactness-it}.
 */
@Timeout(900)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FailureExactnessIT {
    private static final String TOPOLOGY = "bullet-failure-it";
    private static final int PARTITIONS = 2;
    /** The feed stops at least this long before the queries' end. */
    private static final long MARGIN_MS = 8_000;
    /**
     * The queries' duration in the {@code kill -9} cases: a worker JVM is back and records flow again ~17-20 s after
     * the kill on an idle machine, ~35 s when the machine is busy with twice its cores' work; the feed must stop
     * {@link #MARGIN_MS} before the end.
     */
    private static final long KILL_QUERY_MS = 56_000;
    /**
     * The window tried first in the {@code kill -9} cases: enough when the worker is back within ~15 s (an idle
     * machine); else the case runs again with {@link #KILL_QUERY_MS}.
     */
    private static final long KILL_QUERY_FIRST_MS = 32_000;
    private static final List<Long> KILL_WINDOWS = List.of(KILL_QUERY_FIRST_MS, KILL_QUERY_MS);
    /** Records per feed step, and the step's period: 50 records a second. */
    private static final int STEP_RECORDS = 5;
    private static final long STEP_MS = 100;
    private static final int MAX_RECORDS = 4_000;
    /** Records sent before the failure, and after it is over (on top of those sent while it lasts). */
    private static final int BEFORE_RECORDS = 100;
    private static final int AFTER_RECORDS = 50;
    /** One record in RAW_EVERY matches the RAW query (it stays under its size, 500). */
    private static final int RAW_EVERY = 10;

    /** The cluster's home, Kafka's data and every log, kept for a look after a failure (the next run replaces it). */
    private static final Path DIR = Path.of("target", "failure-exactness-it").toAbsolutePath();
    private static StormClusterFixture cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        EmbeddedKafka.deleteDirectory(DIR);
        Files.createDirectories(DIR);
        cluster = StormClusterFixture.start(DIR, List.of(
                "bullet.topology.name: " + TOPOLOGY,
                "bullet.topology.workers: 5",
                "bullet.topology.datasource.spout.parallelism: 2",
                "bullet.topology.datasource.bolt.parallelism: 2",
                "bullet.topology.filter.bolt.parallelism: 5",
                "topology.disable.loadaware.messaging: true",
                "bullet.topology.join.snapshot.enable: true", // a restarted Join task goes on from its saved state
                // a dead spout task's partitions go to the live one after 10 s, not Kafka's default 45 s
                "bullet.topology.datasource.kafka.properties:",
                "  session.timeout.ms: \"10000\"",
                "  heartbeat.interval.ms: \"1000\"",
                // the same for the query spout's consumer (Kafka's default would hold new queries back 45 s)
                "bullet.pubsub.kafka.properties:",
                "  session.timeout.ms: \"10000\"",
                "  heartbeat.interval.ms: \"1000\""), PARTITIONS);
        System.out.println("layout: " + cluster.workers());
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.stop();
        }
    }

    // ------------------------------------------------------------------------------------------------ the tests

    @Test
    @Order(1)
    void killingTheDataSourceSpoutWorkerKeepsEveryAnswerExact() throws Exception {
        exactThrough("spout", KILL_WINDOWS, () -> killAndAwaitRestart(victim("a DataSource spout task, no Join or Result task",
                w -> w.has(Components.DATASOURCE_SPOUT) && !w.has(Components.JOIN_BOLT) && !w.has(Components.RESULT_BOLT))));
    }

    @Test
    @Order(2)
    void killingAFilterOnlyWorkerKeepsEveryAnswerExact() throws Exception {
        exactThrough("filter", KILL_WINDOWS, () -> killAndAwaitRestart(victim("Filter tasks, no spout, Join or Result task",
                w -> w.has(Components.FILTER_BOLT) && !w.has(Components.DATASOURCE_SPOUT) && !w.has(Components.JOIN_BOLT)
                     && !w.has(Components.RESULT_BOLT))));
    }

    @Test
    @Order(3)
    void killingTheJoinWorkerKeepsEveryAnswerExact() throws Exception {
        exactThrough("join", KILL_WINDOWS, () -> killAndAwaitRestart(victim("the Join task, no spout or Result task",
                w -> w.has(Components.JOIN_BOLT) && !w.has(Components.DATASOURCE_SPOUT) && !w.has(Components.RESULT_BOLT))));
    }

    @Test
    @Order(4)
    void killingTheResultBoltWorkerKeepsEveryAnswerExact() throws Exception {
        exactThrough("result", KILL_WINDOWS, () -> killAndAwaitRestart(victim("the Result task, no spout or Join task",
                w -> w.has(Components.RESULT_BOLT) && !w.has(Components.DATASOURCE_SPOUT) && !w.has(Components.JOIN_BOLT))));
    }

    @Test
    @Order(5)
    void restartingTheBrokerKeepsEveryAnswerExact() throws Exception {
        exactThrough("broker", List.of(16_000L, 28_000L), () -> {
            cluster.kafka().stop(); // a clean shutdown: same data directory and port
            cluster.kafka().start();
            cluster.awaitQueriesRegistered(Duration.ofSeconds(60));
        });
    }

    @Test
    @Order(6)
    void movingPartitionsBetweenTheSpoutTasksKeepsEveryAnswerExact() throws Exception {
        exactThrough("reassign", List.of(16_000L, 28_000L), () -> {
            // a third member of the spouts' consumer group, first by member id: the range assignor gives it partition
            // 0 and moves partition 1 to the other spout task; when it leaves (committing nothing), both move back
            Properties p = new Properties();
            p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafka().bootstrapServers());
            p.put(ConsumerConfig.GROUP_ID_CONFIG, "bullet-storm");
            p.put(ConsumerConfig.CLIENT_ID_CONFIG, "a-reassigner");
            p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
            p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1");
            try (KafkaConsumer<byte[], byte[]> member = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                member.subscribe(List.of(StormClusterFixture.RECORDS_TOPIC));
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (member.assignment().isEmpty()) {
                    assertTrue(System.nanoTime() < deadline, "the extra member got no partition within 30 s");
                    member.poll(Duration.ofMillis(200));
                }
                System.out.println("reassign: the extra member holds " + member.assignment());
                List<Integer> spouts = new ArrayList<>();
                for (int i = 0; i < PARTITIONS; i++) {
                    if (!member.assignment().contains(new TopicPartition(StormClusterFixture.RECORDS_TOPIC, i))) {
                        spouts.add(i);
                    }
                }
                cluster.awaitQueriesRegistered(Duration.ofSeconds(60), spouts); // records flow on the spouts' partitions
            }
            cluster.awaitQueriesRegistered(Duration.ofSeconds(60)); // and on every partition once it left
        });
    }

    @Test
    @Order(7)
    void rebalancingThePartitionsToOtherSpoutTasksKeepsEveryAnswerExact() throws Exception {
        exactThrough("rebalance", List.of(95_000L), () -> {
            List<Worker> before = cluster.workers();
            Map<Integer, Long> loads = new HashMap<>();
            for (Worker w : before) {
                loads.put(w.port(), cluster.loads(w.port()));
            }
            cluster.script("rebalance", TOPOLOGY, "-w", "1", "-n", "4");
            // the assignment is read again on every poll: on a loaded machine Nimbus may move executors once more
            // (a worker slow to start is given up on), and the workers to wait for are those of the last assignment
            long deadline = System.nanoTime() + Duration.ofSeconds(240).toNanos();
            List<Worker> after = before;
            List<Integer> loading = List.of();
            while (true) {
                assertTrue(System.nanoTime() < deadline, "the rebalance to 4 workers was not running within 240 s: "
                                                         + after + "; still loading on " + loading + "; see the logs in " + DIR);
                LockSupport.parkNanos(Duration.ofMillis(500).toNanos()); // poll interval
                after = cluster.workers();
                if (after.size() != 4 || after.stream().noneMatch(w -> w.has(Components.DATASOURCE_SPOUT))) {
                    continue;
                }
                loading = new ArrayList<>();
                for (Worker w : after) { // the workers whose tasks changed run their new ones
                    boolean same = before.stream().anyMatch(b -> b.port() == w.port() && b.components().equals(w.components()));
                    if (!same && !cluster.isLoaded(w.port(), loads.getOrDefault(w.port(), 0L))) {
                        loading.add(w.port());
                    }
                }
                if (loading.isEmpty()) {
                    break;
                }
            }
            System.out.println("rebalance: " + before + " -> " + after);
            cluster.awaitQueriesRegistered(Duration.ofSeconds(90));
        });
    }

    // ------------------------------------------------------------------------------------------------ the case

    /** What fails mid-query; returns once it is over and records flow again on every partition. */
    private interface Failure {
        void inflict() throws Exception;
    }

    /**
     * {@link #exactThrough(String, long, Failure)} with each window in turn until one holds the whole failure: a
     * window the failure outlasted (the feed would have had to stop before it was over) cannot judge the answers, so
     * the case runs again, failure included, with the next; the last must hold it.
     */
    private static void exactThrough(String name, List<Long> windowsMs, Failure failure) throws Exception {
        for (int i = 0; i < windowsMs.size(); i++) {
            if (exactThrough(name, windowsMs.get(i), failure, i == windowsMs.size() - 1)) {
                return;
            }
            System.out.printf("%s: the failure outlasted a %d ms window; again with %d ms%n", name, windowsMs.get(i),
                              windowsMs.get(i + 1));
        }
    }

    /**
     * Runs the four queries over records of a new tag, fed at a steady rate; inflicts the failure after a first part
     * of them; feeds a last part once it is over; and checks each final answer against the offline runner's. Returns
     * false, checking nothing, when the failure was not over in time for the window and this is not the last.
     */
    private static boolean exactThrough(String name, long durationMs, Failure failure, boolean lastWindow) throws Exception {
        String tag = name + "-" + UUID.randomUUID();
        Map<String, String> queries = queries(tag, durationMs);
        long sent = System.nanoTime();
        Map<String, String> ids = new LinkedHashMap<>();
        queries.forEach((kind, json) -> ids.put(kind, cluster.send(json)));
        cluster.awaitQueriesRegistered(Duration.ofSeconds(60));

        long stopBy = sent + TimeUnit.MILLISECONDS.toNanos(durationMs - MARGIN_MS);
        List<String> lines;
        long failedAt;
        long recoveredAt;
        try (Feed feed = new Feed(tag, stopBy)) {
            feed.awaitSent(BEFORE_RECORDS);
            failedAt = System.nanoTime();
            failure.inflict();
            recoveredAt = System.nanoTime();
            feed.awaitSent(feed.sent() + AFTER_RECORDS);
            lines = feed.finish();
            if (feed.ranOut && !lastWindow) {
                return false;
            }
            assertFalse(feed.ranOut, name + ": the failure was over only " + ms(recoveredAt - sent) + " ms into a "
                                     + durationMs + " ms query; the feed had to stop " + MARGIN_MS + " ms before its end");
        }
        System.out.printf("%s: %d records; failure at %d ms, over at %d ms, feed stopped at %d ms of %d ms%n", name,
                          lines.size(), ms(failedAt - sent), ms(recoveredAt - sent), ms(System.nanoTime() - sent), durationMs);

        List<Executable> checks = new ArrayList<>();
        Duration wait = Duration.ofNanos(Math.max(0, sent + TimeUnit.MILLISECONDS.toNanos(durationMs + 60_000) - System.nanoTime()));
        for (Map.Entry<String, String> q : queries.entrySet()) {
            List<Map<String, Object>> results = cluster.awaitFinal(ids.get(q.getKey()), wait);
            Map<String, Object> last = results.get(results.size() - 1);
            List<String> expected = sorted(offline(q.getValue(), lines).get(0));
            checks.add(() -> {
                @SuppressWarnings("unchecked")
                Map<String, Object> meta = (Map<String, Object>) last.get("meta");
                assertNull(meta == null ? null : meta.get("incomplete"), name + " / " + q.getKey() + ": meta.incomplete");
                assertEquals(expected, sorted(records(last)), name + " / " + q.getKey() + ": equals the offline runner's"
                                                              + " answer over the " + lines.size() + " records sent");
            });
            System.out.printf("%s / %s: %s%n", name, q.getKey(), expected.equals(sorted(records(last))) ? "exact"
                    : "DIFFERS (expected " + summary(expected) + ", got " + summary(sorted(records(last))) + ") meta "
                      + last.get("meta"));
        }
        assertAll(name, checks);
        return true;
    }

    /** COUNT, GROUP (COUNT by g), COUNT DISTINCT (u) and RAW (one record in {@link #RAW_EVERY}) over the tag's records. */
    private static Map<String, String> queries(String tag, long durationMs) {
        String byTag = "{\"field\":\"tag\",\"operation\":\"==\",\"values\":[\"" + tag + "\"]}";
        String filters = "\"filters\":[" + byTag + "],";
        String duration = ",\"duration\":" + durationMs + "}";
        Map<String, String> q = new LinkedHashMap<>();
        q.put("COUNT", "{" + filters + "\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":"
                       + "[{\"type\":\"COUNT\"}]}}" + duration);
        q.put("GROUP", "{" + filters + "\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"g\":\"g\"},\"attributes\":"
                       + "{\"operations\":[{\"type\":\"COUNT\"}]}}" + duration);
        q.put("COUNT DISTINCT", "{" + filters + "\"aggregation\":{\"type\":\"COUNT DISTINCT\",\"fields\":{\"u\":\"u\"}}"
                                + duration);
        q.put("RAW", "{\"filters\":[" + byTag + ",{\"field\":\"r\",\"operation\":\"==\",\"values\":[\"y\"]}],"
                     + "\"aggregation\":{\"type\":\"RAW\",\"size\":500}" + duration);
        return q;
    }

    private static String line(String tag, int i) {
        return "{\"tag\":\"" + tag + "\",\"i\":" + i + ",\"g\":\"g" + (i % 5) + "\",\"u\":\"u" + (i % 37) + "\",\"r\":\""
               + (i % RAW_EVERY == 0 ? "y" : "n") + "\"}";
    }

    // ------------------------------------------------------------------------------------------------ workers

    /** The worker matching {@code which} with the fewest components (the failure hits as little else as it can). */
    private static Worker victim(String what, Predicate<Worker> which) throws Exception {
        List<Worker> workers = cluster.workers();
        return workers.stream().filter(which).min(Comparator.comparingInt(w -> w.components().size()))
                .orElseThrow(() -> new AssertionError("no worker with " + what + " in the layout " + workers));
    }

    private static void killAndAwaitRestart(Worker victim) throws Exception {
        long loads = cluster.loads(victim.port());
        System.out.println("kill -9 " + victim);
        StormClusterFixture.kill(victim);
        cluster.awaitRestarted(victim, loads, Duration.ofSeconds(120));
        cluster.awaitQueriesRegistered(Duration.ofSeconds(60)); // records flow again on every partition
    }

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    private static String summary(List<String> rows) {
        String all = String.join(",", rows);
        return rows.size() + " rows " + (all.length() > 300 ? all.substring(0, 300) + "..." : all);
    }

    // ------------------------------------------------------------------------------------------------ the feed

    /**
     * Produces the tag's records at a steady rate on its own thread, until {@link #finish} or {@code stopBy} (then
     * {@link #ranOut}) or {@link #MAX_RECORDS}; keeps the records Kafka confirmed.
     */
    private static final class Feed implements AutoCloseable {
        private final String tag;
        private final long stopBy;
        private final List<String> confirmed = Collections.synchronizedList(new ArrayList<>());
        private final AtomicReference<Exception> error = new AtomicReference<>();
        private final AtomicInteger sent = new AtomicInteger();
        private final Thread thread;
        private volatile boolean stop;
        private volatile boolean ranOut;

        Feed(String tag, long stopBy) {
            this.tag = tag;
            this.stopBy = stopBy;
            this.thread = new Thread(this::run, "feed-" + tag);
            thread.setDaemon(true);
            thread.start();
        }

        private void run() {
            long next = System.nanoTime();
            while (!stop && sent.get() < MAX_RECORDS) {
                if (System.nanoTime() >= stopBy) {
                    ranOut = true;
                    return;
                }
                for (int k = 0; k < STEP_RECORDS; k++) {
                    String line = line(tag, sent.get());
                    cluster.firehose().send(new ProducerRecord<>(StormClusterFixture.RECORDS_TOPIC,
                                                                 line.getBytes(StandardCharsets.UTF_8)), (md, e) -> {
                            if (e != null) {
                                error.compareAndSet(null, e);
                            } else {
                                confirmed.add(line);
                            }
                        });
                    sent.incrementAndGet();
                }
                next += TimeUnit.MILLISECONDS.toNanos(STEP_MS);
                LockSupport.parkNanos(next - System.nanoTime()); // the feed's rate, not a synchronisation
            }
        }

        int sent() {
            return sent.get();
        }

        /** Waits until {@code n} records were sent (bounded by the feed's own end). */
        void awaitSent(int n) {
            while (sent.get() < n && thread.isAlive()) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(STEP_MS)); // poll interval
            }
        }

        /** Stops the feed; the records Kafka confirmed (all that were sent, or the test fails). */
        List<String> finish() throws InterruptedException {
            stop = true;
            thread.join(TimeUnit.SECONDS.toMillis(30));
            cluster.firehose().flush();
            assertNull(error.get(), "a record was not confirmed by Kafka: " + error.get());
            assertEquals(sent.get(), confirmed.size(), "every record sent is in Kafka");
            return List.copyOf(confirmed);
        }

        @Override
        public void close() {
            stop = true;
            try {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                fail("the feed thread did not stop");
            }
        }
    }
}

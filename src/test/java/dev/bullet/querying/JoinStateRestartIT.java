package dev.bullet.querying;

import dev.bullet.local.EmbeddedKafka;
import dev.bullet.pubsub.KafkaPubSubConfig;
import dev.bullet.pubsub.KafkaStateStore;
import dev.bullet.query.Query;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.testing.Queries;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A Join task's restart against a real (embedded) Kafka broker: a first Join engine merges partials and keeps its
 * state in the compacted state topic, holding the partials' acks until Kafka confirmed it; it "dies"; a second engine,
 * as a restarted task, reads the topic and takes the queries up from it. Fed the same partials from then on (and a
 * batch sent again that the first had merged), it gives the same results as the first, none flagged incomplete.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JoinStateRestartIT {
    private static final long T0 = 1_700_000_000_000L;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String[] COLORS = {"red", "green", "blue", "black"};
    private static final Map<String, String> QUERIES = new LinkedHashMap<>();

    static {
        QUERIES.put("count", "{\"aggregation\": {\"type\": \"GROUP\", \"fields\": {\"color\": \"c\"}, \"attributes\": "
                             + "{\"operations\": [{\"type\": \"COUNT\"}, {\"type\": \"SUM\", \"field\": \"v\"}]}},"
                             + " \"duration\": 3000, \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}}}");
        QUERIES.put("raw", "{\"aggregation\": {\"type\": \"RAW\", \"size\": 1000}, \"duration\": 3000,"
                           + " \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}}}");
        QUERIES.put("distinct", "{\"aggregation\": {\"type\": \"COUNT DISTINCT\", \"fields\": {\"u\": \"u\"}},"
                                + " \"duration\": 3000}");
        QUERIES.put("topk", "{\"aggregation\": {\"type\": \"TOP K\", \"size\": 3, \"fields\": {\"color\": \"c\"}},"
                            + " \"duration\": 3000}");
    }

    @TempDir
    static Path dir;
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafka.onFreePorts(dir);
        kafka.start();
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    /** One Join task: its engine, its state keeper, what it acked and emitted. */
    private static final class Task {
        final JoinEngine engine = new JoinEngine(QuerySettings.defaults(), 2, 500);
        final KafkaStateStore store;
        final JoinStateKeeper<String> keeper;
        final List<String> acked = new ArrayList<>();
        boolean alive = true;
        final List<String> failed = new ArrayList<>();
        final Map<String, List<String>> results = new LinkedHashMap<>();
        final JoinStateKeeper.Settle<String> settle = new JoinStateKeeper.Settle<>() {
            @Override
            public void ack(String held) {
                acked.add(held);
            }

            @Override
            public void fail(String held) {
                failed.add(held);
            }
        };

        Task(KafkaStateStore store) {
            this.store = store;
            this.keeper = new JoinStateKeeper<>(store::write, store.maxValueBytes(), 100);
        }

        void collect(List<JoinEngine.Emitted> out) {
            for (JoinEngine.Emitted e : out) {
                results.computeIfAbsent(e.id(), id -> new ArrayList<>()).add(e.result().toJson());
            }
            out.clear();
        }

        /** Snapshots and waits until every held partial is acked (one snapshot is in flight at a time). */
        /** Takes snapshots for a second of the task's time from {@code from} on, then until Kafka confirmed all. */
        void confirmAll(long from) {
            long deadline = System.nanoTime() + WAIT.toNanos();
            long now = from;
            while (keeper.held() > 0 || keeper.unconfirmed() > 0 || now < from + 1_000) {
                keeper.poll(settle);
                now += 100;
                keeper.snapshot(engine, now, settle);
                if (System.nanoTime() > deadline) {
                    fail("Kafka did not confirm the snapshots within " + WAIT + "; still held: " + keeper.held());
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
        }
    }

    /** The Filter side: two tasks per query, their partials with the batches' spans, the same for both Join tasks. */
    private static final class Filters {
        final Map<String, FilterQuerier[]> filters = new LinkedHashMap<>();
        final long[] offsets = new long[2];
        final long[] reported = new long[2];
        final Random random = new Random(11);
        long records;

        Filters() {
            QUERIES.forEach((id, json) -> {
                Query query = Queries.parse(json);
                filters.put(id, new FilterQuerier[] {new FilterQuerier(id, query, T0, QuerySettings.defaults()),
                                                     new FilterQuerier(id, query, T0, QuerySettings.defaults())});
            });
        }

        /** A step of 100 ms: records into each Filter task, then every partial, as (id, partial, last, task, span). */
        List<Object[]> step(long now) {
            List<Object[]> partials = new ArrayList<>();
            for (int f = 0; f < 2; f++) {
                int n = 1 + random.nextInt(8);
                for (int k = 0; k < n; k++) {
                    offsets[f]++;
                    Record r = Records.of("i", records++, "color", COLORS[random.nextInt(COLORS.length)],
                                          "v", random.nextInt(100), "u", random.nextInt(10_000)).build();
                    for (Map.Entry<String, FilterQuerier[]> e : filters.entrySet()) {
                        FilterQuerier q = e.getValue()[f];
                        q.consume(r, now);
                        if (q.isRaw()) {
                            partials.add(new Object[] {e.getKey(), q.takePartial(), false, f, new long[] {f, offsets[f], offsets[f]}});
                        }
                    }
                }
            }
            for (int f = 0; f < 2; f++) {
                long[] span = reported[f] < offsets[f] ? new long[] {f, reported[f] + 1, offsets[f]} : new long[0];
                reported[f] = offsets[f];
                for (Map.Entry<String, FilterQuerier[]> e : filters.entrySet()) {
                    FilterQuerier q = e.getValue()[f];
                    partials.add(new Object[] {e.getKey(), q.isRaw() ? null : q.takePartial(), q.isExpired(now), f, span});
                }
            }
            return partials;
        }
    }

    private static void feed(Task task, List<Object[]> partials, boolean retry, long now, String token) {
        List<JoinEngine.Emitted> out = new ArrayList<>();
        for (Object[] p : partials) {
            task.engine.combine((String) p[0], p[1], (Boolean) p[2], (Integer) p[3], (long[]) p[4], retry, now, out);
        }
        task.collect(out);
        task.keeper.hold(token);
    }

    private static void tick(Task task, long now) {
        List<JoinEngine.Emitted> out = new ArrayList<>();
        task.engine.tick(now, out);
        task.collect(out);
        if (task.alive) {
            task.keeper.snapshot(task.engine, now, task.settle);
            task.keeper.poll(task.settle);
        }
    }

    @Test
    void aRestartedJoinTaskTakesItsQueriesUpFromTheStateTopicAndGivesTheSameResults() {
        KafkaPubSubConfig config = new KafkaPubSubConfig(kafka.bootstrapServers(), "restart-queries", "restart-responses",
                                                         1, Map.of());
        String topic = KafkaStateStore.defaultJoinStateTopic(config.requestTopic());
        assertTrue(KafkaStateStore.open(config, topic).isEmpty(), "no store without its topic");
        KafkaStateStore.createTopic(config, topic);
        KafkaStateStore.createTopic(config, topic); // an existing topic is kept

        Filters filters = new Filters();
        Task first = new Task(KafkaStateStore.open(config, topic).orElseThrow());
        QUERIES.forEach((id, json) -> first.engine.add(id, json, T0, 0));
        List<List<Object[]>> sent = new ArrayList<>();
        int crashAfter = 14;
        for (int step = 1; step <= crashAfter; step++) {
            long now = T0 + step * 100L;
            List<Object[]> partials = filters.step(now);
            sent.add(partials);
            feed(first, partials, false, now, "step-" + step);
            if (step == 3) {
                assertFalse(first.acked.contains("step-3"), "a partial is not acked before a snapshot holding it");
            }
            tick(first, now);
        }
        first.confirmAll(T0 + crashAfter * 100L);
        assertEquals(crashAfter, first.acked.size(), "every partial acked once its snapshot was confirmed");
        assertTrue(first.failed.isEmpty());
        // the first task dies (what it had not saved is lost with it); from here on it only shows what a task that
        // never died gives
        first.store.close();
        first.alive = false;

        Task second = new Task(KafkaStateStore.open(config, topic).orElseThrow());
        Map<String, byte[]> saved = second.store.readAll(key -> !JoinStateKeeper.queryId(key).equals("topk"), WAIT);
        assertEquals(List.of("count", "distinct", "raw"),
                     saved.keySet().stream().map(JoinStateKeeper::queryId).distinct().sorted().toList(),
                     "only the ids the task owns (here: all but one)");
        assertTrue(saved.size() > 3, "bases and the deltas after them: " + saved.keySet());
        second.keeper.loaded(saved, T0 + crashAfter * 100L);
        long now = T0 + crashAfter * 100L + 50;
        for (Map.Entry<String, String> q : QUERIES.entrySet()) {
            assertTrue(second.engine.restore(q.getKey(), q.getValue(), T0, 0, now, second.keeper.take(q.getKey())));
        }
        assertEquals(3, second.engine.restoredExactly(), "three from their snapshot, topk without one");

        first.results.clear();
        for (int step = crashAfter + 1; step <= 40; step++) {
            now = T0 + step * 100L;
            List<Object[]> partials = filters.step(now);
            for (Task t : List.of(first, second)) {
                feed(t, partials, false, now, "step-" + step);
                if (step == crashAfter + 2) { // a batch merged long before the restart, sent again: dropped by both
                    List<Object[]> again = new ArrayList<>();
                    for (Object[] p : sent.get(2)) {
                        again.add(new Object[] {p[0], p[1], p[2], p[3], ((long[]) p[4]).clone()});
                    }
                    feed(t, again, true, now, "again-" + step);
                }
                tick(t, now);
            }
        }
        for (String id : List.of("count", "raw", "distinct")) {
            assertFalse(first.results.getOrDefault(id, List.of()).isEmpty(), id + " gave results");
            assertEquals(first.results.get(id), second.results.get(id), "query " + id + " after the restart");
            for (String r : second.results.get(id)) {
                assertFalse(r.contains("\"" + JoinQuerier.INCOMPLETE + "\""), r);
            }
        }
        assertTrue(second.results.get("topk").get(0).contains("\"" + JoinQuerier.INCOMPLETE + "\""),
                   "without a snapshot, as before: flagged incomplete");
        assertEquals(0, second.engine.size(), "every query ended");

        second.confirmAll(T0 + 4100);
        assertTrue(second.failed.isEmpty());
        Map<String, byte[]> left = second.store.readAll(id -> true, WAIT);
        assertTrue(left.isEmpty(), () -> "ended queries leave tombstones; left: " + left.keySet());
        second.store.close();
    }
}

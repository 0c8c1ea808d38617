package dev.bullet.storm;

import dev.bullet.common.Clock;
import dev.bullet.pubsub.Deliveries.RetryPolicy;
import dev.bullet.pubsub.PubSubFactory;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.QueryStore;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.StoredQuery;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.StoreReplayWait;
import dev.bullet.storm.TopologyNames.Components;
import dev.bullet.storm.TopologyNames.Streams;
import dev.bullet.storm.testing.Bolts;
import dev.bullet.storm.testing.RecordingOutputCollector;
import dev.bullet.storm.testing.RecordingSpoutCollector;
import dev.bullet.storm.testing.TopologyContexts;
import dev.bullet.storm.testing.Tuples;
import dev.bullet.testing.ManualClock;
import dev.bullet.testing.MemoryQueryStore;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The query spout and the Result bolt over the query store: a stamped query is stored, a KILL and a confirmed final
 * result end it, and the first query spout task of a new topology takes up the stored queries before any new one.
 */
class QueryStoreAdaptersTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final String QUERY_40S = "{\"aggregation\": {\"type\": \"RAW\", \"size\": 1}, \"duration\": 40000}";
    private static final String QUERY_1S = "{\"aggregation\": {\"type\": \"RAW\", \"size\": 1}, \"duration\": 1000}";
    private static final Deque<List<PubSubMessage>> REQUESTS = new ArrayDeque<>();
    private static final List<Consumer<Exception>> UNCONFIRMED = new ArrayList<>();
    private static MemoryQueryStore store;

    /** Requests from {@link #REQUESTS}; results held until the test confirms them; the store in {@link #store}. */
    private static final class ScriptedPubSub implements PubSubFactory {
        private static final long serialVersionUID = 1L;

        @Override
        public Subscriber requestSubscriber() {
            return new Subscriber() {
                @Override
                public List<PubSubMessage> receive(Duration timeout) {
                    List<PubSubMessage> next = REQUESTS.poll();
                    return next == null ? List.of() : next;
                }

                @Override
                public long malformedMessages() {
                    return 0;
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public Publisher responsePublisher() {
            return new Publisher() {
                @Override
                public void send(PubSubMessage message) {
                    throw new UnsupportedOperationException("sent with a callback");
                }

                @Override
                public void send(PubSubMessage message, Consumer<Exception> done) {
                    UNCONFIRMED.add(done);
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public QueryStore queryStore() {
            return store;
        }
    }

    @BeforeEach
    void reset() {
        REQUESTS.clear();
        UNCONFIRMED.clear();
        store = new MemoryQueryStore();
    }

    private static QuerySpout openSpout(RecordingSpoutCollector collector, Clock clock) {
        QuerySpout spout = new QuerySpout(new ScriptedPubSub(), QuerySettings.defaults(), clock);
        spout.open(Map.of(), TopologyContexts.forTask(Components.QUERY_SPOUT, 3), collector.collector());
        spout.pause = nanos -> { };
        return spout;
    }

    @Test
    void aStampedQueryIsStoredWithItsStartAndAKillEndsIt() {
        RecordingSpoutCollector collector = new RecordingSpoutCollector();
        QuerySpout spout = openSpout(collector, new ManualClock(T0));
        REQUESTS.add(List.of(PubSubMessage.query("q1", QUERY_40S, 2)));
        REQUESTS.add(List.of(PubSubMessage.signal("q1", Signal.KILL, 2)));

        spout.nextTuple();
        assertEquals(List.of(new StoredQuery("q1", QUERY_40S, T0, 2)), store.load());
        assertEquals(List.of("q1", QUERY_40S, T0, 2, -1L), collector.emitted(Streams.QUERY).get(0).values());
        spout.nextTuple();

        assertEquals(List.of(), store.load());
        assertEquals(List.of("q1"), store.tombstones());
    }

    @Test
    void theFirstTaskTakesUpStoredQueriesWithTheirOriginalStartBeforeReadingNewOnes() {
        store.put(new StoredQuery("old", QUERY_40S, T0, 1));
        store.put(new StoredQuery("expired", QUERY_1S, T0, 1));
        store.put(new StoredQuery("broken", "{\"aggregation\": {\"type\": \"NOPE\"}}", T0, 1));
        RecordingSpoutCollector collector = new RecordingSpoutCollector();
        long now = T0 + 20_000;
        QuerySpout spout = openSpout(collector, new ManualClock(now));
        REQUESTS.add(List.of(PubSubMessage.query("new", QUERY_40S, 3)));

        spout.nextTuple();
        spout.nextTuple();

        List<RecordingSpoutCollector.Emission> emitted = collector.emitted(Streams.QUERY);
        assertEquals(2, emitted.size());
        assertEquals(List.of("old", QUERY_40S, T0, 1, now), emitted.get(0).values(), "original start, restart time");
        assertEquals(List.of("new", QUERY_40S, now, 3, -1L), emitted.get(1).values());
        assertEquals(List.of("expired", "broken"), store.tombstones());
        assertEquals(1, store.loads(), "taken up once");
    }

    @Test
    void theFirstTaskReportsItsReplayDoneBehindTheReplayedQueriesThenEverySecond() {
        store.put(new StoredQuery("old", QUERY_40S, T0, 1));
        RecordingSpoutCollector collector = new RecordingSpoutCollector();
        ManualClock clock = new ManualClock(T0 + 1_000);
        QuerySpout spout = openSpout(collector, clock);

        spout.nextTuple();
        List<RecordingSpoutCollector.Emission> emitted = collector.drain();
        assertEquals(List.of(Streams.QUERY, Streams.STORE_REPLAY), emitted.stream().map(e -> e.stream()).toList(),
                     "the report follows the replayed queries (each Join task gets them first)");
        assertEquals(List.of(T0 + 1_000, true), emitted.get(1).values(), "the task's start, and done");

        spout.nextTuple();
        assertEquals(List.of(), collector.drain(), "the next report comes a second later");
        clock.advance(StoreReplayWait.REPORT_INTERVAL_MS);
        spout.nextTuple();
        assertEquals(List.of(List.of(T0 + 1_000, true)), collector.drain().stream().map(e -> e.values()).toList());
    }

    @Test
    void whileTheStoreCannotBeReadTheReportsSayTheReplayIsUnderWay() {
        store.put(new StoredQuery("old", QUERY_40S, T0, 1));
        store.failLoads(1);
        RecordingSpoutCollector collector = new RecordingSpoutCollector();
        ManualClock clock = new ManualClock(T0 + 1_000);
        QuerySpout spout = openSpout(collector, clock);

        spout.nextTuple();
        assertEquals(List.of(List.of(T0 + 1_000, false)), collector.drain().stream().map(e -> e.values()).toList());
        clock.advance(StoreReplayWait.REPORT_INTERVAL_MS);
        spout.nextTuple();
        assertEquals(List.of(List.of(T0 + 1_000, false)), collector.drain().stream().map(e -> e.values()).toList(),
                     "still under way: the store is read again only after a while");

        clock.advance(30_000); // past the store's retry
        spout.nextTuple();
        assertEquals(List.of(Streams.QUERY, Streams.STORE_REPLAY),
                     collector.emissions().stream().map(e -> e.stream()).toList());
        assertEquals(List.of(T0 + 1_000, true), collector.emitted(Streams.STORE_REPLAY).get(0).values());
    }

    @Test
    void aTaskThatTakesNothingUpReportsNothing() {
        store.put(new StoredQuery("old", QUERY_40S, T0, 1));
        RecordingSpoutCollector collector = new RecordingSpoutCollector();
        QuerySpout spout = new QuerySpout(new ScriptedPubSub(), QuerySettings.defaults(), new ManualClock(T0));
        spout.open(Map.of(), TopologyContexts.forTask(Components.QUERY_SPOUT, 4, List.of(3, 4)), collector.collector());

        spout.nextTuple();

        assertEquals(List.of(), collector.emissions(), "the second task neither takes up nor reports");
        assertEquals(0, store.loads());
    }

    @Test
    void theResultBoltEndsAStoredQueryOnlyOnceItsFinalResultIsConfirmed() {
        store.put(new StoredQuery("q", QUERY_40S, T0, 0));
        RecordingOutputCollector out = new RecordingOutputCollector();
        ResultBolt bolt = new ResultBolt(new ScriptedPubSub(), new RetryPolicy(1, 0, 0), Clock.SYSTEM);
        Bolts.prepare(bolt, out, Map.of());
        Tuple window = Tuples.of(Components.JOIN_BOLT, Streams.RESULT, "q", "{\"records\":[]}", 0, false, "d-1");
        Tuple last = Tuples.of(Components.JOIN_BOLT, Streams.RESULT, "q", "{\"records\":[]}", 0, true, "d-2");

        bolt.execute(window);
        bolt.execute(last);
        UNCONFIRMED.get(0).accept(null);
        bolt.execute(Tuples.tick(T0));
        assertEquals(List.of(), store.tombstones(), "a window's result ends nothing");
        assertEquals(1, store.load().size(), "the final result is not confirmed yet");

        UNCONFIRMED.get(1).accept(null);
        bolt.execute(Tuples.tick(T0));

        assertEquals(List.of("q"), store.tombstones());
        assertEquals(List.of(), store.load());
    }
}

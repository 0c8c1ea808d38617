package dev.bullet.rest;

import dev.bullet.pubsub.PubSubException;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.JsonCodec;
import dev.bullet.rest.QueryListener.Ending;
import dev.bullet.rest.QueryService.Accepted;
import dev.bullet.rest.QueryService.Health;
import dev.bullet.rest.QueryService.Mode;
import dev.bullet.rest.QueryService.Refusal;
import dev.bullet.rest.QueryService.Refused;
import dev.bullet.rest.QueryService.Submission;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The REST service's logic without HTTP and without Kafka: a recording publisher, a scripted subscriber, a manual clock. */
class QueryServiceTest {
    private static final String RAW = "{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":10000}";
    private static final String WINDOWED = "{\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":"
                                           + "[{\"type\":\"COUNT\"}]}},\"window\":{\"emit\":{\"type\":\"TIME\",\"every\":1000}},"
                                           + "\"duration\":3500}";
    private static final long GRACE = 500;

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final RecordingPublisher publisher = new RecordingPublisher();
    private final ScriptedSubscriber subscriber = new ScriptedSubscriber();
    private QueryService service;

    private QueryService service(int maxConcurrent, List<Integer> partitions) {
        RestSettings settings = new RestSettings("127.0.0.1", 0, 1 << 20, maxConcurrent, GRACE, 2_000, partitions, 1_000);
        service = new QueryService(settings, QuerySettings.defaults(), publisher, () -> subscriber, now::get,
                                   new DirectExecutor(), "test Kafka");
        return service;
    }

    private QueryService connected(int maxConcurrent, List<Integer> partitions) {
        QueryService s = service(maxConcurrent, partitions);
        assertTrue(s.connect());
        return s;
    }

    @AfterEach
    void close() {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void invalidQueryIsRefusedWithEveryErrorAndNothingIsPublished() {
        Recorder listener = new Recorder();
        Submission s = connected(10, List.of(0)).submit(
                "{\"filters\":[{\"field\":\"a\",\"operation\":\"=~\",\"values\":[\"x\"]}],\"aggregation\":{\"type\":\"NOPE\"}}",
                Mode.SINGLE_RESULT, id -> listener);
        Refused refused = assertInstanceOf(Refused.class, s);
        assertEquals(Refusal.INVALID, refused.reason());
        List<?> errors = errors(refused.errorJson());
        assertEquals(2, errors.size(), refused.errorJson());
        assertEquals(List.of(), JsonCodec.parseMap(refused.errorJson()).get("records"));
        assertTrue(publisher.sent.isEmpty());
        assertTrue(listener.events.isEmpty());
    }

    @Test
    void malformedJsonIsRefusedWithItsLineAndColumn() {
        Refused refused = assertInstanceOf(Refused.class, connected(10, List.of(0))
                .submit("{\n  \"aggregation\": {\"type\": \"RAW\",}\n}", Mode.STREAM, id -> new Recorder()));
        String error = (String) ((Map<?, ?>) errors(refused.errorJson()).get(0)).get("error");
        assertTrue(error.contains("line 2"), error);
        assertTrue(error.contains("column"), error);
    }

    @Test
    void windowedQueryIsRefusedForOneResultButRunsAsAStream() {
        QueryService s = connected(10, List.of(0));
        Refused refused = assertInstanceOf(Refused.class, s.submit(WINDOWED, Mode.SINGLE_RESULT, id -> new Recorder()));
        assertTrue(refused.errorJson().contains("sse-query"), refused.errorJson());
        assertInstanceOf(Accepted.class, s.submit(WINDOWED, Mode.STREAM, id -> new Recorder()));
    }

    @Test
    void resultsReachTheirOwnQueryInOrderAndTheFinalOneEndsIt() {
        QueryService s = connected(10, List.of(0));
        Recorder first = new Recorder();
        Recorder second = new Recorder();
        String a = ((Accepted) s.submit(WINDOWED, Mode.STREAM, id -> first)).id();
        String b = ((Accepted) s.submit(WINDOWED, Mode.STREAM, id -> second)).id();
        subscriber.add(new PubSubMessage(a, "{\"n\":1}", null, 0), new PubSubMessage("someone-else", "{}", null, 0),
                       new PubSubMessage(b, "{\"n\":9}", Signal.COMPLETE, 0), new PubSubMessage(a, "{\"n\":2}", null, 0));
        s.pollOnce(Duration.ZERO);
        assertEquals(List.of("result {\"n\":1}", "result {\"n\":2}"), first.events);
        assertEquals(List.of("COMPLETED {\"n\":9}"), second.events);
        assertEquals(List.of(a), s.running().stream().map(RunningQuery::id).toList());

        subscriber.add(new PubSubMessage(a, "{\"n\":3}", Signal.COMPLETE, 0), new PubSubMessage(a, "{\"late\":1}", null, 0));
        s.pollOnce(Duration.ZERO);
        assertEquals(List.of("result {\"n\":1}", "result {\"n\":2}", "COMPLETED {\"n\":3}"), first.events);
        assertTrue(s.running().isEmpty());
    }

    @Test
    void queriesAreStampedWithThisInstancesResponsePartitionsInTurn() {
        QueryService s = connected(10, List.of(2, 3));
        for (int i = 0; i < 3; i++) {
            s.submit(RAW, Mode.SINGLE_RESULT, id -> new Recorder());
        }
        assertEquals(List.of(2, 3, 2), publisher.sent.stream().map(PubSubMessage::replyPartition).toList());
        assertEquals(RAW, publisher.sent.get(0).payload());
    }

    @Test
    void queryBeyondTheConcurrentLimitIsRefusedUntilOneEnds() {
        QueryService s = connected(2, List.of(0));
        String a = ((Accepted) s.submit(RAW, Mode.SINGLE_RESULT, id -> new Recorder())).id();
        s.submit(RAW, Mode.SINGLE_RESULT, id -> new Recorder());
        Refused refused = assertInstanceOf(Refused.class, s.submit(RAW, Mode.SINGLE_RESULT, id -> new Recorder()));
        assertEquals(Refusal.TOO_MANY_QUERIES, refused.reason());
        assertTrue(refused.errorJson().contains("bullet.rest.max.concurrent.queries"));

        subscriber.add(new PubSubMessage(a, "{}", Signal.COMPLETE, 0));
        s.pollOnce(Duration.ZERO);
        assertInstanceOf(Accepted.class, s.submit(RAW, Mode.SINGLE_RESULT, id -> new Recorder()));
        assertEquals(2, s.runningCount());
    }

    @Test
    void queryWithoutAFinalResultInItsDurationPlusGraceTimesOutAndIsKilled() {
        QueryService s = connected(10, List.of(1));
        Recorder listener = new Recorder();
        String id = ((Accepted) s.submit(RAW, Mode.SINGLE_RESULT, x -> listener)).id();
        now.addAndGet(10_000 + GRACE - 1);
        s.pollOnce(Duration.ZERO);
        assertTrue(listener.events.isEmpty());
        now.addAndGet(1);
        s.pollOnce(Duration.ZERO);
        assertEquals(1, listener.events.size());
        assertTrue(listener.events.get(0).startsWith("TIMED_OUT"), listener.events.toString());
        assertTrue(listener.events.get(0).contains(id));
        PubSubMessage kill = publisher.sent.get(publisher.sent.size() - 1);
        assertEquals(new PubSubMessage(id, "", Signal.KILL, 1), kill);
        assertEquals(0, s.runningCount());
    }

    @Test
    void killSendsKillToTheTopologyAndEndsTheListenerOnce() {
        QueryService s = connected(10, List.of(0));
        Recorder listener = new Recorder();
        String id = ((Accepted) s.submit(RAW, Mode.SINGLE_RESULT, x -> listener)).id();
        assertTrue(s.kill(id));
        assertFalse(s.kill(id), "gone after the first kill");
        assertFalse(s.kill("unknown"));
        assertEquals(Signal.KILL, publisher.sent.get(1).signal());
        subscriber.add(new PubSubMessage(id, "{}", Signal.COMPLETE, 0));
        s.pollOnce(Duration.ZERO);
        assertEquals(1, listener.events.size());
        assertTrue(listener.events.get(0).startsWith("KILLED"));
        assertTrue(s.running().isEmpty());
    }

    @Test
    void queryKafkaDoesNotTakeIsUnavailableAndFreesItsSlot() {
        QueryService s = connected(1, List.of(0));
        publisher.failing = true;
        Recorder listener = new Recorder();
        Refused refused = assertInstanceOf(Refused.class, s.submit(RAW, Mode.SINGLE_RESULT, x -> listener));
        assertEquals(Refusal.UNAVAILABLE, refused.reason());
        assertTrue(listener.events.isEmpty());
        publisher.failing = false;
        assertInstanceOf(Accepted.class, s.submit(RAW, Mode.SINGLE_RESULT, x -> new Recorder()));
    }

    @Test
    void withoutKafkaQueriesAreUnavailableAndHealthIsDown() {
        RestSettings settings = new RestSettings("127.0.0.1", 0, 1 << 20, 10, GRACE, 2_000, List.of(0), 1_000);
        service = new QueryService(settings, QuerySettings.defaults(), publisher, () -> {
            throw new PubSubException("broker down", null);
        }, now::get, new DirectExecutor(), "test Kafka");
        assertFalse(service.connect());
        Refused refused = assertInstanceOf(Refused.class, service.submit(RAW, Mode.SINGLE_RESULT, x -> new Recorder()));
        assertEquals(Refusal.UNAVAILABLE, refused.reason());
        assertTrue(refused.errorJson().contains("broker down"), refused.errorJson());
        Health health = service.health().getNow(null);
        assertFalse(health.up());
        assertTrue(health.detail().contains("broker down"));
    }

    @Test
    void healthIsUpWhenTheProbeIsAnsweredAndTheAnswerIsReusedForAWhile() {
        QueryService s = connected(10, List.of(0));
        CompletableFuture<Health> first = s.health();
        assertNull(first.getNow(null));
        assertEquals(1, publisher.sent.size());
        PubSubMessage probe = publisher.sent.get(0);
        assertEquals(QueryService.PROBE_QUERY, probe.payload());
        assertTrue(s.running().isEmpty(), "probes are not client queries");
        subscriber.add(new PubSubMessage(probe.id(), "{\"records\":[]}", Signal.COMPLETE, 0));
        s.pollOnce(Duration.ZERO);
        assertTrue(first.getNow(null).up());

        now.addAndGet(QueryService.HEALTH_CACHE_MS - 1);
        assertTrue(s.health().getNow(null).up());
        assertEquals(1, publisher.sent.size(), "no new probe while the answer is fresh");
        now.addAndGet(1);
        assertNull(s.health().getNow(null));
        assertEquals(2, publisher.sent.size());
    }

    @Test
    void healthIsDownWhenTheTopologyDoesNotAnswerTheProbeInTime() {
        QueryService s = connected(10, List.of(0));
        CompletableFuture<Health> health = s.health();
        assertTrue(health == s.health(), "callers share the probe in flight");
        now.addAndGet(2_000);
        s.pollOnce(Duration.ZERO);
        assertFalse(health.getNow(null).up());
        assertTrue(health.getNow(null).detail().contains("did not answer"));
        assertEquals(1, publisher.sent.size(), "no KILL for a probe");
    }

    @Test
    void closeEndsEveryRunningQueryAndKillsItInTheTopology() {
        QueryService s = connected(10, List.of(0));
        Recorder listener = new Recorder();
        String id = ((Accepted) s.submit(RAW, Mode.SINGLE_RESULT, x -> listener)).id();
        s.close();
        assertEquals(1, listener.events.size());
        assertTrue(listener.events.get(0).startsWith("SHUT_DOWN"));
        assertEquals(new PubSubMessage(id, "", Signal.KILL, 0), publisher.sent.get(1));
        assertTrue(publisher.closed);
    }

    @Test
    void validationReportsErrorsOrClampingWarningsAndPublishesNothing() {
        QueryService s = connected(10, List.of(0));
        assertTrue(s.validate(RAW).valid());
        assertEquals(1, s.validate("{\"aggregation\":{\"type\":\"RAW\",\"size\":100000}}").warnings().size());
        assertFalse(s.validate("{\"nope\":1}").valid());
        assertTrue(publisher.sent.isEmpty());
    }

    private static List<?> errors(String resultJson) {
        return (List<?>) ((Map<?, ?>) JsonCodec.parseMap(resultJson).get("meta")).get("errors");
    }

    /** Records what a listener heard, as "result JSON" and "ENDING JSON" lines. */
    private static final class Recorder implements QueryListener {
        final List<String> events = new ArrayList<>();

        @Override
        public void onResult(String resultJson) {
            events.add("result " + resultJson);
        }

        @Override
        public void onEnd(Ending ending, String resultJson) {
            events.add(ending + " " + resultJson);
        }
    }

    private static final class RecordingPublisher implements Publisher {
        final List<PubSubMessage> sent = new ArrayList<>();
        volatile boolean failing;
        boolean closed;

        @Override
        public synchronized void send(PubSubMessage message) {
            if (failing) {
                throw new PubSubException("Kafka is down", null);
            }
            sent.add(message);
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private static final class ScriptedSubscriber implements Subscriber {
        private final Deque<PubSubMessage> queue = new ArrayDeque<>();

        void add(PubSubMessage... messages) {
            queue.addAll(List.of(messages));
        }

        @Override
        public List<PubSubMessage> receive(Duration timeout) {
            List<PubSubMessage> out = new ArrayList<>(queue);
            queue.clear();
            return out;
        }

        @Override
        public long malformedMessages() {
            return 0;
        }

        @Override
        public void close() {
        }
    }

    /** Runs tasks at once, on the caller's thread. */
    private static final class DirectExecutor extends AbstractExecutorService {
        private boolean shutdown;

        @Override
        public void execute(Runnable command) {
            command.run();
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return shutdown;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }
    }
}

package dev.bullet.storm;

import dev.bullet.pubsub.PubSubException;
import dev.bullet.pubsub.PubSubFactory;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.storm.TopologyNames.Components;
import dev.bullet.storm.TopologyNames.Streams;
import dev.bullet.storm.testing.RecordingSpoutCollector;
import dev.bullet.storm.testing.TopologyContexts;
import dev.bullet.testing.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The query spout survives a PubSub error (retries at the next call) but lets a shutdown's interrupt end it. */
class QuerySpoutTest {
    /** What each receive does, in order: a list to return, or an exception to throw. */
    private static final Deque<Object> SCRIPT = new ArrayDeque<>();

    private static final class ScriptedPubSub implements PubSubFactory {
        private static final long serialVersionUID = 1L;

        @Override
        public Subscriber requestSubscriber() {
            return new Subscriber() {
                @Override
                @SuppressWarnings("unchecked")
                public List<PubSubMessage> receive(Duration timeout) {
                    Object next = SCRIPT.poll();
                    if (next instanceof RuntimeException e) {
                        throw e;
                    }
                    return next == null ? List.of() : (List<PubSubMessage>) next;
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
            throw new UnsupportedOperationException("the query spout publishes nothing");
        }
    }

    @AfterEach
    void clearInterruptAndScript() {
        Thread.interrupted();
        SCRIPT.clear();
    }

    private static QuerySpout open(RecordingSpoutCollector collector) {
        QuerySpout spout = new QuerySpout(new ScriptedPubSub(), new ManualClock(5));
        spout.open(Map.of(), TopologyContexts.forTask(Components.QUERY_SPOUT, 7), collector.collector());
        return spout;
    }

    @Test
    void aPubSubErrorIsLoggedAndTheNextCallReadsAgain() {
        RecordingSpoutCollector collector = new RecordingSpoutCollector();
        QuerySpout spout = open(collector);
        SCRIPT.add(new PubSubException("broker away", null));
        SCRIPT.add(List.of(PubSubMessage.query("q1", "{}", 3)));
        spout.nextTuple(); // no exception: retried at the next call
        spout.nextTuple();
        List<RecordingSpoutCollector.Emission> emitted = collector.emitted(Streams.QUERY);
        assertEquals(1, emitted.size());
        assertEquals(Streams.QUERY, emitted.get(0).stream());
        assertEquals("q1", emitted.get(0).value(0));
    }

    @Test
    void afterHandingOutQueriesTheSpoutWaitsBeforePollingAgainButNotWhenNoneCame() {
        RecordingSpoutCollector collector = new RecordingSpoutCollector();
        QuerySpout spout = open(collector);
        List<Long> pauses = new ArrayList<>();
        spout.pause = nanos -> {
            pauses.add(nanos);
            assertEquals(2, collector.emitted(Streams.QUERY).size(), "both queries are handed out before the wait");
        };
        SCRIPT.add(List.of(PubSubMessage.query("q1", "{}", 3), PubSubMessage.query("q2", "{}", 3)));
        spout.nextTuple();
        assertEquals(List.of(QuerySpout.PAUSE_AFTER_QUERIES_NANOS), pauses, "a burst is read a fetch at a time");
        spout.nextTuple(); // nothing came (the poll itself waited)
        SCRIPT.add(new PubSubException("broker away", null));
        spout.nextTuple();
        assertEquals(1, pauses.size(), "no wait after a poll without queries");
    }

    @Test
    void anInterruptedPollEndsTheSpoutsLoopInsteadOfLoggingAnError() {
        QuerySpout spout = open(new RecordingSpoutCollector());
        RuntimeException interrupted = new RuntimeException("interrupted in the poll");
        SCRIPT.add(interrupted);
        Thread.currentThread().interrupt(); // as Kafka's InterruptException leaves it
        RuntimeException thrown = assertThrows(RuntimeException.class, spout::nextTuple);
        assertSame(interrupted, thrown);
        assertTrue(Thread.interrupted());
    }
}

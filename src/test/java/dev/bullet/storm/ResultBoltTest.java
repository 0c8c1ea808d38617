package dev.bullet.storm;

import dev.bullet.common.Clock;
import dev.bullet.config.SettingsTable;
import dev.bullet.pubsub.Deliveries.RetryPolicy;
import dev.bullet.pubsub.PubSubException;
import dev.bullet.pubsub.PubSubFactory;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.ResultTooLargeException;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.storm.TopologyNames.Components;
import dev.bullet.storm.TopologyNames.Streams;
import dev.bullet.storm.testing.Bolts;
import dev.bullet.storm.testing.RecordingOutputCollector;
import dev.bullet.storm.testing.Tuples;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The result bolt publishes each result and acks its tuple once the PubSub confirmed it; a refused one is sent again
 * on later ticks, and after the last attempt counted as dropped, acked, and replaced by an error result.
 */
class ResultBoltTest {
    private static final List<PubSubMessage> SENT = new ArrayList<>();
    /** Sends of query "flaky" that {@link ScriptedPubSub} still refuses. */
    private static int flakyFailures;

    /** Refuses results of the query id "refused", publishes the others into {@link #SENT}. */
    private static final class ScriptedPubSub implements PubSubFactory {
        private static final long serialVersionUID = 1L;

        @Override
        public Subscriber requestSubscriber() {
            throw new UnsupportedOperationException("the result bolt reads no queries");
        }

        @Override
        public Publisher responsePublisher() {
            return new Publisher() {
                @Override
                public void send(PubSubMessage message) {
                    if (message.id().equals("flaky") && flakyFailures > 0) {
                        flakyFailures--;
                        throw new PubSubException("the broker is restarting", null);
                    }
                    if (message.id().equals("refused")) {
                        throw new PubSubException("the broker said no", null);
                    }
                    SENT.add(message);
                }

                @Override
                public void close() {
                }
            };
        }
    }

    @Test
    void aResultThePubSubRefusesIsCountedAsDroppedAndAcked() {
        SENT.clear();
        RecordingOutputCollector out = new RecordingOutputCollector();
        ResultBolt bolt = new ResultBolt(new ScriptedPubSub(), new RetryPolicy(1, 0, 0), Clock.SYSTEM);
        Bolts.Prepared prepared = Bolts.prepare(bolt, out, Map.of(SettingsTable.METRICS_BUILT_IN_ENABLE, true));
        Tuple refused = Tuples.of(Components.JOIN_BOLT, Streams.RESULT, "refused", "{\"records\":[]}", 0, true, "d1");
        Tuple published = Tuples.of(Components.JOIN_BOLT, Streams.RESULT, "fine", "{\"records\":[]}", 0, true, "d2");

        bolt.execute(refused);
        bolt.execute(published);

        assertEquals(List.of(refused, published), out.acked());
        assertEquals(1, prepared.count(BulletMetrics.RESULTS_DROPPED));
        assertEquals(List.of("fine"), SENT.stream().map(PubSubMessage::id).toList());
    }

    @Test
    void aRefusedResultIsSentAgainOnTicksAndAckedOnceConfirmed() {
        SENT.clear();
        flakyFailures = 2;
        AtomicLong now = new AtomicLong(10_000);
        RecordingOutputCollector out = new RecordingOutputCollector();
        ResultBolt bolt = new ResultBolt(new ScriptedPubSub(), new RetryPolicy(3, 1_000, 1_000), now::get);
        Bolts.Prepared prepared = Bolts.prepare(bolt, out, Map.of(SettingsTable.METRICS_BUILT_IN_ENABLE, true));
        Tuple flaky = Tuples.of(Components.JOIN_BOLT, Streams.RESULT, "flaky", "{\"records\":[1]}", 0, true, "d3");

        bolt.execute(flaky);
        assertFalse(out.acked().contains(flaky), "not acked before Kafka confirmed it");
        assertEquals(1, bolt.pending());
        now.addAndGet(999);
        bolt.execute(Tuples.tick(now.get()));
        assertEquals(List.of(), SENT, "the backoff has not passed");
        now.addAndGet(1);
        bolt.execute(Tuples.tick(now.get())); // the second attempt fails too; the third is due 1 s later
        assertFalse(out.acked().contains(flaky));
        now.addAndGet(1_000);
        bolt.execute(Tuples.tick(now.get()));

        assertTrue(out.acked().contains(flaky));
        assertEquals(0, bolt.pending());
        assertEquals(0, prepared.count(BulletMetrics.RESULTS_DROPPED));
        assertEquals(List.of("flaky"), SENT.stream().map(PubSubMessage::id).toList());
        assertEquals(Signal.COMPLETE, SENT.get(0).signal());
    }

    @Test
    void aResultUndeliverableAfterTheLastAttemptIsReplacedByAnErrorResult() {
        SENT.clear();
        flakyFailures = 1;
        RecordingOutputCollector out = new RecordingOutputCollector();
        ResultBolt bolt = new ResultBolt(new ScriptedPubSub(), new RetryPolicy(1, 0, 0), Clock.SYSTEM);
        Bolts.Prepared prepared = Bolts.prepare(bolt, out, Map.of(SettingsTable.METRICS_BUILT_IN_ENABLE, true));
        Tuple flaky = Tuples.of(Components.JOIN_BOLT, Streams.RESULT, "flaky", "{\"records\":[1]}", 3, true, "d4");

        bolt.execute(flaky);

        assertEquals(List.of(flaky), out.acked());
        assertEquals(1, prepared.count(BulletMetrics.RESULTS_DROPPED));
        PubSubMessage error = SENT.get(0);
        assertEquals("flaky", error.id());
        assertEquals(3, error.replyPartition());
        assertEquals(Signal.COMPLETE, error.signal());
        assertTrue(error.payload().contains("could not be delivered to the PubSub after 1 attempts"), error.payload());
    }

    @Test
    void aResultTooLargeBecomesAnErrorNamingTheBound() {
        String json = ResultBolt.errorResult("q", new ResultTooLargeException("q", 70_000_000, 67_108_864), 1);
        assertTrue(json.contains("70000000 bytes, more than the 67108864"), json);
        assertTrue(json.contains("bullet.query.max.bytes") && json.contains("narrow the projection"), json);
        assertTrue(json.contains("\"query_id\":\"q\""), json);
    }
}

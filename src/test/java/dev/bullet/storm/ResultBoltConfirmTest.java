package dev.bullet.storm;

import dev.bullet.pubsub.Deliveries.RetryPolicy;
import dev.bullet.pubsub.PubSubException;
import dev.bullet.pubsub.PubSubFactory;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.storm.TopologyNames.Streams;
import dev.bullet.storm.testing.Bolts;
import dev.bullet.storm.testing.RecordingOutputCollector;
import dev.bullet.storm.testing.RecordingOutputCollector.Emission;
import dev.bullet.storm.testing.Tuples;
import dev.bullet.testing.ManualClock;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Result bolt publishes each result under the delivery id its Join task gave it and tells that task once Kafka
 * has it (or it gave up and sent an error result instead); a copy the Join sends while it is still delivering the
 * result is not sent twice.
 */
class ResultBoltConfirmTest {
    private static final List<PubSubMessage> SENT = new ArrayList<>();
    /** Sends the publisher still refuses. */
    private static int failures;

    /** Refuses the next {@link #failures} sends, publishes the others into {@link #SENT}. */
    private static final class FlakyPubSub implements PubSubFactory {
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
                    if (failures > 0) {
                        failures--;
                        throw new PubSubException("the broker is restarting", null);
                    }
                    SENT.add(message);
                }

                @Override
                public void close() {
                }
            };
        }
    }

    private final ManualClock clock = new ManualClock(10_000);
    private final RecordingOutputCollector out = new RecordingOutputCollector();

    private ResultBolt prepared(RetryPolicy retries) {
        SENT.clear();
        ResultBolt bolt = new ResultBolt(new FlakyPubSub(), retries, clock);
        Bolts.prepare(bolt, out, Map.of());
        return bolt;
    }

    private List<List<Object>> confirmations() {
        return out.emitted(Streams.CONFIRM).stream().map(Emission::values).toList();
    }

    @Test
    void aDeliveredResultIsPublishedUnderItsJoinsDeliveryIdAndConfirmed() {
        failures = 0;
        ResultBolt bolt = prepared(RetryPolicy.DEFAULT);

        bolt.execute(Tuples.result("q", "{\"records\":[]}", 2, false, "join-1"));

        assertEquals("join-1", SENT.get(0).delivery().id());
        assertEquals(List.of(List.of("q", "join-1")), confirmations());
    }

    @Test
    void aCopySentAgainByTheJoinWhileTheResultIsBeingDeliveredIsNotSentTwice() {
        failures = 1;
        ResultBolt bolt = prepared(new RetryPolicy(3, 1_000, 1_000));
        Tuple first = Tuples.result("q", "{\"records\":[1]}", 0, true, "join-1");
        Tuple copy = Tuples.result("q", "{\"records\":[1]}", 0, true, "join-1");

        bolt.execute(first);
        bolt.execute(copy);
        assertTrue(out.acked().contains(copy), "the copy is acked: the first one is on its way");
        assertEquals(1, bolt.pending());
        assertEquals(List.of(), confirmations());
        bolt.execute(Tuples.tick(clock.advance(1_000)));

        assertEquals(1, SENT.size());
        assertEquals(List.of(List.of("q", "join-1")), confirmations());
        bolt.execute(Tuples.result("q", "{\"records\":[1]}", 0, true, "join-1"));
        assertEquals(2, SENT.size(), "a copy after the confirmation (which the Join missed) is published: REST drops it");
        assertEquals(List.of("join-1", "join-1"), SENT.stream().map(m -> m.delivery().id()).toList());
        assertEquals(2, confirmations().size());
    }

    @Test
    void aResultGivenUpIsConfirmedSoItsJoinStopsSendingIt() {
        failures = 1;
        ResultBolt bolt = prepared(new RetryPolicy(1, 0, 0));

        bolt.execute(Tuples.result("q", "{\"records\":[1]}", 0, true, "join-9"));

        assertEquals(1, SENT.size());
        assertTrue(SENT.get(0).payload().contains("could not be delivered"), SENT.get(0).payload());
        assertTrue(!SENT.get(0).delivery().id().equals("join-9"), "the error result has an id of its own");
        assertEquals(List.of(List.of("q", "join-9")), confirmations());
    }
}

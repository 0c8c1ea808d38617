package dev.bullet.storm;

import dev.bullet.config.SettingsTable;
import dev.bullet.pubsub.PubSubException;
import dev.bullet.pubsub.PubSubFactory;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
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

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The result bolt publishes each result; one the PubSub refuses is counted as dropped, and the tuple still acked. */
class ResultBoltTest {
    private static final List<PubSubMessage> SENT = new ArrayList<>();

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
        ResultBolt bolt = new ResultBolt(new ScriptedPubSub());
        Bolts.Prepared prepared = Bolts.prepare(bolt, out, Map.of(SettingsTable.METRICS_BUILT_IN_ENABLE, true));
        Tuple refused = Tuples.of(Components.JOIN_BOLT, Streams.RESULT, "refused", "{\"records\":[]}", 0, true);
        Tuple published = Tuples.of(Components.JOIN_BOLT, Streams.RESULT, "fine", "{\"records\":[]}", 0, true);

        bolt.execute(refused);
        bolt.execute(published);

        assertEquals(List.of(refused, published), out.acked());
        assertEquals(1, prepared.count(BulletMetrics.RESULTS_DROPPED));
        assertEquals(List.of("fine"), SENT.stream().map(PubSubMessage::id).toList());
    }
}

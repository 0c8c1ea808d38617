package dev.bullet.testing;

import dev.bullet.config.BulletSettings;
import dev.bullet.pubsub.KafkaPubSub;
import dev.bullet.pubsub.KafkaPubSubFactory;
import dev.bullet.pubsub.PubSubException;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.record.JsonCodec;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for the topology on a real Kafka PubSub, for tests of the REST service that need no records: it reads
 * the request topic and answers every query whose duration is at most {@link #QUICK_MS} at once with an empty final
 * result (so the health probe and short queries complete); longer queries get no answer and run until they are
 * killed or time out. One daemon thread; {@link #close()} stops it.
 */
public final class EchoTopology implements AutoCloseable {
    public static final long QUICK_MS = 1_000;
    private static final Pattern DURATION = Pattern.compile("\"duration\"\\s*:\\s*(\\d+)|STREAM\\((\\d+)");

    private final Subscriber requests;
    private final Publisher responses;
    private final Thread thread;
    private final AtomicInteger kills = new AtomicInteger();
    private volatile boolean running = true;

    private EchoTopology(KafkaPubSub pubSub) {
        pubSub.createTopics();
        this.requests = pubSub.requestSubscriber("echo-topology");
        this.responses = pubSub.responsePublisher();
        this.thread = new Thread(this::loop, "echo-topology");
        thread.setDaemon(true);
    }

    /** Starts answering the PubSub of {@code settings}. */
    public static EchoTopology start(BulletSettings settings) {
        EchoTopology echo = new EchoTopology(new KafkaPubSub(KafkaPubSubFactory.config(settings)));
        echo.thread.start();
        return echo;
    }

    /** How many KILL signals arrived. */
    public int kills() {
        return kills.get();
    }

    private void loop() {
        while (running) {
            try {
                for (PubSubMessage m : requests.receive(Duration.ofMillis(100))) {
                    if (m.signal() == Signal.KILL) {
                        kills.incrementAndGet();
                    } else if (!m.hasSignal() && quick(m.payload())) {
                        String result = JsonCodec.toJson(Map.of("records", List.of(),
                                                                "meta", Map.of("query_id", m.id())));
                        responses.send(new PubSubMessage(m.id(), result, Signal.COMPLETE, m.replyPartition()));
                        responses.flush();
                    }
                }
            } catch (PubSubException e) {
                if (!running) {
                    return;
                }
            }
        }
    }

    private static boolean quick(String payload) {
        Matcher m = DURATION.matcher(payload == null ? "" : payload);
        if (!m.find()) {
            return false;
        }
        String n = m.group(1) != null ? m.group(1) : m.group(2);
        return n.length() < 10 && Long.parseLong(n) <= QUICK_MS;
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        requests.close();
        responses.close();
    }
}

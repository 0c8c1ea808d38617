package dev.bullet.pubsub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.bullet.local.EmbeddedKafka;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The Kafka PubSub against a real (embedded) broker: both sides, routing by reply partition, failures. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KafkaPubSubIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final AtomicInteger NAMES = new AtomicInteger();

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

    /** A PubSub on fresh topics (created), with {@code responsePartitions} response partitions. */
    private static KafkaPubSub pubSub(int responsePartitions) {
        int n = NAMES.incrementAndGet();
        KafkaPubSub pubSub = new KafkaPubSub(new KafkaPubSubConfig(kafka.bootstrapServers(), "queries-" + n,
            "responses-" + n, responsePartitions, Map.of()));
        pubSub.createTopics();
        return pubSub;
    }

    /**
     * Receives the way the query spout does, {@code receive(Duration.ZERO)} from a loop, until a message matches;
     * returns everything received up to and including it.
     */
    private static List<PubSubMessage> receiveUntil(Subscriber subscriber, Predicate<PubSubMessage> last,
                                                    Duration timeout) {
        List<PubSubMessage> received = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (PubSubMessage message : subscriber.receive(Duration.ZERO)) {
                received.add(message);
                if (last.test(message)) {
                    return received;
                }
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2)); // poll interval, like a spout's idle wait
        }
        fail("timed out after " + timeout + "; received " + received);
        return received;
    }

    /**
     * A new group starts at the end of the request topic, so wait until the subscriber has joined and found
     * its position: send probes until one arrives.
     */
    private static void awaitReady(Publisher publisher, Subscriber subscriber) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        for (int i = 0; System.nanoTime() < deadline; i++) {
            String probe = "probe-" + i;
            publisher.send(PubSubMessage.query(probe, "{}", -1));
            long probeDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            while (System.nanoTime() < probeDeadline) {
                // Duration.ZERO, as from a spout's nextTuple: the group join must progress anyway.
                if (subscriber.receive(Duration.ZERO).stream().anyMatch(m -> m.id().startsWith("probe-"))) {
                    return;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
        }
        fail("the request subscriber never received a probe");
    }

    @Test
    void queryAndKillReachTheRequestSubscriberWithIdsPayloadsAndSignals() {
        KafkaPubSub pubSub = pubSub(2);
        try (Publisher requests = pubSub.requestPublisher();
             Subscriber topology = pubSub.requestSubscriber("topology-" + NAMES.get())) {
            awaitReady(requests, topology);
            String query = "{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"filters\":[{\"field\":\"city\","
                + "\"operation\":\"==\",\"values\":[\"Zürich ✓\"]}]}";
            requests.send(PubSubMessage.query("q-1", query, 1));
            requests.send(PubSubMessage.signal("q-1", Signal.KILL, 1));
            List<PubSubMessage> received = receiveUntil(topology, m -> m.hasSignal(), WAIT);
            received.removeIf(m -> m.id().startsWith("probe-"));
            assertEquals(List.of(new PubSubMessage("q-1", query, null, 1), new PubSubMessage("q-1", "", Signal.KILL, 1)),
                received);
        }
    }

    @Test
    void resultsReachOnlyTheSubscriberOfTheirReplyPartition() {
        KafkaPubSub pubSub = pubSub(2);
        try (Subscriber partition0 = pubSub.responseSubscriber(List.of(0));
             Subscriber partition1 = pubSub.responseSubscriber(List.of(1));
             Publisher results = pubSub.responsePublisher()) {
            String window = "{\"records\":[{\"count\":3}],\"meta\":{\"window\":{\"number\":1}}}";
            String last = "{\"records\":[{\"count\":5}],\"meta\":{}}";
            results.send(new PubSubMessage("q-7", window, null, 1));
            results.send(new PubSubMessage("q-7", last, Signal.COMPLETE, 1));
            results.send(new PubSubMessage("q-8", "{\"records\":[]}", Signal.FAIL, 1));
            results.flush();
            List<PubSubMessage> got = receiveUntil(partition1, m -> m.signal() == Signal.FAIL, WAIT);
            assertEquals(List.of(new PubSubMessage("q-7", window, null, 1),
                new PubSubMessage("q-7", last, Signal.COMPLETE, 1),
                new PubSubMessage("q-8", "{\"records\":[]}", Signal.FAIL, 1)), got);
            // Partition 0's subscriber is live (it gets a marker sent afterwards) but never saw partition 1's results.
            results.send(new PubSubMessage("marker", "{}", null, 0));
            results.flush();
            List<PubSubMessage> other = receiveUntil(partition0, m -> m.id().equals("marker"), WAIT);
            assertEquals(List.of(new PubSubMessage("marker", "{}", null, 0)), other);
        }
    }

    @Test
    void resultWithoutReplyPartitionIsRoutedByQueryId() {
        KafkaPubSub pubSub = pubSub(1);
        try (Subscriber all = pubSub.responseSubscriber(List.of(0));
             Publisher results = pubSub.responsePublisher()) {
            results.send(new PubSubMessage("q-9", "{}", Signal.COMPLETE, -1));
            results.flush();
            assertEquals(List.of(new PubSubMessage("q-9", "{}", Signal.COMPLETE, -1)),
                receiveUntil(all, m -> true, WAIT));
        }
    }

    @Test
    void responseSubscriberSeesOnlyResultsSentAfterItWasCreated() {
        KafkaPubSub pubSub = pubSub(1);
        try (Publisher results = pubSub.responsePublisher()) {
            results.send(new PubSubMessage("old", "{}", null, 0));
            results.flush();
            try (Subscriber subscriber = pubSub.responseSubscriber(List.of(0))) {
                results.send(new PubSubMessage("new", "{}", null, 0));
                results.flush();
                assertEquals(List.of(new PubSubMessage("new", "{}", null, 0)),
                    receiveUntil(subscriber, m -> true, WAIT));
            }
        }
    }

    @Test
    void responseSubscriberOnAMissingTopicFailsAtOnceAndDoesNotCreateIt() {
        int n = NAMES.incrementAndGet();
        KafkaPubSub pubSub = new KafkaPubSub(new KafkaPubSubConfig(kafka.bootstrapServers(), "queries-" + n,
            "responses-" + n, 3, Map.of()));
        long start = System.nanoTime();
        PubSubException e = assertThrows(PubSubException.class, () -> pubSub.responseSubscriber(List.of(2)));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "fails fast");
        pubSub.createTopics(); // not auto-created with the broker's default of 1 partition by the attempt above
        pubSub.responseSubscriber(List.of(2)).close();
    }

    @Test
    void pingAnswersWhenKafkaIsUp() {
        pubSub(1).ping();
    }

    @Test
    void createTopicsIsIdempotentAndRefusesTooFewResponsePartitions() {
        KafkaPubSub pubSub = pubSub(3);
        pubSub.createTopics();
        KafkaPubSubConfig config = pubSub.config();
        KafkaPubSub wider = new KafkaPubSub(new KafkaPubSubConfig(config.bootstrapServers(), config.requestTopic(),
            config.responseTopic(), 5, Map.of()));
        PubSubException e = assertThrows(PubSubException.class, wider::createTopics);
        assertTrue(e.getMessage().contains("3 partitions"), e.getMessage());
    }

    @Test
    void replyPartitionOutsideTheResponseTopicIsRefused() {
        KafkaPubSub pubSub = pubSub(2);
        try (Publisher results = pubSub.responsePublisher()) {
            assertThrows(PubSubException.class, () -> results.send(new PubSubMessage("q", "{}", null, 2)));
        }
        assertThrows(IllegalArgumentException.class, () -> pubSub.responseSubscriber(List.of(2)));
        assertThrows(IllegalArgumentException.class, () -> pubSub.responseSubscriber(List.of()));
    }

    @Test
    void unreachableKafkaIsAClearPubSubExceptionNotAHang() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            port = socket.getLocalPort();
        }
        // Nothing listens there any more. Short client timeouts keep the test fast; the default is 10 s.
        KafkaPubSub pubSub = new KafkaPubSub(new KafkaPubSubConfig("127.0.0.1:" + port, "q", "r", 1, Map.of(
            "default.api.timeout.ms", "1500", "request.timeout.ms", "1500", "max.block.ms", "1500",
            "delivery.timeout.ms", "3000", "reconnect.backoff.max.ms", "200")));
        long start = System.nanoTime();
        PubSubException created = assertThrows(PubSubException.class, pubSub::createTopics);
        assertTrue(created.getMessage().contains("127.0.0.1:" + port), created.getMessage());
        try (Publisher requests = pubSub.requestPublisher()) {
            assertThrows(PubSubException.class, () -> requests.send(PubSubMessage.query("q", "{}", 0)));
        }
        assertThrows(PubSubException.class, () -> pubSub.responseSubscriber(List.of(0)));
        assertThrows(PubSubException.class, pubSub::ping);
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertTrue(seconds < 20, "took " + seconds + " s");
    }
}

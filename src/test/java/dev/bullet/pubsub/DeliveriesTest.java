package dev.bullet.pubsub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.bullet.pubsub.Deliveries.RetryPolicy;
import dev.bullet.pubsub.PubSubMessage.Delivery;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Outcomes recorded by the client's thread, acted on by the owner's poll: acks, retries with backoff, give-ups. */
class DeliveriesTest {
    private static final RetryPolicy POLICY = new RetryPolicy(3, 100, 1_000);

    /** Keeps every send's callback, for the test to complete as Kafka would. */
    private static final class HeldPublisher implements Publisher {
        final List<PubSubMessage> sent = new ArrayList<>();
        final List<Consumer<Exception>> callbacks = new ArrayList<>();

        @Override
        public void send(PubSubMessage message) {
            throw new UnsupportedOperationException("results are sent with a callback");
        }

        @Override
        public void send(PubSubMessage message, Consumer<Exception> done) {
            sent.add(message);
            callbacks.add(done);
        }

        /** Completes the i-th send on another thread, as the producer's I/O thread does. */
        void complete(int i, Exception failure) throws InterruptedException {
            Thread t = new Thread(() -> callbacks.get(i).accept(failure));
            t.start();
            t.join();
        }

        @Override
        public void close() {
        }
    }

    private static final class Recorder implements Deliveries.Handler<String> {
        final List<String> delivered = new ArrayList<>();
        final List<String> undeliverable = new ArrayList<>();
        final List<Exception> failures = new ArrayList<>();

        @Override
        public void delivered(String token, PubSubMessage message) {
            delivered.add(token);
        }

        @Override
        public void undeliverable(String token, PubSubMessage message, Exception failure, int attempts) {
            undeliverable.add(token + "@" + attempts);
            failures.add(failure);
        }
    }

    private static PubSubMessage result(String id) {
        return new PubSubMessage(id, "{\"records\":[]}", Signal.COMPLETE, 0, Delivery.whole("d-" + id));
    }

    @Test
    void aConfirmedSendIsDeliveredOnlyAtThePollAfterItsCallback() throws Exception {
        HeldPublisher publisher = new HeldPublisher();
        Deliveries<String> deliveries = new Deliveries<>(publisher, POLICY, () -> 0L);
        Recorder handler = new Recorder();
        deliveries.send("t1", result("q1"));
        deliveries.poll(handler);
        assertEquals(List.of(), handler.delivered, "not confirmed yet");
        publisher.complete(0, null);
        assertEquals(List.of(), handler.delivered, "the callback only records");
        deliveries.poll(handler);
        assertEquals(List.of("t1"), handler.delivered);
        assertEquals(0, deliveries.pending());
    }

    @Test
    void aFailedSendIsSentAgainWithTheSameDeliveryAfterItsBackoff() throws Exception {
        HeldPublisher publisher = new HeldPublisher();
        AtomicLong now = new AtomicLong(1_000);
        Deliveries<String> deliveries = new Deliveries<>(publisher, POLICY, now::get);
        Recorder handler = new Recorder();
        deliveries.send("t1", result("q1"));
        publisher.complete(0, new PubSubException("broker away", null));
        deliveries.poll(handler);
        assertEquals(1, publisher.sent.size(), "waits out the backoff");
        assertEquals(1, deliveries.waiting());
        now.addAndGet(99);
        deliveries.poll(handler);
        assertEquals(1, publisher.sent.size());
        now.addAndGet(1);
        deliveries.poll(handler);
        assertEquals(2, publisher.sent.size(), "sent again once the backoff passed");
        assertEquals(publisher.sent.get(0), publisher.sent.get(1), "same message, same delivery id");
        publisher.complete(1, null);
        deliveries.poll(handler);
        assertEquals(List.of("t1"), handler.delivered);
        assertEquals(List.of(), handler.undeliverable);
    }

    @Test
    void afterTheLastAttemptTheResultIsUndeliverableAndBackoffsDoubled() throws Exception {
        HeldPublisher publisher = new HeldPublisher();
        AtomicLong now = new AtomicLong();
        Deliveries<String> deliveries = new Deliveries<>(publisher, POLICY, now::get);
        Recorder handler = new Recorder();
        deliveries.send("t1", result("q1"));
        long[] waits = {100, 200};
        for (int attempt = 0; attempt < 2; attempt++) {
            publisher.complete(attempt, new PubSubException("no " + attempt, null));
            deliveries.poll(handler);
            now.addAndGet(waits[attempt] - 1);
            deliveries.poll(handler);
            assertEquals(attempt + 1, publisher.sent.size(), "not before " + waits[attempt] + " ms");
            now.addAndGet(1);
            deliveries.poll(handler);
        }
        assertEquals(3, publisher.sent.size());
        publisher.complete(2, new PubSubException("no 2", null));
        deliveries.poll(handler);
        assertEquals(List.of("t1@3"), handler.undeliverable);
        assertEquals("no 2", handler.failures.get(0).getMessage());
        assertEquals(0, deliveries.pending());
    }

    @Test
    void aResultTooLargeIsNotTriedAgain() {
        Publisher refusing = new Publisher() {
            @Override
            public void send(PubSubMessage message) {
                throw new ResultTooLargeException(message.id(), 10, 5);
            }

            @Override
            public void close() {
            }
        };
        Deliveries<String> deliveries = new Deliveries<>(refusing, POLICY, () -> 0L);
        Recorder handler = new Recorder();
        deliveries.send("t1", result("q1"));
        deliveries.poll(handler);
        assertEquals(List.of("t1@1"), handler.undeliverable);
        assertInstanceOf(ResultTooLargeException.class, handler.failures.get(0));
    }

    @Test
    void backoffDoublesUpToItsMaximum() {
        RetryPolicy policy = new RetryPolicy(10, 100, 1_000);
        assertEquals(100, policy.backoffMs(1));
        assertEquals(200, policy.backoffMs(2));
        assertEquals(800, policy.backoffMs(4));
        assertEquals(1_000, policy.backoffMs(5));
        assertEquals(1_000, policy.backoffMs(60));
        assertTrue(policy.retries(new PubSubException("x", null), 9));
        assertTrue(!policy.retries(new PubSubException("x", null), 10));
    }
}

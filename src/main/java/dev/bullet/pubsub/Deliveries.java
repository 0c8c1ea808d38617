package dev.bullet.pubsub;

import dev.bullet.common.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Results on their way to the response topic until Kafka confirmed them: {@link #send} hands a result to the
 * publisher, whose callback only records the outcome in a concurrent queue; {@link #poll}, on the owner's thread,
 * reads the outcomes and tells the {@link Handler}: {@code delivered} once a send is confirmed, and for a failed one
 * either sends it again once its backoff ({@link RetryPolicy}) has passed or, after the last attempt (or at once
 * for a {@link ResultTooLargeException}), {@code undeliverable}. So the owner (the Result bolt) acts on the outcomes
 * on its own thread and never on the client's. Every attempt carries the same {@link PubSubMessage.Delivery}, so a
 * reader can drop the second copy of a result whose confirmation was lost. Not thread-safe, except that the
 * publisher's callbacks may run on any thread.
 *
 * @param <T> what the owner keeps with a result (the bolt's tuple)
 */
public final class Deliveries<T> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Deliveries.class);
    /** The least time between two warnings of a failed attempt: an outage fails every result in flight. */
    private static final long WARN_EVERY_MS = 10_000;
    /** What the owner does with the outcomes; called on the thread of {@link #poll}. */
    public interface Handler<T> {
        void delivered(T token, PubSubMessage message);

        /** After the last attempt: {@code failure} is the last attempt's. */
        void undeliverable(T token, PubSubMessage message, Exception failure, int attempts);
    }

    /**
     * How often and when a failed send is tried again.
     *
     * @param attempts       sends in all (the first included), at least 1
     * @param firstBackoffMs the wait before the second attempt; it doubles for each later one
     * @param maxBackoffMs   the longest wait
     */
    public record RetryPolicy(int attempts, long firstBackoffMs, long maxBackoffMs) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** 5 attempts, 1 s after the first failure then 2, 4, 8 s: with the producer's own delivery timeout each
         *  attempt may take, a Kafka away for about a minute and a half. */
        public static final RetryPolicy DEFAULT = new RetryPolicy(5, 1_000, 10_000);

        public RetryPolicy {
            if (attempts < 1 || firstBackoffMs < 0 || maxBackoffMs < firstBackoffMs) {
                throw new IllegalArgumentException("not a retry policy: " + attempts + " attempts, backoff "
                                                   + firstBackoffMs + ".." + maxBackoffMs + " ms");
            }
        }

        /** The wait after the {@code failures}-th failure (1 = the first). */
        public long backoffMs(int failures) {
            long backoff = firstBackoffMs;
            for (int i = 1; i < failures && backoff < maxBackoffMs; i++) {
                backoff *= 2;
            }
            return Math.min(backoff, maxBackoffMs);
        }

        /** Whether a send that failed so, for the {@code failures}-th time, is tried again. */
        public boolean retries(Exception failure, int failures) {
            return failures < attempts && !(failure instanceof ResultTooLargeException);
        }
    }

    private record Outcome(long send, Exception failure) {
    }

    private static final class Pending<T> {
        final T token;
        final PubSubMessage message;
        int failures;
        long dueAt = -1; // ≥ 0 while waiting to be sent again

        Pending(T token, PubSubMessage message) {
            this.token = token;
            this.message = message;
        }
    }

    private final Publisher publisher;
    private final RetryPolicy policy;
    private final Clock clock;
    private final Queue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final Map<Long, Pending<T>> pending = new LinkedHashMap<>();
    private long sends;
    private int waiting;
    private long nextWarnAt = Long.MIN_VALUE;

    public Deliveries(Publisher publisher, RetryPolicy policy, Clock clock) {
        this.publisher = publisher;
        this.policy = policy;
        this.clock = clock;
    }

    /** Sends a result; its outcome reaches the handler from a later {@link #poll}. */
    public void send(T token, PubSubMessage message) {
        long send = sends++;
        Pending<T> p = new Pending<>(token, message);
        pending.put(send, p);
        attempt(send, p);
    }

    /** Acts on the outcomes recorded since the last call, then sends again the results whose backoff has passed. */
    public void poll(Handler<T> handler) {
        drain(handler);
        if (waiting > 0 && retryDue()) {
            drain(handler); // a send that failed at once
        }
    }

    private void drain(Handler<T> handler) {
        Outcome outcome;
        while ((outcome = outcomes.poll()) != null) {
            Pending<T> p = pending.get(outcome.send());
            if (p == null) {
                continue;
            }
            if (outcome.failure() == null) {
                pending.remove(outcome.send());
                handler.delivered(p.token, p.message);
                continue;
            }
            p.failures++;
            if (policy.retries(outcome.failure(), p.failures)) {
                p.dueAt = clock.now() + policy.backoffMs(p.failures);
                waiting++;
                if (clock.now() >= nextWarnAt) { // the last attempt's failure is the owner's to report
                    nextWarnAt = clock.now() + WARN_EVERY_MS;
                    LOG.warn("A result of query {} was not delivered (attempt {} of {}: {}); sent again in {} ms",
                             p.message.id(), p.failures, policy.attempts(), outcome.failure().toString(),
                             policy.backoffMs(p.failures));
                }
            } else {
                pending.remove(outcome.send());
                handler.undeliverable(p.token, p.message, outcome.failure(), p.failures);
            }
        }
    }

    /** True when it sent something again. */
    private boolean retryDue() {
        long now = clock.now();
        List<Map.Entry<Long, Pending<T>>> due = new ArrayList<>();
        for (Iterator<Map.Entry<Long, Pending<T>>> it = pending.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, Pending<T>> e = it.next();
            if (e.getValue().dueAt >= 0 && e.getValue().dueAt <= now) {
                due.add(e);
            }
        }
        for (Map.Entry<Long, Pending<T>> e : due) {
            e.getValue().dueAt = -1;
            waiting--;
            attempt(e.getKey(), e.getValue());
        }
        return !due.isEmpty();
    }

    private void attempt(long send, Pending<T> p) {
        try {
            publisher.send(p.message, failure -> outcomes.add(new Outcome(send, failure)));
        } catch (RuntimeException e) { // a publisher that throws instead of reporting
            outcomes.add(new Outcome(send, e));
        }
    }

    /** Results sent and not yet confirmed or given up (in flight or waiting to be sent again). */
    public int pending() {
        return pending.size();
    }

    /** Closes the publisher: it sends what it holds, for a while (results waiting out a backoff are lost). */
    @Override
    public void close() {
        publisher.close();
    }

    /** Results waiting out a backoff before their next attempt. */
    public int waiting() {
        return waiting;
    }
}

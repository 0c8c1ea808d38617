package dev.bullet.rest;

import dev.bullet.common.Clock;
import dev.bullet.pubsub.PubSubException;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.rest.QueryListener.Ending;
import dev.bullet.rest.RunningQueries.Running;
import org.apache.kafka.common.errors.InterruptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * The one thread that reads this instance's response partitions: it connects (retrying while Kafka cannot be
 * reached), hands each result to its query's listener by id, and after every poll lets the service end overdue
 * queries. Results pass a {@link ResultAssembly} first: chunks of a large result are joined, a second copy of a
 * result is dropped. The Kafka consumer is single-threaded, so only this thread touches the subscriber; {@link #connected()}
 * and {@link #connectProblem()} may be read from any thread.
 */
final class ResultReader {
    /** Kafka answers a waiting poll as soon as a result arrives; this paces an idle reader and the overdue check. */
    static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
    static final long RECONNECT_DELAY_MS = 1_000;
    private static final long ERROR_PAUSE_MS = 100;
    /** How often the assembly forgets the queries that ended. */
    private static final long RETAIN_EVERY_MS = 5_000;
    private static final Logger LOG = LoggerFactory.getLogger(ResultReader.class);

    private final Supplier<Subscriber> subscriberFactory;
    private final RunningQueries queries;
    private final Clock clock;
    private final LongConsumer expire;
    private final String kafkaDescription;
    private final List<Integer> partitions;
    private final ResultAssembly assembly;
    private long retainedAt;

    private Subscriber subscriber;
    private volatile boolean connected;
    private volatile String connectProblem = "not connected yet";
    private volatile boolean closed;
    private Thread thread;
    private long receiveFailures;

    /**
     * @param subscriberFactory makes the response subscriber; called by the reader thread until it succeeds
     * @param expire            called with the time after every round, to end overdue queries
     * @param maxResultBytes    the most characters of one result joined from chunks; twice that for all the results
     *                          being joined together
     */
    ResultReader(Supplier<Subscriber> subscriberFactory, RunningQueries queries, Clock clock, LongConsumer expire,
                 String kafkaDescription, List<Integer> partitions, long maxResultBytes) {
        this.assembly = new ResultAssembly(maxResultBytes,
                                           maxResultBytes > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * maxResultBytes);
        this.subscriberFactory = subscriberFactory;
        this.queries = queries;
        this.clock = clock;
        this.expire = expire;
        this.kafkaDescription = kafkaDescription;
        this.partitions = partitions;
    }

    /** Starts the reader thread (a daemon). */
    void start() {
        thread = new Thread(this::readLoop, "bullet-rest-results");
        thread.setDaemon(true);
        thread.start();
    }

    boolean connected() {
        return connected;
    }

    String connectProblem() {
        return connectProblem;
    }

    private void readLoop() {
        try {
            while (!closed) {
                try {
                    if (subscriber == null && !connect()) {
                        expire.accept(clock.now());
                        pause(RECONNECT_DELAY_MS);
                        continue;
                    }
                    pollOnce(POLL_TIMEOUT);
                } catch (InterruptException e) {
                    if (!closed) {
                        LOG.warn("The result reader was interrupted; going on");
                    }
                } catch (RuntimeException e) {
                    LOG.error("Unexpected failure in the result reader; going on", e);
                    pause(ERROR_PAUSE_MS);
                }
            }
        } finally {
            if (subscriber != null) {
                try {
                    subscriber.close();
                } catch (RuntimeException e) {
                    LOG.warn("Cannot close the response subscriber cleanly", e);
                }
            }
        }
    }

    /** Tries once to make the response subscriber; true when connected. Reader thread only. */
    boolean connect() {
        try {
            subscriber = subscriberFactory.get();
        } catch (RuntimeException e) {
            String problem = String.valueOf(e.getMessage());
            if (!problem.equals(connectProblem)) {
                LOG.warn("Cannot read results from {} yet (retrying every {} ms): {}", kafkaDescription,
                         RECONNECT_DELAY_MS, problem);
            }
            connectProblem = problem;
            return false;
        }
        connected = true;
        LOG.info("Reading results from {}, response partitions {}", kafkaDescription, partitions);
        return true;
    }

    /** One round: results in, overdue queries out. Reader thread only. */
    void pollOnce(Duration timeout) {
        List<PubSubMessage> messages;
        try {
            messages = subscriber.receive(timeout);
        } catch (PubSubException e) {
            if (receiveFailures++ % 100 == 0) {
                LOG.warn("Cannot read results from {} ({} failures so far): {}", kafkaDescription, receiveFailures,
                         e.getMessage());
            }
            messages = List.of();
            pause(ERROR_PAUSE_MS);
        }
        for (PubSubMessage m : messages) {
            deliver(m);
        }
        long now = clock.now();
        if (now - retainedAt >= RETAIN_EVERY_MS) {
            retainedAt = now;
            assembly.retain(id -> queries.get(id) != null);
        }
        expire.accept(now);
    }

    private void deliver(PubSubMessage received) {
        Running r = queries.get(received.id());
        if (r == null) {
            return; // ended already (killed, timed out), or sent before a restart
        }
        PubSubMessage m = assembly.accept(received);
        if (m == null) {
            return; // a chunk kept for later, or a second copy
        }
        if (m.signal() == Signal.COMPLETE || m.signal() == Signal.FAIL) {
            String payload = m.payload() == null || m.payload().isEmpty()
                             ? ErrorResults.forQuery(m.id(), "The topology ended the query without a result",
                                                     "Submit it again") : m.payload();
            queries.finish(r, Ending.COMPLETED, payload);
        } else if (!m.hasSignal()) {
            r.result(m.payload());
        }
    }

    private void pause(long ms) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        long left;
        while (!closed && (left = until - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    /** Stops the thread (waiting a little for it) and closes the subscriber. */
    void close() {
        closed = true;
        if (thread != null) {
            try {
                thread.join(POLL_TIMEOUT.toMillis() * 20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

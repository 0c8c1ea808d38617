package dev.bullet.rest;

import dev.bullet.common.Clock;
import dev.bullet.pubsub.PubSubException;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.rest.QueryListener.Ending;
import dev.bullet.rest.QueryService.Health;
import dev.bullet.rest.RunningQueries.Running;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Whether Kafka and the topology answer: a tiny probe query ({@value #PROBE_QUERY}) sent like a client's must come
 * back within {@code bullet.rest.health.timeout.ms}. A good answer is reused for {@value #HEALTH_CACHE_MS} ms;
 * concurrent callers share one probe. Thread-safe; never blocks.
 */
final class HealthProbe {
    /** The smallest query the topology answers (at its next tick, with or without data). */
    static final String PROBE_QUERY = "{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":1}";
    /** How long a good health answer is reused before the topology is probed again. */
    static final long HEALTH_CACHE_MS = 5_000;

    private final RunningQueries queries;
    private final ResultReader reader;
    private final Publisher publisher;
    private final Executor signals;
    private final Clock clock;
    private final long timeoutMs;
    private final String kafkaDescription;

    private final Object lock = new Object();
    private CompletableFuture<Health> probeInFlight;
    private Health lastGoodHealth;
    private long healthyUntil = Long.MIN_VALUE;

    HealthProbe(RunningQueries queries, ResultReader reader, Publisher publisher, Executor signals, Clock clock,
                long timeoutMs, String kafkaDescription) {
        this.queries = queries;
        this.reader = reader;
        this.publisher = publisher;
        this.signals = signals;
        this.clock = clock;
        this.timeoutMs = timeoutMs;
        this.kafkaDescription = kafkaDescription;
    }

    CompletableFuture<Health> check() {
        if (!reader.connected()) {
            return CompletableFuture.completedFuture(new Health(false, "cannot read results from " + kafkaDescription
                                                                       + ": " + reader.connectProblem()));
        }
        CompletableFuture<Health> probe;
        synchronized (lock) {
            if (clock.now() < healthyUntil) {
                return CompletableFuture.completedFuture(lastGoodHealth);
            }
            if (probeInFlight != null) {
                return probeInFlight;
            }
            probe = new CompletableFuture<>();
            probeInFlight = probe;
        }
        probe.whenComplete((health, failure) -> {
            synchronized (lock) {
                probeInFlight = null;
                if (health != null && health.up()) {
                    lastGoodHealth = health;
                    healthyUntil = clock.now() + HEALTH_CACHE_MS;
                }
            }
        });
        long sent = clock.now();
        String id = "health-" + UUID.randomUUID();
        Running r = new Running(id, null, sent, sent + timeoutMs, queries.nextPartition(), true,
                                new ProbeListener(probe, sent));
        queries.add(r);
        try {
            signals.execute(() -> {
                try {
                    publisher.send(PubSubMessage.query(id, PROBE_QUERY, r.partition));
                    r.published = true;
                } catch (PubSubException e) {
                    if (queries.withdraw(r)) {
                        probe.complete(new Health(false, "Kafka did not take the probe query (" + kafkaDescription + "): "
                                                         + e.getMessage()));
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            queries.withdraw(r);
            probe.complete(new Health(false, "the service is shutting down"));
        }
        return probe;
    }

    /** Completes a health probe from the probe query's end. */
    private final class ProbeListener implements QueryListener {
        private final CompletableFuture<Health> probe;
        private final long sent;

        ProbeListener(CompletableFuture<Health> probe, long sent) {
            this.probe = probe;
            this.sent = sent;
        }

        @Override
        public void onResult(String resultJson) {
            // a probe has no windows
        }

        @Override
        public void onEnd(Ending ending, String resultJson) {
            probe.complete(switch (ending) {
                case COMPLETED -> new Health(true, "the topology answered a probe query in " + (clock.now() - sent) + " ms");
                case TIMED_OUT -> new Health(false, "the topology did not answer a probe query within " + timeoutMs
                                                    + " ms (is it running, and reading " + kafkaDescription + "?)");
                case KILLED, SHUT_DOWN -> new Health(false, "the service is shutting down");
            });
        }
    }
}

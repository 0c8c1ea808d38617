package dev.bullet.rest;

import dev.bullet.common.Clock;
import dev.bullet.pubsub.PubSubException;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.rest.QueryListener.Ending;
import dev.bullet.rest.RunningQueries.Running;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * Queries the service sends for itself (the schema sampler's): registered like a health probe, so they are not
 * listed by {@code GET /api/bullet/queries}, take no slot of {@code bullet.rest.max.concurrent.queries}, cannot be
 * killed through the API, and end silently when overdue. Nothing keeps them after they end. Thread-safe; never blocks
 * (the publish runs on the service's signal thread).
 */
final class InternalQuery {
    private static final Logger LOG = LoggerFactory.getLogger(InternalQuery.class);

    private final RunningQueries queries;
    private final Publisher publisher;
    private final Executor signals;
    private final Clock clock;
    private final long resultGraceMs;

    InternalQuery(RunningQueries queries, Publisher publisher, Executor signals, Clock clock, long resultGraceMs) {
        this.queries = queries;
        this.publisher = publisher;
        this.signals = signals;
        this.clock = clock;
        this.resultGraceMs = resultGraceMs;
    }

    /**
     * Sends the query (already valid: the caller builds it).
     *
     * @param durationMs the query's duration: it is given up after that plus {@code patienceMs}, or plus
     *                   {@code bullet.rest.result.grace.ms} if that is shorter
     * @param onEnd      gets the final result's JSON, or null if the query failed, timed out or was not sent
     */
    void send(String prefix, String query, long durationMs, long patienceMs, Consumer<String> onEnd) {
        long now = clock.now();
        String id = prefix + "-" + UUID.randomUUID();
        long grace = Math.min(Math.max(0, patienceMs), resultGraceMs);
        Running r = new Running(id, null, now, now + durationMs + grace, queries.nextPartition(), true,
                                new QueryListener() {
                                    @Override
                                    public void onResult(String resultJson) {
                                        // a window's result: only the final one is wanted
                                    }

                                    @Override
                                    public void onEnd(Ending ending, String resultJson) {
                                        onEnd.accept(ending == Ending.COMPLETED ? resultJson : null);
                                    }
                                });
        queries.add(r);
        try {
            signals.execute(() -> {
                try {
                    publisher.send(PubSubMessage.query(id, query, r.partition));
                    r.published = true;
                } catch (PubSubException e) {
                    LOG.debug("Kafka did not take the internal query {}: {}", id, e.getMessage());
                    if (queries.withdraw(r)) {
                        onEnd.accept(null);
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            if (queries.withdraw(r)) {
                onEnd.accept(null);
            }
        }
    }
}

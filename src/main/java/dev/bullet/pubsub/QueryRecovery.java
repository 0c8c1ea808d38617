package dev.bullet.pubsub;

import dev.bullet.common.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * What the query spout does with the query store ({@link QueryStore}), without Storm: stores each query it stamps,
 * writes a tombstone for each KILL it reads, and, on the spout task that takes up stored queries (one per topology),
 * hands out once the stored queries still running, with their original start times, after writing a tombstone for
 * those that ended while no topology ran. Until the store could be read (Kafka away) it tries again every
 * {@value #RETRY_MS} ms. Not thread-safe: the spout's thread only.
 */
public final class QueryRecovery implements AutoCloseable {
    static final long RETRY_MS = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(QueryRecovery.class);

    private final QueryStore store;
    private final Clock clock;
    private final ToLongFunction<StoredQuery> durationMs;
    private boolean pending;
    private long retryAt = Long.MIN_VALUE;
    /** Ids taken up from the store: a copy read again from the request topic must not replace their start time. */
    private final Set<String> takenUp = new HashSet<>();

    /**
     * @param takesUp    whether this task takes up the stored queries (the query spout's first task)
     * @param durationMs a stored query's duration under this topology's settings, {@link StoredQueries#INVALID}
     *                   when it is no longer a valid query
     */
    public QueryRecovery(QueryStore store, boolean takesUp, Clock clock, ToLongFunction<StoredQuery> durationMs) {
        this.store = store;
        this.pending = takesUp;
        this.clock = clock;
        this.durationMs = durationMs;
    }

    /**
     * The stored queries to take up, once: on the first call that could read the store; empty on every other call,
     * on tasks that do not take up, and while the store cannot be read.
     */
    public List<StoredQuery> takeUp() {
        if (!pending || clock.now() < retryAt) {
            return List.of();
        }
        List<StoredQuery> stored;
        try {
            stored = store.load();
        } catch (PubSubException e) {
            retryAt = clock.now() + RETRY_MS;
            LOG.warn("Cannot read the query store to take up the queries of the topology before; trying again in {} s:"
                     + " {}", RETRY_MS / 1000, e.getMessage());
            return List.of();
        }
        pending = false;
        StoredQueries.Split split = StoredQueries.split(stored, clock.now(), durationMs);
        for (StoredQuery q : split.ended()) {
            store.remove(q.id());
        }
        for (StoredQuery q : split.live()) {
            takenUp.add(q.id());
        }
        if (!stored.isEmpty()) {
            LOG.info("Taking up {} running queries from the query store ({} ended while no topology ran)",
                     split.live().size(), split.ended().size());
        }
        return split.live();
    }

    /** Whether stored queries are still to be taken up. */
    public boolean pending() {
        return pending;
    }

    /** A query the spout stamped; a query taken up from the store keeps its stored entry. */
    public void started(String id, String query, long startTime, int replyPartition) {
        if (!takenUp.contains(id)) {
            store.put(new StoredQuery(id, query, startTime, replyPartition));
        }
    }

    /** A KILL the spout read: the query ends without a final result. */
    public void killed(String id) {
        takenUp.remove(id);
        store.remove(id);
    }

    @Override
    public void close() {
        store.close();
    }
}

package dev.bullet.testing;

import dev.bullet.pubsub.PubSubException;
import dev.bullet.pubsub.QueryStore;
import dev.bullet.pubsub.StoredQueries;
import dev.bullet.pubsub.StoredQuery;

import java.util.ArrayList;
import java.util.List;

/**
 * A query store in memory for unit tests: keeps every write in order (a tombstone as a null value), as the store's
 * topic would, and loads through {@link StoredQueries} as the Kafka store does. {@link #failLoads} makes the next loads
 * throw as an unreachable Kafka would. Thread-safe.
 */
public final class MemoryQueryStore implements QueryStore {
    /** One write: a stored query, or a tombstone ({@code query} null). */
    public record Write(String id, StoredQuery query) {
        public boolean tombstone() {
            return query == null;
        }
    }

    private final List<Write> writes = new ArrayList<>();
    private int failLoads;
    private int loads;

    @Override
    public synchronized void put(StoredQuery query) {
        writes.add(new Write(query.id(), query));
    }

    @Override
    public synchronized void remove(String id) {
        writes.add(new Write(id, null));
    }

    @Override
    public synchronized List<StoredQuery> load() {
        loads++;
        if (failLoads > 0) {
            failLoads--;
            throw new PubSubException("Kafka away", null);
        }
        StoredQueries stored = new StoredQueries();
        for (Write w : writes) {
            stored.apply(w.id(), w.query() == null ? null : w.query().toValue());
        }
        return stored.live();
    }

    @Override
    public boolean available() {
        return true;
    }

    @Override
    public void close() {
    }

    /** The next {@code n} loads throw. */
    public synchronized void failLoads(int n) {
        failLoads = n;
    }

    public synchronized int loads() {
        return loads;
    }

    public synchronized List<Write> writes() {
        return List.copyOf(writes);
    }

    /** The ids that got a tombstone, in order. */
    public synchronized List<String> tombstones() {
        return writes.stream().filter(Write::tombstone).map(Write::id).toList();
    }
}

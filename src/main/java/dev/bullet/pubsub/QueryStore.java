package dev.bullet.pubsub;

import java.util.List;

/**
 * The running queries, kept where a new topology finds them (SPEC §7.1; the original Bullet's query store): the query
 * spout stores each query it stamps and writes a tombstone for each KILL, the Result bolt writes one once a query's
 * final result is confirmed; a newly submitted topology {@link #load() loads} the live entries and takes them up
 * again, and a restarted REST instance kills those that were its own. {@link KafkaQueryStore} keeps them in a
 * compacted topic next to the PubSub's.
 *
 * <p>Writes are asynchronous and never throw: a store that cannot be written logs and goes on (the queries run as
 * before, only they would not outlive a restart). Not thread-safe, except as an implementation says.
 */
public interface QueryStore extends AutoCloseable {
    /** No store ({@code bullet.topology.query.store.enable: false}): writes nothing, loads nothing. */
    QueryStore NONE = new QueryStore() {
        @Override
        public void put(StoredQuery query) {
        }

        @Override
        public void remove(String id) {
        }

        @Override
        public List<StoredQuery> load() {
            return List.of();
        }

        @Override
        public boolean available() {
            return false;
        }

        @Override
        public void close() {
        }
    };

    /** Stores a running query (replacing what was stored under its id). */
    void put(StoredQuery query);

    /** Writes a tombstone: the query ended. */
    void remove(String id);

    /**
     * The live entries, from the beginning of the store to its end as of this call; empty when the store is off or
     * its topic is missing.
     *
     * @throws PubSubException if Kafka cannot be read now (try again later)
     */
    List<StoredQuery> load();

    /**
     * Whether the store is there to use: false when it is off, its topic was found missing, or Kafka did not answer
     * the last check (then the next use checks again after a while).
     */
    boolean available();

    /** Sends what is pending (for a while) and closes the clients. */
    @Override
    void close();
}

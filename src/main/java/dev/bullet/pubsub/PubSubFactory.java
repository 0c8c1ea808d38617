package dev.bullet.pubsub;

import java.io.Serializable;

/**
 * How the topology reaches the query-processing side of the PubSub (SPEC §7.1): serializable, shipped with the
 * topology, asked for its clients in {@code open()} / {@code prepare()}.
 */
public interface PubSubFactory extends Serializable {
    /** Reads queries and KILL signals (query spout). */
    Subscriber requestSubscriber();

    /** Publishes results (result bolt). */
    Publisher responsePublisher();

    /**
     * The running queries' store (query spout, result bolt), reaching Kafka on its first use; {@link QueryStore#NONE}
     * when there is none.
     */
    default QueryStore queryStore() {
        return QueryStore.NONE;
    }
}

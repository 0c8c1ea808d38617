package dev.bullet.pubsub;

import java.io.Serializable;
import java.util.Optional;

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

    /**
     * The store of the Join's state (the Join bolt), or empty when the Join keeps none.
     *
     * @throws PubSubException when it should keep one and cannot: the store's topic is missing, or Kafka cannot be
     *                         reached (the message says which)
     */
    default Optional<KafkaStateStore> joinStateStore() {
        return Optional.empty();
    }
}

package dev.bullet.rest;

import dev.bullet.common.Clock;
import dev.bullet.pubsub.KafkaPubSub;
import dev.bullet.pubsub.KafkaPubSubConfig;
import dev.bullet.pubsub.KafkaQueryStore;
import dev.bullet.pubsub.PubSubException;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.QueryStore;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.StoredQuery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a REST instance does with the query store when it starts: the queries it ran before it restarted have no
 * client any more (the connections went with the process), so it sends the topology a KILL for each. An instance
 * knows its own queries by their reply partitions: a stored query whose results go to one of this instance's
 * response partitions ({@code bullet.rest.response.partitions}) was sent by it, since every instance reads its own
 * partitions and no other instance reads them. The topology ends each query and writes its tombstone.
 */
final class StaleQueries {
    private static final Logger LOG = LoggerFactory.getLogger(StaleQueries.class);

    private StaleQueries() {
    }

    /**
     * On start: creates the store's topic if it is missing (compacted), then kills this instance's stored queries.
     * Returns whether that is done (also when the store has no topic); false when Kafka could not be read now, and
     * the caller may try again.
     */
    static boolean killOnStart(KafkaPubSubConfig config, String topic, List<Integer> partitions, Publisher publisher) {
        try {
            KafkaQueryStore.createTopic(config, topic);
        } catch (PubSubException e) {
            LOG.debug("Cannot create the query store's topic {} (it may exist, or this client may not create topics)",
                      topic, e);
        }
        try (QueryStore store = new KafkaPubSub(config).queryStore(topic, Clock.SYSTEM)) {
            kill(store, partitions, publisher);
            return true;
        } catch (RuntimeException e) { // PubSubException, or a client that refused its properties: never stop the start
            LOG.warn("Cannot kill the queries this REST instance ran before it restarted (they end by their duration):"
                     + " {}", e.getMessage());
            return false;
        }
    }

    /**
     * Sends a KILL for every stored query whose reply partition is one of {@code partitions}; returns how many.
     *
     * @throws dev.bullet.pubsub.PubSubException if the store cannot be read or a KILL cannot be sent
     */
    static int kill(QueryStore store, List<Integer> partitions, Publisher publisher) {
        Set<Integer> own = new HashSet<>(partitions);
        int killed = 0;
        for (StoredQuery q : store.load()) {
            if (own.contains(q.replyPartition())) {
                publisher.send(PubSubMessage.signal(q.id(), Signal.KILL, q.replyPartition()));
                killed++;
            }
        }
        if (killed > 0) {
            LOG.info("Killed {} queries this REST instance (response partitions {}) ran before it restarted: their"
                     + " clients are gone", killed, partitions);
        }
        return killed;
    }
}

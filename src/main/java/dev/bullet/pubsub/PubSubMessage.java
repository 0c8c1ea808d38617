package dev.bullet.pubsub;

import java.io.Serializable;

/**
 * One PubSub message (SPEC §7.1): the query id, a payload (query JSON on the request side, result JSON on the
 * response side; may be empty for a bare signal), an optional signal, the response partition the owning REST
 * instance reads (so results are routed back to it; -1 when not set), and for a result the {@link Delivery} that
 * names it (null elsewhere).
 */
public record PubSubMessage(String id, String payload, Signal signal, int replyPartition, Delivery delivery)
    implements Serializable {
    public PubSubMessage(String id, String payload, Signal signal, int replyPartition) {
        this(id, payload, signal, replyPartition, null);
    }

    public static PubSubMessage query(String id, String queryJson, int replyPartition) {
        return new PubSubMessage(id, queryJson, null, replyPartition);
    }

    public static PubSubMessage signal(String id, Signal signal, int replyPartition) {
        return new PubSubMessage(id, "", signal, replyPartition);
    }

    public boolean hasSignal() {
        return signal != null;
    }

    /** This message named by {@code delivery}. */
    public PubSubMessage withDelivery(Delivery delivery) {
        return new PubSubMessage(id, payload, signal, replyPartition, delivery);
    }

    /**
     * What names one result on the response topic: an id unique to the result (a retried send carries the same
     * one, so a reader can drop a second copy), and, for a result sent in several chunks because it is larger than
     * one Kafka message may be, this chunk's index in {@code [0, chunks)}.
     */
    public record Delivery(String id, int chunk, int chunks) implements Serializable {
        /** The most chunks one result may travel in. */
        public static final int MAX_CHUNKS = 1 << 16;

        public Delivery {
            if (id == null || id.isEmpty()) {
                throw new IllegalArgumentException("a delivery needs an id");
            }
            if (chunks < 1 || chunks > MAX_CHUNKS || chunk < 0 || chunk >= chunks) {
                throw new IllegalArgumentException("chunk " + chunk + " of " + chunks + " is not a chunk");
            }
        }

        /** A result sent whole, as one message. */
        public static Delivery whole(String id) {
            return new Delivery(id, 0, 1);
        }

        public boolean chunked() {
            return chunks > 1;
        }

        public boolean last() {
            return chunk == chunks - 1;
        }
    }
}

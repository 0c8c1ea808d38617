package dev.bullet.pubsub;

import java.io.Serializable;

/**
 * One PubSub message (SPEC §7.1): the query id, a payload (query JSON on the request side, result JSON on the
 * response side; may be empty for a bare signal), an optional signal, and the response partition the owning REST
 * instance reads (so results are routed back to it; -1 when not set).
 */
public record PubSubMessage(String id, String payload, Signal signal, int replyPartition) implements Serializable {
    public static PubSubMessage query(String id, String queryJson, int replyPartition) {
        return new PubSubMessage(id, queryJson, null, replyPartition);
    }

    public static PubSubMessage signal(String id, Signal signal, int replyPartition) {
        return new PubSubMessage(id, "", signal, replyPartition);
    }

    public boolean hasSignal() {
        return signal != null;
    }
}

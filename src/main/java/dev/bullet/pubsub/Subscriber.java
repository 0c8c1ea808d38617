package dev.bullet.pubsub;

import java.time.Duration;
import java.util.List;

/** Receives messages from one side of the PubSub. Not thread-safe: one reader thread. */
public interface Subscriber extends AutoCloseable {
    /** The messages available now, waiting at most {@code timeout} for the first; empty when none. */
    List<PubSubMessage> receive(Duration timeout);

    /** How many messages were skipped so far because they were not PubSub messages (each is logged). */
    long malformedMessages();

    @Override
    void close();
}

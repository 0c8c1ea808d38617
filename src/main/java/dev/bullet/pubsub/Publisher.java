package dev.bullet.pubsub;

/** Sends messages to one side of the PubSub. Implementations are not required to be thread-safe unless stated. */
public interface Publisher extends AutoCloseable {
    /** Sends a message; failures are reported as {@link PubSubException}. */
    void send(PubSubMessage message);

    @Override
    void close();
}

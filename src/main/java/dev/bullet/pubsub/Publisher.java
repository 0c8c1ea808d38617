package dev.bullet.pubsub;

/** Sends messages to one side of the PubSub. Implementations are not required to be thread-safe unless stated. */
public interface Publisher extends AutoCloseable {
    /** Sends a message; failures are reported as {@link PubSubException}. */
    void send(PubSubMessage message);

    /**
     * Waits until every message sent so far is delivered. A publisher whose {@link #send} is asynchronous reports
     * here, as a {@link PubSubException}, the deliveries that failed since the last flush. The default (for a
     * publisher that delivers within {@code send}) does nothing.
     */
    default void flush() {
    }

    @Override
    void close();
}

package dev.bullet.pubsub;

import java.util.function.Consumer;

/** Sends messages to one side of the PubSub. Implementations are not required to be thread-safe unless stated. */
public interface Publisher extends AutoCloseable {
    /** Sends a message; failures are reported as {@link PubSubException}. */
    void send(PubSubMessage message);

    /**
     * Sends a message and tells {@code done} once how it went: null when it is delivered, else the failure (a
     * {@link PubSubException}, or the client's own exception). {@code done} may run on the client's thread, so it
     * should only record the outcome. The default delivers within {@link #send(PubSubMessage)}.
     */
    default void send(PubSubMessage message, Consumer<Exception> done) {
        try {
            send(message);
        } catch (RuntimeException e) {
            done.accept(e);
            return;
        }
        done.accept(null);
    }

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

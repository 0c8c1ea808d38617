package dev.bullet.pubsub;

import dev.bullet.BulletException;

/** The PubSub could not be reached or refused a message. */
public class PubSubException extends BulletException {
    private static final long serialVersionUID = 1L;

    public PubSubException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.bullet.generator;

import dev.bullet.BulletException;

/** The generator's output failed: Kafka unreachable or rejecting sends, or a file not writable. Exit code 1. */
final class SinkException extends BulletException {
    private static final long serialVersionUID = 1L;

    SinkException(String message) {
        super(message);
    }

    SinkException(String message, Throwable cause) {
        super(message, cause);
    }
}

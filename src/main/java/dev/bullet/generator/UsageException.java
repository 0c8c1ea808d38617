package dev.bullet.generator;

import dev.bullet.BulletException;

/** A command line the generator cannot run: an unknown flag, a missing or bad value. Exit code 2. */
final class UsageException extends BulletException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}

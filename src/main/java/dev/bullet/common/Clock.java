package dev.bullet.common;

/** Milliseconds since the epoch. Logic takes a clock so tests can move time without sleeping. */
@FunctionalInterface
public interface Clock {
    long now();

    Clock SYSTEM = System::currentTimeMillis;
}

package dev.bullet.common;

import java.io.Serializable;

/**
 * Milliseconds since the epoch. Logic takes a clock so tests can move time without sleeping. Serializable, so that a
 * spout or bolt can take one in its constructor and ship it with the topology.
 */
@FunctionalInterface
public interface Clock extends Serializable {
    long now();

    Clock SYSTEM = System::currentTimeMillis;
}

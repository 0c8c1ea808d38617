package dev.bullet.testing;

import dev.bullet.common.Clock;

import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when the test says so. Thread-safe. */
public final class ManualClock implements Clock {
    private static final long serialVersionUID = 1L;

    private final AtomicLong now;

    public ManualClock(long startMs) {
        this.now = new AtomicLong(startMs);
    }

    @Override
    public long now() {
        return now.get();
    }

    /** Moves the clock forward by {@code ms} and returns the new time. */
    public long advance(long ms) {
        return now.addAndGet(ms);
    }
}

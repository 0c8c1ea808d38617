package dev.bullet.rest;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A query's place under the concurrent-query limits, taken before its body is read (a refused query costs no parse)
 * and given back exactly once: by {@link #abandon()} if no query came of it (bad body, client gone), or by
 * {@link #end()} once the query it was {@link #claim() claimed} for has ended. Thread-safe.
 */
final class Slot {
    private static final int HELD = 0;
    private static final int CLAIMED = 1;
    private static final int GIVEN_BACK = 2;

    private final Tenant tenant;
    private final Runnable giveBack;
    private final AtomicInteger state = new AtomicInteger(HELD);

    Slot(Tenant tenant, Runnable giveBack) {
        this.tenant = tenant;
        this.giveBack = giveBack;
    }

    Tenant tenant() {
        return tenant;
    }

    /** The slot now belongs to a running query; false if it was given back already. */
    boolean claim() {
        return state.compareAndSet(HELD, CLAIMED);
    }

    /** Gives the slot back if no query claimed it; does nothing otherwise. */
    void abandon() {
        if (state.compareAndSet(HELD, GIVEN_BACK)) {
            giveBack.run();
        }
    }

    /** The query that claimed the slot ended: gives it back. */
    void end() {
        if (state.compareAndSet(CLAIMED, GIVEN_BACK)) {
            giveBack.run();
        }
    }
}

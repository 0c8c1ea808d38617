package dev.bullet.rest;

import dev.bullet.common.Clock;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The quotas of each tenant when authentication is on: at most {@code bullet.rest.tenant.max.concurrent.queries}
 * running at once and {@code bullet.rest.tenant.max.queries.per.minute} submitted per minute ({@link RateLimiter}).
 * One tenant over its quotas is refused without touching the others' (each has its own lock). Thread-safe.
 */
final class TenantQuotas {
    static final String CONCURRENT_SETTING = "bullet.rest.tenant.max.concurrent.queries";
    static final String RATE_SETTING = "bullet.rest.tenant.max.queries.per.minute";

    /** A refusal: which quota, the message, and when to retry (whole seconds, at least 1). */
    record Refusal(String setting, String message, long retryAfterSeconds) {
    }

    private final int maxConcurrent;
    private final int perMinute;
    private final Clock clock;
    private final Map<String, State> tenants = new ConcurrentHashMap<>();

    TenantQuotas(int maxConcurrent, int perMinute, Clock clock) {
        this.maxConcurrent = maxConcurrent;
        this.perMinute = perMinute;
        this.clock = clock;
    }

    /** Takes a running slot and a rate token for the tenant: null when both were free, else why not (nothing taken). */
    Refusal acquire(String tenant) {
        State state = tenants.computeIfAbsent(tenant, t -> new State(new RateLimiter(perMinute, clock.now())));
        synchronized (state) {
            if (state.running >= maxConcurrent) {
                return new Refusal(CONCURRENT_SETTING, "Tenant " + tenant + " runs " + state.running + " queries through "
                                   + "this REST instance already, its limit (" + CONCURRENT_SETTING + " = "
                                   + maxConcurrent + ")", 1);
            }
            long waitMs = state.rate.tryAcquire(clock.now());
            if (waitMs > 0) {
                return new Refusal(RATE_SETTING, "Tenant " + tenant + " submitted " + perMinute + " queries within the "
                                   + "last minute, its limit (" + RATE_SETTING + " = " + perMinute + ")",
                                   (waitMs + 999) / 1000);
            }
            state.running++;
            return null;
        }
    }

    /** Gives back a running slot taken by {@link #acquire}. */
    void release(String tenant) {
        State state = tenants.get(tenant);
        if (state != null) {
            synchronized (state) {
                state.running = Math.max(0, state.running - 1);
            }
        }
    }

    /** How many queries the tenant runs now (for tests). */
    int running(String tenant) {
        State state = tenants.get(tenant);
        if (state == null) {
            return 0;
        }
        synchronized (state) {
            return state.running;
        }
    }

    private static final class State {
        private final RateLimiter rate;
        private int running;

        State(RateLimiter rate) {
            this.rate = rate;
        }
    }
}

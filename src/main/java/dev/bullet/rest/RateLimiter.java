package dev.bullet.rest;

/**
 * A token bucket: holds at most {@code perMinute} tokens, refilled evenly at {@code perMinute} a minute, each query
 * taking one. So a tenant may send a burst of its whole minute's quota, and then one query every
 * {@code 60 000 / perMinute} ms. Times come from the caller (a {@link dev.bullet.common.Clock}); not thread-safe.
 */
final class RateLimiter {
    private static final double MINUTE_MS = 60_000.0;

    private final double capacity;
    private final double perMs;
    private double tokens;
    private long last;

    RateLimiter(int perMinute, long now) {
        this.capacity = perMinute;
        this.perMs = perMinute / MINUTE_MS;
        this.tokens = perMinute;
        this.last = now;
    }

    /** Takes a token: 0 if there was one, else how many ms until there is one (at least 1). */
    long tryAcquire(long now) {
        refill(now);
        if (tokens >= 1.0) {
            tokens -= 1.0;
            return 0;
        }
        return Math.max(1, (long) Math.ceil((1.0 - tokens) / perMs));
    }

    /** Whether the bucket is full (nothing to remember about its tenant). */
    boolean full(long now) {
        refill(now);
        return tokens >= capacity;
    }

    private void refill(long now) {
        if (now > last) {
            tokens = Math.min(capacity, tokens + (now - last) * perMs);
            last = now;
        }
    }
}

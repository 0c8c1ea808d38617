package dev.bullet.generator;

import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * When the generator may send record {@code i}: at {@code start + i / rate}, the schedule of a load
 * generator that does not hide coordinated omission. A late sender is never given a new start; it sends
 * the overdue records at once and its lag (how late each record went out) is reported, so a stall shows
 * up in the numbers instead of silently lowering the rate.
 *
 * <p>Time comes from an injected nanosecond clock and the waiting from an injected parker, so tests run
 * it on a fake clock. Not thread-safe.
 */
final class FixedRateSchedule {
    private final double nanosPerRecord;
    private final LongSupplier nanoClock;
    private final LongConsumer parkNanos;
    private long startNanos;

    /** @param ratePerSecond records per second, or 0 for no schedule (every record is due at once) */
    FixedRateSchedule(double ratePerSecond, LongSupplier nanoClock, LongConsumer parkNanos) {
        this.nanosPerRecord = ratePerSecond > 0 ? 1e9 / ratePerSecond : 0;
        this.nanoClock = nanoClock;
        this.parkNanos = parkNanos;
    }

    void start() {
        startNanos = nanoClock.getAsLong();
    }

    long startNanos() {
        return startNanos;
    }

    /** The clock reading at which record {@code index} is due. */
    long dueNanos(long index) {
        return startNanos + (long) (index * nanosPerRecord);
    }

    /**
     * Waits until record {@code index} is due, but at most {@code maxWaitNanos} (so a caller can check for a
     * stop request while a slow schedule waits). Returns how late the record is now, in nanoseconds (0 when
     * on time; always 0 without a schedule), or a negative number, minus the time still to wait, if it is not
     * due yet.
     */
    long awaitDue(long index, long maxWaitNanos) {
        if (nanosPerRecord == 0) {
            return 0;
        }
        long due = dueNanos(index);
        long wait = due - nanoClock.getAsLong();
        if (wait > 0) {
            parkNanos.accept(Math.min(wait, maxWaitNanos));
            wait = due - nanoClock.getAsLong();
        }
        return -wait;
    }

    /** Elapsed nanoseconds since {@link #start()}. */
    long elapsedNanos() {
        return nanoClock.getAsLong() - startNanos;
    }
}

package dev.bullet.storm;

/**
 * How long a DataSource spout's short batch waits to fill ({@code KafkaBatchReader#next(long)}). The pending bound
 * ({@code topology.max.spout.pending}) counts batches: when acks are slow (the Join acks a batch once its snapshot
 * holding it is in Kafka, a snapshot interval and a Kafka round trip later, and a whole snapshot's batches at once),
 * a spout that emits every small poll fills the bound with small batches and caps the rate at their count. With half
 * of the bound or more in flight, a short batch therefore waits for more, but only as long as keeps about half the
 * bound in flight at the measured ack latency: the latency over half the bound (14 ms at 0.7 s and 100 pending), at
 * most {@value #MAX_MS} ms. Below half the bound, or without one, batches go out at once. Not thread-safe.
 */
final class SpoutLinger {
    /** The longest a short batch waits. */
    static final long MAX_MS = 50;
    /** The weight of a new ack latency in the running average. */
    private static final double WEIGHT = 0.05;

    private final long maxPending;
    /** The running average of the time from emit to ack, ms; NaN before the first ack. */
    private double ackLatencyMs = Double.NaN;

    /** For {@code topology.max.spout.pending} {@code maxPending} (0: none). */
    SpoutLinger(long maxPending) {
        this.maxPending = maxPending;
    }

    /** A batch emitted at {@code emittedMs} was acked at {@code nowMs}. */
    void acked(long emittedMs, long nowMs) {
        long latency = Math.max(0, nowMs - emittedMs);
        ackLatencyMs = Double.isNaN(ackLatencyMs) ? latency : ackLatencyMs + WEIGHT * (latency - ackLatencyMs);
    }

    /** How long a short batch may wait to fill with {@code inFlight} batches unacked. */
    long lingerMs(long inFlight) {
        if (maxPending <= 0 || 2 * inFlight < maxPending) {
            return 0;
        }
        if (Double.isNaN(ackLatencyMs)) {
            return MAX_MS; // half the bound in flight and none acked yet: acks are slow
        }
        return Math.max(1, Math.min(MAX_MS, Math.round(2 * ackLatencyMs / maxPending)));
    }

    /** The running average of the ack latency, ms (NaN before the first ack). */
    double ackLatencyMs() {
        return ackLatencyMs;
    }
}

package dev.bullet.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Storm settings Bullet chooses for its topology, on a cluster and in local mode alike: how idle executors wait.
 * Storm's own defaults ({@code WaitStrategyProgressive}: 1 ms sleeps after a burst of 1 µs parks) cost every idle
 * executor thread 10–15 % of a core, over a core for an idle local stack; parking a few milliseconds costs almost
 * nothing and adds at most that much to a tuple's first hop after a quiet spell (measured in docs/PERFORMANCE.md).
 *
 * <p>These are defaults: a {@code topology.*} key in the settings file passes through to Storm and wins. Storm lets a
 * component override only a few keys (not the park times), so the values are per kind of executor.
 */
public final class StormDefaults {
    public static final String SPOUT_WAIT_STRATEGY = "topology.spout.wait.strategy";
    public static final String SPOUT_WAIT_PARK_MICROS = "topology.spout.wait.park.microsec";
    public static final String BOLT_WAIT_STRATEGY = "topology.bolt.wait.strategy";
    public static final String BOLT_WAIT_PARK_MICROS = "topology.bolt.wait.park.microsec";
    /** Storm's wait strategy that parks its thread for a fixed time. */
    public static final String PARK = "org.apache.storm.policy.WaitStrategyPark";
    /** Storm's park, cut short when a Bullet spout or bolt of the same worker hands a tuple on. */
    public static final String WAKEABLE_PARK = "dev.bullet.storm.WakeablePark";
    /**
     * The bolts' park in a topology of one worker (local mode): every tuple a bolt gets then comes from a Bullet
     * spout or bolt of the same JVM and wakes it, so the park only paces Storm's own housekeeping.
     */
    public static final long ONE_WORKER_BOLT_PARK_MICROS = 100_000L;

    private static final Map<String, Entry> ENTRIES = new LinkedHashMap<>();

    static {
        add(SPOUT_WAIT_STRATEGY, PARK, "How a spout waits when it emitted nothing (Storm's default spins, then "
                + "sleeps 1 ms: 10-15 % of a core per idle spout).");
        add(SPOUT_WAIT_PARK_MICROS, 10_000L, "Park time of an idle spout, microseconds: the tick spout's accuracy and "
                + "the most a spout at its max pending waits to see an ack. The Kafka spouts wait in their poll instead.");
        add(BOLT_WAIT_STRATEGY, WAKEABLE_PARK, "How a bolt waits when its queue is empty (also Storm's ackers): "
                + "parks, and a tuple from a Bullet spout or bolt of the same worker wakes it at once.");
        add(BOLT_WAIT_PARK_MICROS, 10_000L, "Park time of an idle bolt, microseconds: the most a tuple from another "
                + "worker waits at a bolt that was idle; busy bolts do not park. With one worker (local mode) Bullet "
                + "parks 100 ms unless this is set.");
    }

    private StormDefaults() {
    }

    private record Entry(Object value, String doc) {
    }

    private static void add(String key, Object value, String doc) {
        ENTRIES.put(key, new Entry(value, doc));
    }

    /** The keys and their values, in a fixed order. */
    public static Map<String, Object> values() {
        Map<String, Object> values = new LinkedHashMap<>();
        ENTRIES.forEach((key, entry) -> values.put(key, entry.value()));
        return values;
    }

    /** What a key does, for the documented settings file. */
    static String doc(String key) {
        return ENTRIES.get(key).doc();
    }
}

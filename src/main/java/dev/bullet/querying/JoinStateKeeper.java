package dev.bullet.querying;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * Keeps the state of a Join task's queries where the task that takes them over after a restart can read it: a
 * compacted log keyed by query id ({@link Log}; a Kafka topic), and holds the acks of the partials merged into that
 * state until the log confirmed a snapshot that includes them.
 *
 * <p>On each {@link #snapshot} (on the Join's tick, at most every {@code intervalMs}, and not while the previous one
 * is unconfirmed: the pace adapts to what Kafka takes) the queries whose state changed
 * since their last snapshot are written ({@link JoinSnapshot}), and the ended ones get a tombstone; that is one
 * <em>generation</em>, which takes the tuples {@link #hold held} since the previous one. The log's callback only
 * records the outcome; {@link #poll}, on the owner's thread, acts on them: a generation whose writes were all
 * confirmed, and every one before it, has its tuples acked. When a write fails, the tuples of its generation and of
 * every later one already cut are failed (the spout sends their batches again, and the Join drops what it merged
 * already), and the query is written again with the next generation. A snapshot larger than a message may be is not
 * written: a tombstone stands for it (a restart then takes the query up without its state, its results flagged
 * incomplete as without a snapshot), and the tuples are acked once that is confirmed. Not thread-safe, except that
 * the log's callbacks may run on any thread.
 *
 * @param <T> what the owner holds (the bolt's tuples)
 */
public final class JoinStateKeeper<T> {
    /** A compacted log of snapshots by query id. */
    public interface Log {
        /** Sends {@code value} (null: a tombstone) under {@code key}; {@code outcome} gets null once it is confirmed. */
        void write(String key, byte[] value, Consumer<Exception> outcome);
    }

    /** What the owner does with what it held. */
    public interface Settle<T> {
        void ack(T held);

        void fail(T held);
    }

    /** How long the snapshots read at the task's start stay available to {@link #take} (they are for its restart). */
    static final long RESTORABLE_MS = 120_000;
    /** The changes count of a query whose last write failed: no querier has it, so the query is written again. */
    private static final long REWRITE = -1;

    private record Outcome(long generation, String key, Exception failure) {
    }

    private static final class Generation<T> {
        final long number;
        final List<T> held = new ArrayList<>();
        int outstanding;
        boolean failed;

        Generation(long number) {
            this.number = number;
        }
    }

    private final Log log;
    private final int maxValueBytes;
    private final long intervalMs;
    /** Query id → the changes count of its last snapshot sent ({@link JoinQuerier#changes()}). */
    private final Map<String, Long> written = new HashMap<>();
    /** Ids whose tombstone must be sent (again). */
    private final Set<String> tombstones = new HashSet<>();
    /** Ids whose snapshot was too large, warned once. */
    private final Set<String> tooLarge = new HashSet<>();
    private final Queue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final ArrayDeque<Generation<T>> cut = new ArrayDeque<>();
    private final Map<Long, Generation<T>> byNumber = new HashMap<>();
    private Generation<T> open = new Generation<>(0);
    private long nextDue = Long.MIN_VALUE;
    private Map<String, byte[]> restorable = new HashMap<>();
    private long forgetAt = Long.MAX_VALUE;
    private long snapshots;
    private long bytes;
    private long failures;
    private Exception lastFailure;

    /**
     * @param maxValueBytes the largest snapshot one message of the log may carry
     * @param intervalMs    the least time between two snapshots (a tick a tenth early still takes one)
     */
    public JoinStateKeeper(Log log, int maxValueBytes, long intervalMs) {
        this.log = log;
        this.maxValueBytes = maxValueBytes;
        this.intervalMs = Math.max(0, intervalMs);
    }

    /** The snapshots this task may take its queries up from, read at its start ({@code now}). */
    public void loaded(Map<String, byte[]> snapshots, long now) {
        this.restorable = new HashMap<>(snapshots);
        this.forgetAt = now + RESTORABLE_MS;
    }

    /** The snapshot read at the start for query {@code id} (once), or null. */
    public byte[] take(String id) {
        return restorable.remove(id);
    }

    /** Holds {@code tuple} until a snapshot taken after now is confirmed. */
    public void hold(T tuple) {
        open.held.add(tuple);
    }

    /**
     * Takes a snapshot of what changed in {@code engine}, if one is due at {@code now}, and settles what can be.
     * Returns whether it took one.
     */
    public boolean snapshot(JoinEngine engine, long now, Settle<T> settle) {
        if (now < nextDue || !cut.isEmpty()) {
            return false; // one snapshot in flight at a time: the next one waits for Kafka, and holds all that changed
        }
        nextDue = now + intervalMs - intervalMs / 10;
        if (now >= forgetAt) {
            restorable = new HashMap<>();
            forgetAt = Long.MAX_VALUE;
        }
        Generation<T> g = open;
        open = new Generation<>(g.number + 1);
        cut.addLast(g);
        byNumber.put(g.number, g);
        for (Iterator<Map.Entry<String, Long>> it = written.entrySet().iterator(); it.hasNext(); ) {
            String id = it.next().getKey();
            if (engine.querier(id) == null) { // ended since its last snapshot
                tombstones.add(id);
                it.remove();
            }
        }
        for (String id : tombstones) {
            send(g, id, null);
        }
        tombstones.clear();
        for (String id : engine.ids()) {
            JoinQuerier querier = engine.querier(id);
            Long last = written.get(id);
            if (last != null && last == querier.changes()) {
                continue;
            }
            byte[] snapshot = JoinSnapshot.of(querier);
            written.put(id, querier.changes());
            if (snapshot.length > maxValueBytes) {
                tooLarge.add(id);
                send(g, id, null);
            } else {
                snapshots++;
                bytes += snapshot.length;
                send(g, id, snapshot);
            }
        }
        settle(settle);
        return true;
    }

    private void send(Generation<T> g, String id, byte[] value) {
        g.outstanding++;
        long number = g.number;
        try {
            log.write(id, value, failure -> outcomes.add(new Outcome(number, id, failure)));
        } catch (RuntimeException e) { // a log that throws instead of reporting
            outcomes.add(new Outcome(number, id, e));
        }
    }

    /** Acts on the outcomes recorded since the last call: acks or fails what was held. */
    public void poll(Settle<T> settle) {
        Outcome o;
        while ((o = outcomes.poll()) != null) {
            Generation<T> g = byNumber.get(o.generation());
            if (g != null) {
                g.outstanding--;
            }
            if (o.failure() != null) {
                failures++;
                lastFailure = o.failure();
                if (g != null) {
                    g.failed = true;
                }
                if (written.containsKey(o.key())) {
                    written.put(o.key(), REWRITE);
                } else {
                    tombstones.add(o.key()); // a tombstone, or the snapshot of a query that ended since
                }
            }
        }
        settle(settle);
    }

    private void settle(Settle<T> settle) {
        while (!cut.isEmpty() && cut.peekFirst().outstanding <= 0) {
            Generation<T> g = cut.pollFirst();
            byNumber.remove(g.number);
            if (!g.failed) {
                g.held.forEach(settle::ack);
                continue;
            }
            // its state may be missing from the log: what later generations hold may rest on it
            g.held.forEach(settle::fail);
            for (Generation<T> later : cut) {
                later.held.forEach(settle::fail);
                later.held.clear();
            }
        }
    }

    /** The ids whose snapshot was too large for a message (their restart is flagged incomplete), since the start. */
    public Set<String> tooLarge() {
        return tooLarge;
    }

    /** Snapshots sent, their bytes, and failed writes, since the start. */
    public long snapshots() {
        return snapshots;
    }

    public long bytes() {
        return bytes;
    }

    public long failures() {
        return failures;
    }

    /** The last write's failure, or null. */
    public Exception lastFailure() {
        return lastFailure;
    }

    /** Tuples held: in generations not confirmed yet, and since the last snapshot. */
    public int held() {
        int n = open.held.size();
        for (Generation<T> g : cut) {
            n += g.held.size();
        }
        return n;
    }
}

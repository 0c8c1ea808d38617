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
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * Keeps the state of a Join task's queries where the task that takes them over after a restart can read it: a
 * compacted log keyed by query id ({@link Log}; a Kafka topic), and holds the acks of the partials merged into that
 * state until the log confirmed a snapshot that includes them.
 *
 * <p>On each {@link #snapshot} (at most every {@code intervalMs}, and not while the previous one is unconfirmed: the
 * pace adapts to what Kafka takes) the queries whose state changed since their last snapshot are written
 * ({@link JoinSnapshot}: a delta under the key {@code id + DELTA_KEY + n} while the query's aggregation only grew by
 * RAW rows, else a new base under the key {@code id}), and the ended ones get tombstones; that is one
 * <em>generation</em>, which takes the tuples {@link #hold held} since the previous one. Results are held too
 * ({@link #holdResult}) and released once a generation that holds the state after them is confirmed, so a restarted
 * task never emits a window again: a generation of only the queries with results waiting is cut as soon as nothing
 * is in flight, without waiting for the interval. The log's callback only
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

        /** Sends a result held until the state after it was confirmed. */
        default void release(JoinEngine.Emitted result) {
        }
    }

    /** Between a query id and the place of a delta in the key of the delta. */
    public static final String DELTA_KEY = "\u0000d";
    /** The most deltas after a base: then a new base replaces them. */
    static final int MAX_DELTAS = 64;
    /** The bytes of partials a delta may carry for any state, however small. */
    static final int MIN_PARTIALS_BYTES = 4096;

    /** How long the snapshots read at the task's start stay available to {@link #take} (they are for its restart). */
    static final long RESTORABLE_MS = 120_000;
    private record Outcome(long generation, String id, String key, boolean value, Exception failure) {
    }

    /** What was written of one query: its base, the deltas after it, and what they hold. */
    private static final class Written {
        /** The querier's changes count when it was last written. */
        long changes;
        /** Whether the next write must be a base (none yet, or a write failed). */
        boolean rewrite = true;
        long baseId;
        int seq;
        /** The highest place of a delta ever written (or read at the start) under this id: tombstoned at the end. */
        int maxSeq;
        long aggregationVersion;
        int rows;
    }

    private static final class Generation<T> {
        final long number;
        /** When it was cut (sent to the log). */
        final long cutAt;
        List<T> held = new ArrayList<>();
        List<JoinEngine.Emitted> results = new ArrayList<>();
        int outstanding;
        boolean failed;

        Generation(long number, long cutAt) {
            this.number = number;
            this.cutAt = cutAt;
        }
    }

    private final Log log;
    private final int maxValueBytes;
    private final long intervalMs;
    /** Query id → what was written of it. */
    private final Map<String, Written> written = new HashMap<>();
    private final SplittableRandom baseIds = new SplittableRandom();
    /** Keys whose tombstone must be sent (again). */
    private final Set<String> tombstones = new HashSet<>();
    /** Ids whose snapshot was too large, warned once. */
    private final Set<String> tooLarge = new HashSet<>();
    private final Queue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final ArrayDeque<Generation<T>> cut = new ArrayDeque<>();
    private final Map<Long, Generation<T>> byNumber = new HashMap<>();
    private Generation<T> open = new Generation<>(-1, Long.MIN_VALUE);
    private long nextNumber;
    /** The generation in which the log refused a write at once, and why (see {@link #send}). */
    private volatile long refusedIn = -1;
    private volatile Exception refused;
    private long nextDue = Long.MIN_VALUE;
    private Map<String, byte[]> restorable = new HashMap<>();
    /** The deltas read at the start, by query id and place. */
    private Map<String, Map<Integer, byte[]>> restorableDeltas = new HashMap<>();
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

    /** The snapshots (bases and deltas, by key) this task may take its queries up from, read at its start. */
    public void loaded(Map<String, byte[]> snapshots, long now) {
        this.restorable = new HashMap<>();
        this.restorableDeltas = new HashMap<>();
        for (Map.Entry<String, byte[]> e : snapshots.entrySet()) {
            String id = queryId(e.getKey());
            int seq = deltaSeq(e.getKey());
            if (seq > 0) {
                restorableDeltas.computeIfAbsent(id, k -> new HashMap<>()).put(seq, e.getValue());
            } else {
                restorable.put(id, e.getValue());
            }
        }
        this.forgetAt = now + RESTORABLE_MS;
    }

    /** The query id of a key of the log: a base's key is the id, a delta's the id and its place. */
    public static String queryId(String key) {
        int at = key.lastIndexOf(DELTA_KEY);
        return at >= 0 && deltaSeq(key) > 0 ? key.substring(0, at) : key;
    }

    private static int deltaSeq(String key) {
        int at = key.lastIndexOf(DELTA_KEY);
        if (at < 0) {
            return 0;
        }
        try {
            return Integer.parseInt(key.substring(at + DELTA_KEY.length()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static String deltaKey(String id, int seq) {
        return id + DELTA_KEY + seq;
    }

    /**
     * The state read at the start for query {@code id} (once; its base and the deltas that follow it, see
     * {@link JoinSnapshot#assemble}), or null. The deltas read are deleted once the query ends here; so are all places
     * of deltas of a query taken up without a state.
     */
    public byte[] take(String id) {
        byte[] base = restorable.remove(id);
        Map<Integer, byte[]> deltas = restorableDeltas.remove(id);
        boolean first = !written.containsKey(id);
        Written w = written.computeIfAbsent(id, k -> new Written());
        if (deltas != null) {
            w.maxSeq = Math.max(w.maxSeq, deltas.keySet().stream().mapToInt(Integer::intValue).max().orElse(0));
        }
        if (base == null && first) {
            // taken up without a state read here (none, forgotten, or another task's): an earlier task may have left
            // deltas under any place, so the end tombstones them all
            w.maxSeq = MAX_DELTAS;
        }
        return base == null ? null : JoinSnapshot.assemble(base, deltas == null ? Map.of() : deltas);
    }

    /** Holds {@code result} until a snapshot taken after now is confirmed: then it is {@link Settle#release released}. */
    public void holdResult(JoinEngine.Emitted result) {
        open.results.add(result);
    }

    /** Holds {@code tuple} until a snapshot taken after now is confirmed. */
    public void hold(T tuple) {
        open.held.add(tuple);
    }

    /**
     * Takes a snapshot of what changed in {@code engine}, if one is due at {@code now}, or of the queries with results
     * held, if any, and settles what can be. Returns whether it took one.
     */
    public boolean snapshot(JoinEngine engine, long now, Settle<T> settle) {
        if (!cut.isEmpty()) {
            return false; // one snapshot in flight at a time: the next one waits for Kafka, and holds all that changed
        }
        boolean due = now >= nextDue;
        if (!due && open.results.isEmpty()) {
            return false;
        }
        if (now >= forgetAt) {
            restorable = new HashMap<>();
            restorableDeltas = new HashMap<>();
            forgetAt = Long.MAX_VALUE;
        }
        Generation<T> g = new Generation<>(nextNumber++, now);
        g.results = open.results;
        open.results = new ArrayList<>();
        cut.addLast(g);
        byNumber.put(g.number, g);
        if (due) {
            nextDue = now + intervalMs - intervalMs / 10;
            g.held = open.held;
            open.held = new ArrayList<>();
            for (Iterator<Map.Entry<String, Written>> it = written.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<String, Written> e = it.next();
                if (engine.querier(e.getKey()) == null) { // ended since its last snapshot
                    bury(e.getKey(), e.getValue());
                    it.remove();
                }
            }
            for (String key : tombstones) {
                send(g, queryId(key), key, null);
            }
            tombstones.clear();
            for (String id : engine.ids()) {
                write(g, id, engine.querier(id));
            }
        } else {
            Set<String> ids = new HashSet<>();
            for (JoinEngine.Emitted r : g.results) {
                ids.add(r.id());
            }
            for (String id : ids) {
                JoinQuerier querier = engine.querier(id);
                Written w = written.get(id);
                if (querier != null) {
                    write(g, id, querier);
                } else if (w != null) {
                    written.remove(id);
                    bury(id, w);
                    for (String key : tombstones) {
                        send(g, queryId(key), key, null);
                    }
                    tombstones.clear();
                }
            }
        }
        settle(settle);
        return true;
    }

    /** Marks every key of an ended query for a tombstone. */
    private void bury(String id, Written w) {
        tombstones.add(id);
        for (int seq = 1; seq <= w.maxSeq; seq++) {
            tombstones.add(deltaKey(id, seq));
        }
    }

    /** Writes what changed of one query since its last write: a delta when it can, else a base. */
    private void write(Generation<T> g, String id, JoinQuerier querier) {
        Written w = written.computeIfAbsent(id, k -> new Written());
        if (!w.rewrite && w.changes == querier.changes()) {
            return;
        }
        int rows = querier.appendableRows();
        w.changes = querier.changes();
        if (!w.rewrite && w.aggregationVersion == querier.aggregationVersion() && w.seq < MAX_DELTAS && rows >= w.rows) {
            byte[] delta = JoinSnapshot.delta(querier, w.baseId, w.seq + 1, rows < 0 ? -1 : w.rows);
            if (delta.length <= maxValueBytes) {
                w.seq++;
                w.maxSeq = Math.max(w.maxSeq, w.seq);
                w.rows = rows;
                querier.snapshotTaken();
                count(delta);
                send(g, id, deltaKey(id, w.seq), delta);
                return;
            }
        }
        w.baseId = baseIds.nextLong() | 1; // never 0 ({@link JoinSnapshot#baseId} of anything else)
        w.seq = 0;
        w.rows = rows;
        w.aggregationVersion = querier.aggregationVersion();
        byte[] base = JoinSnapshot.base(querier, w.baseId);
        if (base.length > maxValueBytes) {
            tooLarge.add(id);
            w.rewrite = true; // no delta without its base
            send(g, id, id, null);
        } else {
            w.rewrite = false;
            querier.snapshotTaken();
            // a later change is written as the partials merged while they take less than the state itself
            querier.keepPartials(Math.max(MIN_PARTIALS_BYTES, base.length));
            count(base);
            send(g, id, id, base);
        }
    }

    private void count(byte[] snapshot) {
        snapshots++;
        bytes += snapshot.length;
    }

    private void send(Generation<T> g, String id, String key, byte[] value) {
        g.outstanding++;
        long number = g.number;
        boolean isValue = value != null;
        if (refusedIn == number) {
            // the log refused a write of this generation at once (its buffer full, no metadata): each further one
            // would wait as long for the same answer, holding the executor; they fail and are written with the next
            outcomes.add(new Outcome(number, id, key, isValue, refused));
            return;
        }
        Thread caller = Thread.currentThread();
        try {
            log.write(key, value, failure -> {
                if (failure != null && Thread.currentThread() == caller && refusedIn != number) {
                    refusedIn = number;
                    refused = failure;
                }
                outcomes.add(new Outcome(number, id, key, isValue, failure));
            });
        } catch (RuntimeException e) { // a log that throws instead of reporting
            refusedIn = number;
            refused = e;
            outcomes.add(new Outcome(number, id, key, isValue, e));
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
                Written w = written.get(o.id());
                if (w != null) {
                    w.rewrite = true; // a base next: a delta may be missing, or the base a tombstone replaced
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
                g.results.forEach(settle::release);
                continue;
            }
            // its state may be missing from the log: what later generations hold may rest on it; the results wait
            // for the next generation, which writes their queries again
            g.held.forEach(settle::fail);
            List<JoinEngine.Emitted> waiting = new ArrayList<>(g.results);
            for (Generation<T> later : cut) {
                later.held.forEach(settle::fail);
                later.held.clear();
                waiting.addAll(later.results);
                later.results.clear();
            }
            waiting.addAll(open.results);
            open.results = waiting;
        }
    }

    /**
     * How long the oldest snapshot in flight has waited for the log's confirmation at {@code now} (0: none in flight).
     * What it holds (acks, results) waits as long.
     */
    public long unconfirmedForMs(long now) {
        Generation<T> oldest = cut.peekFirst();
        return oldest == null ? 0 : Math.max(0, now - oldest.cutAt);
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

    /** Results held: in generations not confirmed yet, and since the last snapshot. */
    public int heldResults() {
        int n = open.results.size();
        for (Generation<T> g : cut) {
            n += g.results.size();
        }
        return n;
    }

    /** Snapshots cut and not confirmed yet (at most one is written at a time). */
    public int unconfirmed() {
        return cut.size();
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

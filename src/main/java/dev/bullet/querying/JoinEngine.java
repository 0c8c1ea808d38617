package dev.bullet.querying;

import dev.bullet.query.BoundErrors;
import dev.bullet.query.MemoryBounds;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one Join task does (SPEC §3.5), without Storm: owns the queries hashed to it, validates them again
 * (an invalid one is answered at once with an error result), merges partials, and produces window and final
 * results. Every final result means "tell the Filter tasks to drop the query". Under {@link MemoryBounds}: a query
 * past this task's share of {@code bullet.query.max.running} is answered with an error result; one that holds more
 * than {@code bullet.query.max.bytes} ends early ({@link JoinQuerier}); and what each query holds is reported to the
 * worker's {@link WorkerMemory}, whose largest queries this task ends when they are its own. Not thread-safe.
 */
public final class JoinEngine {
    /** A result to publish to the query's owner. */
    public record Emitted(String id, int replyPartition, Result result) {
    }

    private static final class Owned {
        final JoinQuerier querier;
        final int replyPartition;
        final String json;
        /** The bytes last reported to the worker's {@link WorkerMemory}. */
        long reported;
        /** When a new topology took the query up again from the query store (-1: it did not). */
        long resumedAt = -1;
        /** Whether it was taken up with the state a Join task of the old topology saved. */
        boolean resumedFromState;

        Owned(JoinQuerier querier, int replyPartition, String json) {
            this.querier = querier;
            this.replyPartition = replyPartition;
            this.json = json;
        }

        JoinQuerier querier() {
            return querier;
        }

        int replyPartition() {
            return replyPartition;
        }

        String json() {
            return json;
        }
    }

    private final QuerySettings settings;
    private final QueryParser parser;
    private final int partitions;
    private final long finalGraceMs;
    private final Map<String, Owned> queries = new HashMap<>();
    /**
     * How many ended queries this task remembers: a Filter task hands back (restores) the queries it still holds when
     * this task says hello, and one it holds may have ended here a moment ago (its COMPLETE or KILL still on the way
     * to the Filter); such a query must not come back to life. A Join task says hello only in its first seconds,
     * so the last ids suffice.
     */
    static final int ENDED_REMEMBERED = 16_384;
    private final Map<String, Boolean> ended = new LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > ENDED_REMEMBERED;
        }
    };
    private long created;
    private long improper;
    private long rateExceeded;
    private long overQueryBytes;
    private long overWorkerBytes;
    private long refused;
    private long restoredExactly;
    private long restoreFailures;
    private long resumedLate;
    private RuntimeException lastRestoreFailure;
    private final MemoryBounds bounds;
    /** What the spouts read and what is in flight: final results wait for it, at most {@link #readWaitMs}. */
    private ReadProgress reads = ReadProgress.NONE;
    private long readWaitMs;
    /** This task's share of {@code bullet.query.max.running}. */
    private final int maxRunningHere;
    private final WorkerMemory memory;

    public JoinEngine(QuerySettings settings, int partitions, long finalGraceMs) {
        this(settings, partitions, finalGraceMs, MemoryBounds.NONE, 1, WorkerMemory.unbounded());
    }

    /**
     * @param bounds    the bounds on what queries hold and how many run
     * @param joinTasks how many Join tasks share {@code bounds.running()} (each runs its share, rounded up)
     * @param memory    what the queries of this worker hold, shared by its Join tasks
     */
    public JoinEngine(QuerySettings settings, int partitions, long finalGraceMs, MemoryBounds bounds, int joinTasks,
                      WorkerMemory memory) {
        this.settings = settings;
        this.parser = new QueryParser(settings);
        this.partitions = partitions;
        this.finalGraceMs = finalGraceMs;
        this.bounds = bounds;
        this.maxRunningHere = bounds.runningPerTask(joinTasks);
        this.memory = memory;
    }

    /** Takes ownership of a query; returns the error result to send when it is invalid, else null. */
    public Emitted add(String id, String queryJson, long startTime, int replyPartition) {
        if (queries.containsKey(id)) {
            return null;
        }
        QueryParser.Result parsed = parser.parse(queryJson);
        if (!parsed.isValid()) {
            improper++;
            return new Emitted(id, replyPartition, Result.errors(parsed.errors()));
        }
        if (queries.size() >= maxRunningHere) {
            // refused before it holds anything; its error result makes the Filter tasks drop it (COMPLETE)
            refused++;
            ended.put(id, Boolean.TRUE);
            return new Emitted(id, replyPartition, Result.errors(List.of(BoundErrors.tooManyRunning(bounds.running()))));
        }
        created++;
        JoinQuerier querier = newQuerier(id, parsed, startTime);
        queries.put(id, new Owned(querier, replyPartition, queryJson));
        return null;
    }

    /**
     * Takes up again a query this task owned before it restarted (a Filter task still holds it): it runs to its end
     * as before, but the partials merged before the restart are lost, so its results say which windows may be
     * incomplete. Returns whether the query was new here (known, lately ended or invalid ones are ignored).
     */
    public boolean restore(String id, String queryJson, long startTime, int replyPartition, long now) {
        return restore(id, queryJson, startTime, replyPartition, now, null);
    }

    /**
     * As above, with the query's state as the task that died last saved it ({@link JoinSnapshot}, null for none): the
     * query goes on exactly, its results whole. A snapshot that cannot be taken up counts as none.
     */
    public boolean restore(String id, String queryJson, long startTime, int replyPartition, long now, byte[] snapshot) {
        if (queries.containsKey(id) || ended.containsKey(id)) {
            return false;
        }
        QueryParser.Result parsed = parser.parse(queryJson);
        if (!parsed.isValid()) {
            return false;
        }
        JoinQuerier querier = newQuerier(id, parsed, startTime);
        if (snapshot == null || !restoreState(querier, snapshot)) {
            querier = newQuerier(id, parsed, startTime);
            querier.markRestored(now);
        }
        queries.put(id, new Owned(querier, replyPartition, queryJson));
        return true;
    }

    /**
     * Takes up a query that a topology killed before this one ran (the query spout replays it from the query store,
     * with its original start time, at {@code now}): as {@link #add}, and its results carry {@code meta.restarted}
     * ({@link TopologyRestart}). A query this task holds or ended lately is ignored (a replay comes once).
     */
    public Emitted resume(String id, String queryJson, long startTime, int replyPartition, long now) {
        return resume(id, queryJson, startTime, replyPartition, now, null);
    }

    /**
     * As above, with the query's state as a Join task of the topology before saved it ({@link JoinSnapshot}, null for
     * none): the query goes on from where that task was, exactly (the records it merged counted once, those it had
     * not merged read again). A snapshot that cannot be taken up counts as none.
     */
    public Emitted resume(String id, String queryJson, long startTime, int replyPartition, long now, byte[] snapshot) {
        return resume(id, queryJson, startTime, replyPartition, now, snapshot, false);
    }

    /**
     * As above; {@code late}: the query comes after the Filter tasks began to take record batches without it (this
     * task stopped waiting for the query spout's replay, {@link StoreReplayWait}), so the records read in between are
     * missed: its results say the window open now (and every later one of an additive window) may be incomplete.
     */
    public Emitted resume(String id, String queryJson, long startTime, int replyPartition, long now, byte[] snapshot,
                          boolean late) {
        if (queries.containsKey(id) || ended.containsKey(id)) {
            return null;
        }
        Emitted error = add(id, queryJson, startTime, replyPartition);
        Owned owned = queries.get(id);
        if (owned != null) {
            owned.resumedAt = now;
            owned.resumedFromState = snapshot != null && restoreState(owned.querier(), snapshot);
            if (late) {
                owned.querier().markRestored(now);
                resumedLate++;
            }
        }
        return error;
    }

    /** Queries taken up from the query store after the records began to flow without them (their results say so). */
    public long resumedLate() {
        return resumedLate;
    }

    private static Emitted emitted(String id, Owned owned, Result r) {
        return new Emitted(id, owned.replyPartition(), owned.resumedAt < 0 ? r : TopologyRestart.mark(r, owned.resumedAt,
                                                                                          owned.resumedFromState));
    }

    private boolean restoreState(JoinQuerier querier, byte[] snapshot) {
        try {
            JoinSnapshot.restore(querier, snapshot);
            restoredExactly++;
            return true;
        } catch (RuntimeException e) {
            restoreFailures++;
            lastRestoreFailure = e;
            return false;
        }
    }

    /** Queries taken up again with their saved state, and those whose saved state could not be taken up. */
    public long restoredExactly() {
        return restoredExactly;
    }

    public long restoreFailures() {
        return restoreFailures;
    }

    /** Why the last saved state could not be taken up (null: none failed). */
    public RuntimeException lastRestoreFailure() {
        return lastRestoreFailure;
    }

    /** The querier of a query this task owns, or null. */
    public JoinQuerier querier(String id) {
        Owned owned = queries.get(id);
        return owned == null ? null : owned.querier();
    }

    private JoinQuerier newQuerier(String id, QueryParser.Result parsed, long startTime) {
        return new JoinQuerier(id, parsed.query(), startTime, settings, partitions, finalGraceMs, bounds.queryBytes());
    }

    /** The queries this task owns, as they were sent (to hand them to a restarted Filter task). */
    public List<RunningQuery> running() {
        List<RunningQuery> out = new ArrayList<>(queries.size());
        for (Map.Entry<String, Owned> e : queries.entrySet()) {
            Owned o = e.getValue();
            out.add(new RunningQuery(e.getKey(), o.json(), o.querier().startTime(), o.replyPartition()));
        }
        return out;
    }

    public void combine(String id, byte[] partial, boolean last, long now, List<Emitted> out) {
        combine(id, partial, last, -1, now, out);
    }

    /**
     * Merges a partial of Filter task {@code task}; a task's "last" counts once however often it is sent (a
     * restarted task that gets an ended query again sends its last again).
     */
    public void combine(String id, byte[] partial, boolean last, int task, long now, List<Emitted> out) {
        combine(id, partial, last, task, new long[0], false, now, out);
    }

    /**
     * As above, for a partial that covers the record batches {@code batchKeys} (triples: source, first offset, last
     * offset); a {@code retry} partial covers one batch, or one record, read or sent again after a failure, and is
     * dropped when it was merged already (nothing counted twice, see {@link MergedBatches}).
     */
    public void combine(String id, byte[] partial, boolean last, int task, long[] batchKeys, boolean retry, long now,
                        List<Emitted> out) {
        combine(id, (Object) partial, last, task, batchKeys, retry, now, out);
    }

    /** As above, for a partial as a tuple carries it: a {@link RawPartial}, a {@code byte[]}, or null. */
    public void combine(String id, Object partial, boolean last, int task, long[] batchKeys, boolean retry, long now,
                        List<Emitted> out) {
        Owned owned = queries.get(id);
        if (owned == null) {
            return;
        }
        Object data = owned.querier().mergedBefore(batchKeys, retry) ? null : partial;
        collect(id, owned, owned.querier().combine(data, last, task, now), out);
        if (data != null && memory.isOver()) {
            memory.pickLargest();
        }
        endPicked(now, out);
    }

    /**
     * Makes final results wait until every record batch read before a query's end was merged, at most
     * {@code readWaitMs} after the end (see {@link JoinQuerier#tick(long, ReadProgress, long)}).
     */
    public void awaitReads(ReadProgress progress, long readWaitMs) {
        this.reads = progress;
        this.readWaitMs = readWaitMs;
    }

    public void tick(long now, List<Emitted> out) {
        for (Iterator<Map.Entry<String, Owned>> it = queries.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Owned> e = it.next();
            Owned owned = e.getValue();
            for (Result r : owned.querier().tick(now, reads, readWaitMs)) {
                out.add(emitted(e.getKey(), owned, r));
            }
            if (owned.querier().isDone()) {
                countIfRateLimited(owned);
                it.remove();
                ended.put(e.getKey(), Boolean.TRUE);
                memory.remove(e.getKey());
            } else {
                report(e.getKey(), owned);
            }
        }
        if (memory.isOver()) {
            memory.pickLargest();
        }
        endPicked(now, out);
    }

    /** Tells the worker's {@link WorkerMemory} what a query holds now, when that changed. */
    private void report(String id, Owned owned) {
        long bytes = owned.querier().heldBytes();
        if (bytes != owned.reported) {
            owned.reported = bytes;
            memory.report(id, bytes);
        }
    }

    /**
     * Ends the queries of this task picked to end for {@code bullet.query.max.worker.bytes} (the largest of the
     * worker's), each with the data it kept and the error.
     */
    private void endPicked(long now, List<Emitted> out) {
        if (!memory.hasPicked()) {
            return;
        }
        for (String id : memory.picked()) {
            Owned owned = queries.get(id);
            long held = owned == null ? -1 : memory.claim(id);
            if (held < 0) {
                continue; // another task's, or already ended
            }
            out.add(emitted(id, owned, owned.querier().endEarly(BoundErrors.overWorkerBytes(memory.limit(), held), now)));
            overWorkerBytes++;
            queries.remove(id);
            ended.put(id, Boolean.TRUE);
            memory.remove(id);
        }
    }

    /** Drops a query without a result (its owner asked for the KILL); returns whether it was known. */
    public boolean kill(String id) {
        ended.put(id, Boolean.TRUE);
        memory.remove(id);
        return queries.remove(id) != null;
    }

    private void collect(String id, Owned owned, List<Result> results, List<Emitted> out) {
        for (Result r : results) {
            out.add(emitted(id, owned, r));
        }
        if (owned.querier().isDone()) {
            countIfRateLimited(owned);
            if (owned.querier().wasOverBytes()) {
                overQueryBytes++;
            }
            queries.remove(id);
            ended.put(id, Boolean.TRUE);
            memory.remove(id);
        } else {
            report(id, owned);
        }
    }

    private void countIfRateLimited(Owned owned) {
        if (owned.querier().wasRateLimited()) {
            rateExceeded++;
        }
    }

    /** Whether this task runs the query or ended it lately. */
    public boolean knows(String id) {
        return queries.containsKey(id) || ended.containsKey(id);
    }

    public int size() {
        return queries.size();
    }

    public long createdQueries() {
        return created;
    }

    public long improperQueries() {
        return improper;
    }

    public long rateExceededQueries() {
        return rateExceeded;
    }

    /** Queries ended for holding more than {@code bullet.query.max.bytes}. */
    public long overQueryBytesQueries() {
        return overQueryBytes;
    }

    /** Queries ended, the largest of the worker's, for {@code bullet.query.max.worker.bytes}. */
    public long overWorkerBytesQueries() {
        return overWorkerBytes;
    }

    /** Queries refused for {@code bullet.query.max.running}. */
    public long refusedQueries() {
        return refused;
    }

    /** Ids currently owned (for tests and metrics). */
    public List<String> ids() {
        return new ArrayList<>(queries.keySet());
    }
}

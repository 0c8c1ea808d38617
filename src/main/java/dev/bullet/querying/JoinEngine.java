package dev.bullet.querying;

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
 * results. Every final result means "tell the Filter tasks to drop the query". Not thread-safe.
 */
public final class JoinEngine {
    /** A result to publish to the query's owner. */
    public record Emitted(String id, int replyPartition, Result result) {
    }

    private record Owned(JoinQuerier querier, int replyPartition, String json) {
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

    public JoinEngine(QuerySettings settings, int partitions, long finalGraceMs) {
        this.settings = settings;
        this.parser = new QueryParser(settings);
        this.partitions = partitions;
        this.finalGraceMs = finalGraceMs;
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
        created++;
        JoinQuerier querier = new JoinQuerier(id, parsed.query(), startTime, settings, partitions, finalGraceMs);
        queries.put(id, new Owned(querier, replyPartition, queryJson));
        return null;
    }

    /**
     * Takes up again a query this task owned before it restarted (a Filter task still holds it): it runs to its end
     * as before, but the partials merged before the restart are lost, so its results say which windows may be
     * incomplete. Returns whether the query was new here (known, lately ended or invalid ones are ignored).
     */
    public boolean restore(String id, String queryJson, long startTime, int replyPartition, long now) {
        if (queries.containsKey(id) || ended.containsKey(id)) {
            return false;
        }
        QueryParser.Result parsed = parser.parse(queryJson);
        if (!parsed.isValid()) {
            return false;
        }
        JoinQuerier querier = new JoinQuerier(id, parsed.query(), startTime, settings, partitions, finalGraceMs);
        querier.markRestored(now);
        queries.put(id, new Owned(querier, replyPartition, queryJson));
        return true;
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
     * As above, for a partial that covers the record batches {@code batchKeys}; a {@code retry} partial covers one
     * batch sent again after a failure, and is dropped when that batch was merged already (nothing counted twice).
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
    }

    public void tick(long now, List<Emitted> out) {
        for (Iterator<Map.Entry<String, Owned>> it = queries.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Owned> e = it.next();
            Owned owned = e.getValue();
            for (Result r : owned.querier().tick(now)) {
                out.add(new Emitted(e.getKey(), owned.replyPartition(), r));
            }
            if (owned.querier().isDone()) {
                countIfRateLimited(owned);
                it.remove();
                ended.put(e.getKey(), Boolean.TRUE);
            }
        }
    }

    /** Drops a query without a result (its owner asked for the KILL); returns whether it was known. */
    public boolean kill(String id) {
        ended.put(id, Boolean.TRUE);
        return queries.remove(id) != null;
    }

    private void collect(String id, Owned owned, List<Result> results, List<Emitted> out) {
        for (Result r : results) {
            out.add(new Emitted(id, owned.replyPartition(), r));
        }
        if (owned.querier().isDone()) {
            countIfRateLimited(owned);
            queries.remove(id);
            ended.put(id, Boolean.TRUE);
        }
    }

    private void countIfRateLimited(Owned owned) {
        if (owned.querier().wasRateLimited()) {
            rateExceeded++;
        }
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

    /** Ids currently owned (for tests and metrics). */
    public List<String> ids() {
        return new ArrayList<>(queries.keySet());
    }
}

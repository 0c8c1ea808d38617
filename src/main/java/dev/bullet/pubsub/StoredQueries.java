package dev.bullet.pubsub;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The live entries of the query store ({@link QueryStore}), read from its topic's beginning to its end: the last
 * value of each id wins, a tombstone (null value) removes the id, and a value that is not a {@link StoredQuery} is
 * counted and skipped (it removes the id too: whatever was stored before it is no longer what the writer meant).
 * Kafka's compaction keeps the last value of each key, so the topic reads back the same way before and after it.
 * Not thread-safe.
 */
public final class StoredQueries {
    /**
     * What a new topology does with the stored queries: {@code live} ones are taken up again, {@code ended} ones
     * (their duration is over, or they are no longer valid queries) get a tombstone.
     */
    public record Split(List<StoredQuery> live, List<StoredQuery> ended) {
    }

    /** What {@link #split} reads as "not a valid query": a duration function's answer for such a query. */
    public static final long INVALID = -1;

    private final Map<String, StoredQuery> live = new LinkedHashMap<>();
    private long malformed;

    /** Applies one record of the topic, in offset order within its partition. */
    public void apply(String id, byte[] value) {
        if (id == null) {
            malformed++;
            return;
        }
        if (value == null) {
            live.remove(id);
            return;
        }
        try {
            live.put(id, StoredQuery.fromValue(id, value));
        } catch (IllegalArgumentException e) {
            malformed++;
            live.remove(id);
        }
    }

    /** The live entries, in the order their ids were first written. */
    public List<StoredQuery> live() {
        return List.copyOf(live.values());
    }

    /** Values skipped because they were not stored queries (or had no key). */
    public long malformed() {
        return malformed;
    }

    /**
     * Splits stored queries into those still running at {@code now} (start time + duration after it) and those that
     * ended. A query's duration counts from its stored start time, as in the topology that stamped it.
     *
     * @param durationMs a query's duration in ms ({@code Long.MAX_VALUE} for none), {@link #INVALID} for a query
     *                   that is not valid (anymore)
     */
    public static Split split(Collection<StoredQuery> stored, long now, ToLongFunction<StoredQuery> durationMs) {
        List<StoredQuery> running = new ArrayList<>();
        List<StoredQuery> ended = new ArrayList<>();
        for (StoredQuery q : stored) {
            long duration = durationMs.applyAsLong(q);
            if (duration < 0) {
                ended.add(q);
                continue;
            }
            long end = q.startTime() > Long.MAX_VALUE - duration ? Long.MAX_VALUE : q.startTime() + duration;
            (end > now ? running : ended).add(q);
        }
        return new Split(List.copyOf(running), List.copyOf(ended));
    }
}

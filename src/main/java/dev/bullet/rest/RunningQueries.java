package dev.bullet.rest;

import com.google.gson.JsonElement;
import dev.bullet.rest.QueryListener.Ending;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The registry of the queries (and health probes) running through this REST instance, by id: what the result reader
 * routes results to, what the concurrent-query limit counts, and which response partition each query's results come
 * back on. Thread-safe.
 */
final class RunningQueries {
    private static final Logger LOG = LoggerFactory.getLogger(RunningQueries.class);

    private final Map<String, Running> running = new ConcurrentHashMap<>();
    /**
     * Never later than the earliest deadline of the registered queries (earlier once that query has ended, until the
     * next sweep): {@link #overdue} sweeps only when a deadline may have come. The result reader asks after every
     * poll, and copying and walking thousands of running queries each time was ~1 % of P4's CPU through REST.
     */
    private final AtomicLong earliestDeadline = new AtomicLong(Long.MAX_VALUE);
    /** Client queries (not probes) registered; the concurrent-query limit applies to it. */
    private final AtomicInteger clientQueries = new AtomicInteger();
    private final AtomicInteger partitionCursor = new AtomicInteger();
    private final List<Integer> partitions;
    private final int maxClientQueries;

    RunningQueries(List<Integer> partitions, int maxClientQueries) {
        this.partitions = List.copyOf(partitions);
        this.maxClientQueries = maxClientQueries;
    }

    /** Takes a slot for a client query; false when {@code maxClientQueries} run already. */
    boolean reserveSlot() {
        while (true) {
            int n = clientQueries.get();
            if (n >= maxClientQueries) {
                return false;
            }
            if (clientQueries.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    /** Gives back a slot taken by {@link #reserveSlot()}. */
    void releaseSlot() {
        clientQueries.decrementAndGet();
    }

    /** The response partition for the next query: round robin over this instance's partitions. */
    int nextPartition() {
        return partitions.get(Math.floorMod(partitionCursor.getAndIncrement(), partitions.size()));
    }

    void add(Running r) {
        running.put(r.id, r);
        earliestDeadline.accumulateAndGet(r.deadline, Math::min); // after the put: a sweep under way cannot lose it
    }

    /**
     * The registered queries whose deadline has come ({@code deadline <= now}), probes included; none, without a
     * sweep, while no deadline can have come. The caller ends them.
     */
    List<Running> overdue(long now) {
        if (now < earliestDeadline.get()) {
            return List.of();
        }
        earliestDeadline.set(Long.MAX_VALUE); // before the sweep: a query added during it lowers it again itself
        List<Running> out = new ArrayList<>();
        for (Running r : running.values()) {
            if (r.deadline <= now) {
                out.add(r);
            }
            earliestDeadline.accumulateAndGet(r.deadline, Math::min); // overdue ones too, should one stay
        }
        return out;
    }

    Running get(String id) {
        return running.get(id);
    }

    /** Forgets a query that never started (its publish failed), giving back its slot; false if it had ended. */
    boolean withdraw(Running r) {
        if (!running.remove(r.id, r)) {
            return false;
        }
        if (r.slot != null) {
            r.slot.end();
        }
        return true;
    }

    /** Removes the query and ends its listener; false if it had ended already. */
    boolean finish(Running r, Ending ending, String json) {
        if (!withdraw(r)) {
            return false;
        }
        r.end(ending, json);
        return true;
    }

    /** Everything registered now, probes included (a copy). */
    List<Running> all() {
        return new ArrayList<>(running.values());
    }

    /** The client queries that are running (published), oldest first. */
    List<RunningQuery> list() {
        List<RunningQuery> out = new ArrayList<>();
        for (Running r : running.values()) {
            if (!r.probe && r.published) {
                out.add(new RunningQuery(r.id, r.query, r.startTime, r.tenant()));
            }
        }
        out.sort(Comparator.comparingLong(RunningQuery::startTime).thenComparing(RunningQuery::id));
        return out;
    }

    int clientCount() {
        return clientQueries.get();
    }

    /** A query (or health probe) waiting for its results. */
    static final class Running {
        final String id;
        final JsonElement query;
        final long startTime;
        final long deadline;
        final int partition;
        final boolean probe;
        /** The client query's place under the limits (null for a probe), given back when it ends. */
        final Slot slot;
        private final QueryListener listener;
        volatile boolean published;
        private boolean ended;

        Running(String id, JsonElement query, long startTime, long deadline, int partition, boolean probe,
                QueryListener listener) {
            this(id, query, startTime, deadline, partition, probe, null, listener);
        }

        /** A client query holding {@code slot} (claimed), or a probe ({@code slot} null). */
        Running(String id, JsonElement query, long startTime, long deadline, int partition, boolean probe, Slot slot,
                QueryListener listener) {
            this.id = id;
            this.slot = slot;
            this.query = query;
            this.startTime = startTime;
            this.deadline = deadline;
            this.partition = partition;
            this.probe = probe;
            this.listener = listener;
        }

        /** The owner's name ({@link Tenant#ANONYMOUS}'s for a query without a slot). */
        String tenant() {
            return slot == null ? Tenant.ANONYMOUS.name() : slot.tenant().name();
        }

        synchronized void result(String json) {
            if (ended) {
                return;
            }
            try {
                listener.onResult(json);
            } catch (RuntimeException e) {
                LOG.error("The listener of query {} failed on a result", id, e);
            }
        }

        synchronized void end(Ending ending, String json) {
            if (ended) {
                return;
            }
            ended = true;
            try {
                listener.onEnd(ending, json);
            } catch (RuntimeException e) {
                LOG.error("The listener of query {} failed at its end ({})", id, ending, e);
            }
        }
    }
}

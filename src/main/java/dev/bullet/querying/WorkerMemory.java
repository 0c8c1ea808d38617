package dev.bullet.querying;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the queries of one worker hold, against {@code bullet.query.max.worker.bytes}: every Join task of the worker
 * (one per executor thread) reports here the bytes each of its queries holds, when they change; once the total
 * crosses the bound, the largest queries are picked to end ({@link #largestFirst}) until the rest fit, and each is
 * ended by the task that owns it, at its next partial or tick. The worker and every other query go on.
 *
 * <p>One instance per topology in a JVM ({@link #of}): a worker runs one topology, and a LocalCluster runs every
 * worker of several topologies in one JVM. Thread-safe: reports are lock-free; picking is synchronized (rare, only
 * while over the bound).
 */
public final class WorkerMemory {
    private static final ConcurrentMap<String, WorkerMemory> BY_TOPOLOGY = new ConcurrentHashMap<>();

    private final long limit;
    private final ConcurrentMap<String, Long> held = new ConcurrentHashMap<>();
    private final AtomicLong total = new AtomicLong();
    /** Queries picked to end, with the bytes they held when picked; the owning task removes each as it ends it. */
    private final ConcurrentMap<String, Long> picked = new ConcurrentHashMap<>();

    public WorkerMemory(long limit) {
        this.limit = limit;
    }

    /** The instance shared by the Join tasks of topology {@code topologyId} in this JVM; the first call sets its bound. */
    public static WorkerMemory of(String topologyId, long limit) {
        return BY_TOPOLOGY.computeIfAbsent(topologyId, k -> new WorkerMemory(limit));
    }

    /** A worker without a bound. */
    public static WorkerMemory unbounded() {
        return new WorkerMemory(Long.MAX_VALUE);
    }

    public long limit() {
        return limit;
    }

    /** Sets what query {@code id} holds now. */
    public void report(String id, long bytes) {
        Long before = held.put(id, bytes);
        long change = bytes - (before == null ? 0 : before);
        if (change != 0) {
            total.addAndGet(change);
        }
    }

    /** Forgets a query that ended. */
    public void remove(String id) {
        Long before = held.remove(id);
        if (before != null) {
            total.addAndGet(-before);
        }
        picked.remove(id);
    }

    /** What the queries of the worker hold together. */
    public long total() {
        return total.get();
    }

    /** Whether the worker's queries hold more than the bound. */
    public boolean isOver() {
        return total.get() > limit;
    }

    /**
     * Picks the largest queries to end until the others fit under the bound (queries picked before and not ended yet
     * count as gone). Returns how many were picked now.
     */
    public synchronized int pickLargest() {
        long goingAway = 0;
        for (long bytes : picked.values()) {
            goingAway += bytes;
        }
        long excess = total.get() - goingAway - limit;
        if (excess <= 0) {
            return 0;
        }
        Map<String, Long> candidates = new ConcurrentHashMap<>(held);
        candidates.keySet().removeAll(picked.keySet());
        List<String> chosen = largestFirst(candidates, excess);
        for (String id : chosen) {
            picked.put(id, candidates.get(id));
        }
        return chosen.size();
    }

    /**
     * The policy: the largest queries first (ties by id, so it is deterministic), as few as free at least
     * {@code excess} bytes.
     */
    static List<String> largestFirst(Map<String, Long> sizes, long excess) {
        List<Map.Entry<String, Long>> bySize = new ArrayList<>(sizes.entrySet());
        bySize.sort(Comparator.comparing((Map.Entry<String, Long> e) -> e.getValue()).reversed()
                              .thenComparing(Map.Entry::getKey));
        List<String> chosen = new ArrayList<>();
        long freed = 0;
        for (Map.Entry<String, Long> e : bySize) {
            if (freed >= excess) {
                break;
            }
            chosen.add(e.getKey());
            freed += e.getValue();
        }
        return chosen;
    }

    /** Whether any query is picked to end and not ended yet. */
    public boolean hasPicked() {
        return !picked.isEmpty();
    }

    /** The queries picked to end, not ended yet (a snapshot). */
    public Set<String> picked() {
        return Set.copyOf(picked.keySet());
    }

    /**
     * Takes query {@code id} off the picked ones, for the task that owns it to end it; returns the bytes it held when
     * picked, or -1 when it is not picked.
     */
    public long claim(String id) {
        Long bytes = picked.remove(id);
        return bytes == null ? -1 : bytes;
    }
}

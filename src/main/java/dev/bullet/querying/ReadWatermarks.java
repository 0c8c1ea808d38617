package dev.bullet.querying;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * What the DataSource spout tasks read and what of it is still in flight, as the Join hears it, so that a query's
 * final result waits until every record batch read before the query's end was merged (or failed past its retries).
 * Each spout task reports, every few ticks: its instance (drawn when it opens), the time of the report, and the read
 * times of the batches it emitted and has not had acked yet ({@link #report}). A batch is acked only once the partials
 * covering it were merged, so a query that ended at {@code end} is settled when every spout task reported at or after
 * {@code end} with nothing read before {@code end} in flight.
 *
 * <p>A spout task that restarted (a new instance) lost its batches in flight: its new instance reads them again from
 * Kafka, with new read times. For a query that ended before the new instance started, they are lost: they are counted
 * in {@link #unsettled}. Not thread-safe.
 */
public final class ReadWatermarks implements ReadProgress {
    /** How many replaced instances are remembered per spout task. */
    private static final int LOST_KEPT = 8;
    private final int spoutTasks;
    private final Map<Integer, Report> latest = new HashMap<>();
    private final Map<Integer, ArrayDeque<Lost>> lost = new HashMap<>();

    /** The last report of a spout task's instance. */
    private record Report(long instance, long time, long[] pendingReadTimes) {
        long pendingBefore(long end) {
            int i = Arrays.binarySearch(pendingReadTimes, end);
            if (i < 0) {
                return -i - 1;
            }
            while (i > 0 && pendingReadTimes[i - 1] == end) {
                i--;
            }
            return i;
        }
    }

    /** Batches an instance had in flight when it was replaced, and when its successor first reported. */
    private record Lost(long replacedAt, Report last) {
    }

    /** @param spoutTasks how many DataSource spout tasks report */
    public ReadWatermarks(int spoutTasks) {
        this.spoutTasks = spoutTasks;
    }

    /**
     * A spout task's report.
     *
     * @param pendingReadTimes the read times of its batches in flight (any order; the array is kept, sorted)
     */
    public void report(int task, long instance, long time, long[] pendingReadTimes) {
        Arrays.sort(pendingReadTimes);
        Report now = new Report(instance, time, pendingReadTimes);
        Report before = latest.put(task, now);
        if (before != null && before.instance() != instance) {
            ArrayDeque<Lost> replaced = lost.computeIfAbsent(task, t -> new ArrayDeque<>());
            replaced.addLast(new Lost(time, before));
            if (replaced.size() > LOST_KEPT) {
                replaced.pollFirst();
            }
        } else if (before != null && before.time() > time) {
            latest.put(task, before); // an older report overtaken by a newer one: ignored
        }
    }

    @Override
    public boolean settled(long end) {
        if (latest.size() < spoutTasks) {
            return false;
        }
        for (Report r : latest.values()) {
            if (r.time() < end || r.pendingBefore(end) > 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public long unsettled(long start, long end) {
        long n = 0;
        for (Report r : latest.values()) {
            n += r.pendingBefore(end) - r.pendingBefore(start);
        }
        return n;
    }

    @Override
    public long lost(long start, long end) {
        long n = 0;
        for (ArrayDeque<Lost> replaced : lost.values()) {
            for (Lost l : replaced) {
                if (end <= l.replacedAt()) {
                    n += l.last().pendingBefore(end) - l.last().pendingBefore(start);
                }
            }
        }
        return n;
    }

    /**
     * What each spout task last reported, for a log line when a final result could not wait for every batch: per
     * task, its instance, the report's time, and the read times of its batches in flight (at most the first eight).
     */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        latest.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            Report r = e.getValue();
            long[] shown = Arrays.copyOf(r.pendingReadTimes(), Math.min(8, r.pendingReadTimes().length));
            sb.append(sb.isEmpty() ? "" : "; ").append("task ").append(e.getKey()).append(" instance ")
              .append(Long.toHexString(r.instance())).append(" at ").append(r.time()).append(" in flight ")
              .append(r.pendingReadTimes().length).append(' ').append(Arrays.toString(shown));
        });
        lost.forEach((task, replaced) -> sb.append("; task ").append(task).append(" replaced ").append(replaced.size())
                                           .append(" times, last at ").append(replaced.peekLast().replacedAt()));
        return sb.toString();
    }

    /** Forgets replaced instances older than {@code before} (no running query can have ended before them). */
    public void forgetBefore(long before) {
        for (Iterator<ArrayDeque<Lost>> it = lost.values().iterator(); it.hasNext(); ) {
            ArrayDeque<Lost> replaced = it.next();
            replaced.removeIf(l -> l.replacedAt() < before);
            if (replaced.isEmpty()) {
                it.remove();
            }
        }
    }
}

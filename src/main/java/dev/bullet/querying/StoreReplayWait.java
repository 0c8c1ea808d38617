package dev.bullet.querying;

/**
 * A (re)started Join task's wait for the query spout's replay of the query store. The query spout task that takes the
 * stored queries up reports, every {@value #REPORT_INTERVAL_MS} ms and right after its replay (behind the replayed
 * queries, on the same task pair, so they arrive first), its start ({@code instance}) and whether its replay is done.
 * A Join task that restarted alone hears "done" within a report interval: the queries come back from the Filter tasks.
 * One that restarted with the query spout (a rebalance, a redeploy) hears "under way" and waits for "done", so no
 * Filter task takes a record batch before the stored queries are back. Past {@code maxWaitMs} without "done" (the
 * query spout is down, the store cannot be read) it stops waiting: records flow, and a query taken up from the store
 * after that has missed some ({@link #gaveUp()}; its results say so). Not thread-safe: one task.
 */
public final class StoreReplayWait {
    /** How often the query spout reports; a Join task that restarted alone waits about this long. */
    public static final long REPORT_INTERVAL_MS = 1_000;
    /** The most a (re)started Join task waits for the replay; less than a Filter task's own wait ({@link ReplayWait}). */
    public static final long MAX_WAIT_MS = 40_000;

    private final long startedAt;
    private final long deadline;
    private boolean over;
    private boolean gaveUp;
    private long endedAt = -1;
    /** The instance of the last report that said the replay was under way (-1: none did). */
    private long replaying = -1;
    private long doneInstance = -1;

    public StoreReplayWait(long startedAt) {
        this(startedAt, MAX_WAIT_MS);
    }

    public StoreReplayWait(long startedAt, long maxWaitMs) {
        this.startedAt = startedAt;
        this.deadline = startedAt + maxWaitMs;
    }

    /**
     * A report of the query spout task that takes up the stored queries, started at {@code instance}. Returns whether
     * it ended the wait.
     */
    public boolean report(long instance, boolean replayDone, long now) {
        if (!replayDone) {
            replaying = instance;
            return false;
        }
        doneInstance = instance;
        if (over) {
            return false;
        }
        over = true;
        endedAt = now;
        return true;
    }

    /** Whether the task still waits at {@code now}; the first call past the deadline gives up. */
    public boolean waiting(long now) {
        if (!over && now >= deadline) {
            over = true;
            gaveUp = true;
            endedAt = now;
        }
        return !over;
    }

    /** Whether the wait ended at the deadline, without the replay being reported done. */
    public boolean gaveUp() {
        return gaveUp;
    }

    /** Whether a report said a replay was under way (the query spout restarted with this task, or later). */
    public boolean sawReplay() {
        return replaying >= 0;
    }

    /** The instance whose replay was reported done (-1: none). */
    public long doneInstance() {
        return doneInstance;
    }

    /** How long the wait lasted (-1 while it lasts). */
    public long waitedMs() {
        return endedAt < 0 ? -1 : endedAt - startedAt;
    }
}

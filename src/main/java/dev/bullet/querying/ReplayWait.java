package dev.bullet.querying;

import java.util.HashSet;
import java.util.Set;

/**
 * A (re)started Filter or decode task's wait for the running queries: it says hello to the Join tasks, again every
 * {@value #HELLO_INTERVAL_MS} ms (a reply can be lost while the workers reconnect), until every Join task ended its
 * replay, or {@value #MAX_WAIT_MS} ms passed (a Join task that never answers must not stall the records forever).
 * Not thread-safe: one task.
 */
public final class ReplayWait {
    public static final long HELLO_INTERVAL_MS = 1_000;
    public static final long MAX_WAIT_MS = 60_000;

    private final int joinTasks;
    private final Set<Integer> ended = new HashSet<>();
    private long firstHello = -1;
    private long lastHello;
    private boolean done;

    public ReplayWait(int joinTasks) {
        this.joinTasks = joinTasks;
        this.done = joinTasks == 0;
    }

    /** Whether to say hello now (the first call always does); notes that it is said. */
    public boolean helloDue(long now) {
        if (firstHello < 0) {
            firstHello = now;
            lastHello = now;
            return true;
        }
        if (!waiting() || now - lastHello < HELLO_INTERVAL_MS) {
            return false;
        }
        if (now - firstHello > MAX_WAIT_MS) {
            done = true;
            return false;
        }
        lastHello = now;
        return true;
    }

    /** Join task {@code task} replayed every query it owns. */
    public void ended(int task) {
        ended.add(task);
        if (ended.size() >= joinTasks) {
            done = true;
        }
    }

    /** Whether some Join task has not replayed its queries yet. */
    public boolean waiting() {
        return !done;
    }
}

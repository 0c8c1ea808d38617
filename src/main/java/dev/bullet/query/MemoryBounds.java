package dev.bullet.query;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;

import java.io.Serializable;

/**
 * The bounds on what running queries may hold (README "Bounds on what users send"), so that no query can take a
 * worker's memory: bytes per query ({@code bullet.query.max.bytes}), bytes of all the queries of a worker
 * ({@code bullet.query.max.worker.bytes}; 0 = a third of the worker's heap, resolved in the worker by
 * {@link #workerBytes(long)}), and queries running in the topology ({@code bullet.query.max.running}).
 * Immutable and serializable: one instance travels with the topology to every Filter and Join task.
 */
public record MemoryBounds(long queryBytes, long workerBytesSetting, int running) implements Serializable {
    /** The share of the heap the queries of a worker may hold when {@code bullet.query.max.worker.bytes} is 0. */
    public static final int HEAP_SHARE_DIVISOR = 3;

    /** No bound at all (offline runs, tests that are about something else). */
    public static final MemoryBounds NONE = new MemoryBounds(Long.MAX_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE);

    public static MemoryBounds from(BulletSettings s) {
        return new MemoryBounds(s.getLong(SettingsTable.QUERY_MAX_BYTES), s.getLong(SettingsTable.QUERY_MAX_WORKER_BYTES),
                                s.getInt(SettingsTable.QUERY_MAX_RUNNING));
    }

    /** The built-in defaults. */
    public static MemoryBounds defaults() {
        return from(BulletSettings.defaults());
    }

    /** The bound on the bytes all queries of a worker hold, for a worker whose heap can grow to {@code maxHeap}. */
    public long workerBytes(long maxHeap) {
        return workerBytesSetting > 0 ? workerBytesSetting : Math.max(1, maxHeap / HEAP_SHARE_DIVISOR);
    }

    /** The share of {@link #running()} one of {@code tasks} Join tasks runs: the setting split evenly, rounded up. */
    public int runningPerTask(int tasks) {
        int n = Math.max(1, tasks);
        return (int) Math.min(Integer.MAX_VALUE, ((long) running + n - 1) / n);
    }
}

package dev.bullet.query;

import dev.bullet.common.BulletError;
import dev.bullet.config.SettingsTable;

/**
 * The {@code meta.errors} entries of queries ended or refused by a bound on memory (SPEC §6.8, README "Bounds on what
 * users send"): each names its setting and what to do. Stateless.
 */
public final class BoundErrors {
    private BoundErrors() {
    }

    /** A query that held more than {@code bullet.query.max.bytes}. */
    public static BulletError overQueryBytes(long maxBytes) {
        return BulletError.of("The query was ended early: it held more than " + maxBytes + " bytes ("
                              + SettingsTable.QUERY_MAX_BYTES + "); this result has the data it kept until then",
                              "Narrow the filter, lower the size, use a smaller window, or raise "
                              + SettingsTable.QUERY_MAX_BYTES);
    }

    /** A query ended because the queries of its worker held more than {@code bullet.query.max.worker.bytes}. */
    public static BulletError overWorkerBytes(long maxBytes, long heldBytes) {
        return BulletError.of("The query was ended early: the queries of its worker held more than " + maxBytes
                              + " bytes together (" + SettingsTable.QUERY_MAX_WORKER_BYTES + ") and this query was"
                              + " among the largest, with " + heldBytes + " bytes; this result has the data it kept"
                              + " until then",
                              "Narrow the filter, lower the size or use a smaller window, or retry when fewer queries"
                              + " run; an operator can raise " + SettingsTable.QUERY_MAX_WORKER_BYTES
                              + " or the workers' heap");
    }

    /** A query refused because {@code bullet.query.max.running} queries already run. */
    public static BulletError tooManyRunning(int maxRunning) {
        return BulletError.of("The query was refused: the topology already runs the most queries it may ("
                              + maxRunning + ", " + SettingsTable.QUERY_MAX_RUNNING + ")",
                              "Retry when fewer queries run, or ask an operator to raise "
                              + SettingsTable.QUERY_MAX_RUNNING);
    }
}

package dev.bullet.rest;

/**
 * Receives the results of one query submitted through {@link QueryService}: zero or more window results, then
 * exactly one end. Calls for one query never overlap and never follow the end; they may come from different
 * threads (the service's reader thread, a request thread that kills the query). Implementations must not block:
 * they hand the JSON to the network and return.
 */
public interface QueryListener {
    /** How a query ended. */
    enum Ending {
        /** The topology sent the final result (which may be an error result, e.g. the topology rejected it). */
        COMPLETED,
        /** Killed through {@link QueryService#kill} (a DELETE, or its client went away). */
        KILLED,
        /** No final result within the query's duration plus the grace period: the topology did not answer. */
        TIMED_OUT,
        /** The service is shutting down. */
        SHUT_DOWN
    }

    /** A window's result (SPEC §6.8), as JSON on one line. */
    void onResult(String resultJson);

    /**
     * The end of the query. For {@link Ending#COMPLETED} the JSON is the final result; otherwise it is an error in
     * the result shape ({@code {"records": [], "meta": {"query_id": ..., "errors": [...]}}}).
     */
    void onEnd(Ending ending, String resultJson);
}

package dev.bullet.querying;

/**
 * A running query as the query spout first sent it: what a restarted Filter or Join task needs to take it up again
 * (the same start time, so every task still agrees on its windows and end).
 */
public record RunningQuery(String id, String json, long startTime, int replyPartition) {
}

package dev.bullet.ingest;

/**
 * How far a reader may hand records of a partition out, kept in the metadata of the consumer group's offset commit
 * so that the partition's next reader knows where the records a dead or revoked reader may have handed out end. A
 * reader hands out no record at or above its limit until a commit recording a higher one was confirmed; it asks for a
 * higher one when it comes within half the allowance of it. The next reader sends the records below the limit with
 * their offsets, and the Join drops those it merged already (their first batches may have had other boundaries).
 */
final class HandOutLimit {
    private static final String KEY = "bullet.handed.out.below=";

    private HandOutLimit() {
    }

    /**
     * How far ahead of its reading a reader asks the limit to be: 32 batches, so a commit every 16 batches at
     * most; at least 1,024 records.
     */
    static long allowance(int batchSize) {
        return Math.max(1024L, 32L * batchSize);
    }

    /** The commit metadata recording {@code limit}. */
    static String metadata(long limit) {
        return KEY + limit;
    }

    /** The limit a commit's metadata records, or -1 if it records none (another client, or an older version). */
    static long parse(String metadata) {
        if (metadata == null || !metadata.startsWith(KEY)) {
            return -1;
        }
        try {
            return Long.parseLong(metadata.substring(KEY.length()).trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}

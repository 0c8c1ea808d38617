package dev.bullet.querying;

/**
 * Whether the record batches read before a query's end were all merged at the Join: what a final result waits for
 * (see {@link ReadWatermarks}).
 */
public interface ReadProgress {
    /** For a source that tells nothing (a plug-in spout): every query is settled at once, as before. */
    ReadProgress NONE = new ReadProgress() {
        @Override
        public boolean settled(long end) {
            return true;
        }

        @Override
        public long unsettled(long start, long end) {
            return 0;
        }

        @Override
        public long lost(long start, long end) {
            return 0;
        }
    };

    /** Whether every batch read before {@code end} is known to be merged. */
    boolean settled(long end);

    /** How many batches read in {@code [start, end)} are known to be in flight still. */
    long unsettled(long start, long end);

    /**
     * How many batches read in {@code [start, end)} were lost to a spout task that restarted after {@code end}
     * (read again later, after the query's end).
     */
    long lost(long start, long end);
}

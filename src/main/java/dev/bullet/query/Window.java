package dev.bullet.query;

/**
 * A validated window (SPEC §6.6). {@code every} is in ms for time windows (already raised to the minimum) and in
 * records for record windows.
 */
public record Window(Kind kind, long every) {
    public enum Kind {
        /** emit TIME every T, include TIME first T: each result covers the last T ms. */
        TUMBLING("Tumbling"),
        /** emit TIME every T, include ALL: each result covers everything since the query started. */
        ADDITIVE_TUMBLING("Additive Tumbling"),
        /** emit RECORD every N: each result holds the next N matching records (RAW only). */
        SLIDING("Sliding");

        private final String displayName;

        Kind(String displayName) {
            this.displayName = displayName;
        }

        public String displayName() {
            return displayName;
        }
    }

    public boolean isTimeBased() {
        return kind != Kind.SLIDING;
    }
}

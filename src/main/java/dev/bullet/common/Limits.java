package dev.bullet.common;

import java.io.Serializable;

/**
 * The bounds on what users send (README "Bounds"), enforced the same way by the topology, the REST service
 * and the offline runner. A record over a bound is counted as malformed and skipped; a query over a bound is invalid
 * (400 / an error result) with every problem listed.
 *
 * @param queryDepth     deepest JSON nesting of a query (objects and lists; the query object itself is level 1)
 * @param queryClauses   most clauses (relational and logical, HAVING included) in one query
 * @param queryValues    most entries of {@code values} lists in one query, all clauses together
 * @param regexLength    longest RLIKE pattern, characters
 * @param recordDepth    deepest JSON nesting of a record (the record object itself is level 1)
 * @param recordBytes    largest record, bytes
 */
public record Limits(int queryDepth, int queryClauses, int queryValues, int regexLength, int recordDepth,
                     int recordBytes) implements Serializable {
    /** The bounds when nothing is configured: the defaults of their settings ({@code dev.bullet.config.SettingsTable}). */
    public static final Limits DEFAULTS = new Limits(64, 1000, 10_000, 1000, 128, 1_048_576);

    public static Limits defaults() {
        return DEFAULTS;
    }
}

package dev.bullet.common;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;

import java.io.Serializable;

/**
 * The bounds on what users send (issue 11, README "Bounds"), enforced the same way by the topology, the REST service
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

    public static Limits defaults() {
        return from(BulletSettings.defaults());
    }

    public static Limits from(BulletSettings s) {
        return new Limits(s.getInt(SettingsTable.QUERY_MAX_DEPTH), s.getInt(SettingsTable.QUERY_MAX_CLAUSES),
                          s.getInt(SettingsTable.QUERY_MAX_VALUES), s.getInt(SettingsTable.QUERY_MAX_REGEX_LENGTH),
                          s.getInt(SettingsTable.RECORD_MAX_DEPTH), s.getInt(SettingsTable.RECORD_MAX_BYTES));
    }
}

package dev.bullet.query;

import dev.bullet.record.FieldPath;

/**
 * A metric of a GROUP aggregation (SPEC §6.4): COUNT, SUM, MIN, MAX or AVG of a field, with its output name.
 *
 * @param coerce how SUM, MIN, MAX and AVG read values. False (the legacy JSON query's meaning, and the default):
 *               numbers only, other values are skipped, whole sums stay whole. True (JSON {@code "coerce": true},
 *               what BQL queries are translated with): as bullet-core 1.5.2 reads them, a boolean counts 1 or 0, a
 *               string is parsed as a number (skipped when it is not one), and the result is a double.
 */
public record GroupOperation(Type type, FieldPath field, String name, boolean coerce) {
    public enum Type { COUNT, SUM, MIN, MAX, AVG }

    /** An operation with the legacy reading of values (numbers only). */
    public GroupOperation(Type type, FieldPath field, String name) {
        this(type, field, name, false);
    }
}

package dev.bullet.query;

import dev.bullet.record.FieldPath;

/** A metric of a GROUP aggregation (SPEC §6.4): COUNT, SUM, MIN, MAX or AVG of a field, with its output name. */
public record GroupOperation(Type type, FieldPath field, String name) {
    public enum Type { COUNT, SUM, MIN, MAX, AVG }
}

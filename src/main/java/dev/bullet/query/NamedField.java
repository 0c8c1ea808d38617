package dev.bullet.query;

import dev.bullet.record.FieldPath;

/** A record path and the name it is given in the output (projection, group-by and sketch fields). */
public record NamedField(FieldPath path, String name) {
    public static NamedField of(String path, String name) {
        return new NamedField(FieldPath.of(path), name);
    }
}

package dev.bullet.query;

import dev.bullet.record.FieldPath;

/**
 * One entry of a clause's {@code values} (SPEC §6.2): a literal ({@code kind VALUE}, cast to the field's type
 * unless {@code type} is given), another field of the same record ({@code kind FIELD}), or JSON {@code null}.
 */
public record FilterValue(Kind kind, String value, ValueType type, FieldPath field) {
    public enum Kind { VALUE, FIELD }

    public static FilterValue literal(String value, ValueType type) {
        return new FilterValue(Kind.VALUE, value, type, null);
    }

    public static FilterValue field(String path, ValueType type) {
        return new FilterValue(Kind.FIELD, path, type, FieldPath.of(path));
    }

    public boolean isNull() {
        return kind == Kind.VALUE && value == null;
    }
}

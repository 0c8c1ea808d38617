package dev.bullet.query;

import dev.bullet.record.RecordDecoder;

/** The types a filter value or computation operand may be cast to. */
public enum ValueType {
    STRING, BOOLEAN, INTEGER, LONG, FLOAT, DOUBLE;

    /** Parses a type name case-insensitively, or {@code null}. */
    public static ValueType fromJson(String text) {
        for (ValueType t : values()) {
            if (t.name().equalsIgnoreCase(text.trim())) {
                return t;
            }
        }
        return null;
    }

    /** Casts a literal to this type: {@code Long}, {@code Double}, {@code Boolean} or {@code String}; {@code null} if it cannot. */
    public Object cast(String literal) {
        if (literal == null) {
            return null;
        }
        String s = literal.trim();
        try {
            switch (this) {
                case STRING:
                    return literal;
                case BOOLEAN:
                    if (s.equalsIgnoreCase("true")) {
                        return Boolean.TRUE;
                    }
                    return s.equalsIgnoreCase("false") ? Boolean.FALSE : null;
                case INTEGER:
                case LONG: {
                    Object n = RecordDecoder.toNumber(s);
                    if (n instanceof Long) {
                        return n;
                    }
                    double d = (Double) n;
                    return d == Math.rint(d) && !Double.isInfinite(d) ? (long) d : null;
                }
                default: {
                    double d = Double.parseDouble(s);
                    return Double.isNaN(d) ? null : d;
                }
            }
        } catch (NumberFormatException e) {
            return null;
        }
    }
}

package dev.bullet.query.expr;

import com.google.gson.JsonElement;

import java.math.BigDecimal;

/** Reads a literal's JSON as a Java value of its declared type, or {@link #INVALID}. */
final class ValueReader {
    static final Object INVALID = new Object();

    private ValueReader() {
    }

    static Object read(JsonElement v, ExprType type) {
        if (v == null || v.isJsonNull()) {
            return type == ExprType.NULL ? null : INVALID;
        }
        if (!v.isJsonPrimitive()) {
            return INVALID;
        }
        boolean number = v.getAsJsonPrimitive().isNumber();
        boolean string = v.getAsJsonPrimitive().isString();
        switch (type) {
            case STRING:
                return string ? v.getAsString() : INVALID;
            case BOOLEAN:
                return v.getAsJsonPrimitive().isBoolean() ? (Object) v.getAsBoolean() : INVALID;
            case INTEGER:
                return number && whole(v, Integer.MIN_VALUE, Integer.MAX_VALUE) ? (Object) v.getAsBigDecimal().intValueExact() : INVALID;
            case LONG:
                return number && whole(v, Long.MIN_VALUE, Long.MAX_VALUE) ? (Object) v.getAsBigDecimal().longValueExact() : INVALID;
            case FLOAT:
                if (string) {
                    Double special = special(v.getAsString());
                    return special == null ? INVALID : (Object) special.floatValue();
                }
                return number ? (Object) v.getAsFloat() : INVALID;
            case DOUBLE:
                if (string) {
                    Double special = special(v.getAsString());
                    return special == null ? INVALID : special;
                }
                return number ? (Object) v.getAsDouble() : INVALID;
            default:
                return INVALID;
        }
    }

    private static boolean whole(JsonElement v, long min, long max) {
        BigDecimal d = v.getAsBigDecimal();
        return ExprParser.isWhole(d) && ExprParser.within(d, min, max);
    }

    private static Double special(String text) {
        return switch (text) {
            case "NaN" -> Double.NaN;
            case "Infinity" -> Double.POSITIVE_INFINITY;
            case "-Infinity" -> Double.NEGATIVE_INFINITY;
            default -> null;
        };
    }
}

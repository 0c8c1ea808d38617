package dev.bullet.query;

import dev.bullet.query.ValueType;
import dev.bullet.record.RecordDecoder;

import java.util.List;
import java.util.Map;

/**
 * Typed comparison of record values (SPEC §6.2): numbers compare numerically (long with long exactly), strings
 * lexicographically, booleans false &lt; true. A string compared with a number is read as a number when it is one.
 * Anything else is incomparable ({@link #INCOMPARABLE}), which a clause treats as "ignored".
 */
public final class Values {
    public static final int INCOMPARABLE = Integer.MIN_VALUE;

    private Values() {
    }

    /** Compares two non-null values; {@link #INCOMPARABLE} when their types cannot be compared. */
    public static int compare(Object a, Object b) {
        if (a instanceof Number && b instanceof Number) {
            return compareNumbers((Number) a, (Number) b);
        }
        if (a instanceof String && b instanceof String) {
            int c = ((String) a).compareTo((String) b);
            return Integer.signum(c);
        }
        if (a instanceof Boolean && b instanceof Boolean) {
            return Boolean.compare((Boolean) a, (Boolean) b);
        }
        if (a instanceof String && b instanceof Number) {
            Object n = asNumber((String) a);
            return n == null ? INCOMPARABLE : compareNumbers((Number) n, (Number) b);
        }
        if (a instanceof Number && b instanceof String) {
            Object n = asNumber((String) b);
            return n == null ? INCOMPARABLE : compareNumbers((Number) a, (Number) n);
        }
        if (a instanceof String && b instanceof Boolean || a instanceof Boolean && b instanceof String) {
            Object x = a instanceof String ? ValueType.BOOLEAN.cast((String) a) : a;
            Object y = b instanceof String ? ValueType.BOOLEAN.cast((String) b) : b;
            return x == null || y == null ? INCOMPARABLE : Boolean.compare((Boolean) x, (Boolean) y);
        }
        if (a != null && a.equals(b)) {
            return 0;
        }
        return INCOMPARABLE;
    }

    public static int compareNumbers(Number a, Number b) {
        if (a instanceof Long && b instanceof Long) {
            return Long.compare(a.longValue(), b.longValue());
        }
        double x = a.doubleValue();
        double y = b.doubleValue();
        if (Double.isNaN(x) || Double.isNaN(y)) {
            return INCOMPARABLE;
        }
        return x < y ? -1 : x > y ? 1 : 0;
    }

    /** A numeric reading of a string (Long or Double), or null. */
    public static Object asNumber(String s) {
        String t = s.trim();
        if (t.isEmpty()) {
            return null;
        }
        char c = t.charAt(0);
        if (!(c >= '0' && c <= '9') && c != '-' && c != '+' && c != '.' || !numberCharacters(t)) {
            return null;
        }
        try {
            return RecordDecoder.toNumber(t);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Whether every character could be part of a number {@link Double#parseDouble} reads (digits, signs, point,
     * exponent, hex digits and exponent, the d/f suffixes, Infinity, NaN): a word such as {@code 13jo83} is turned
     * away here rather than by two exceptions, as query literals and record values often are such words.
     */
    private static boolean numberCharacters(String t) {
        for (int i = 0, n = t.length(); i < n; i++) {
            char c = t.charAt(i);
            boolean ok = c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.' || c >= 'a' && c <= 'f'
                         || c >= 'A' && c <= 'F' || "inptxyINPX".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** A number as a double, or NaN when the value is not numeric. */
    public static double toDouble(Object value) {
        return value instanceof Number ? ((Number) value).doubleValue() : Double.NaN;
    }

    /** Casts a primitive value to a type (for FIELD values and computations with an explicit type); null if it cannot. */
    public static Object cast(Object value, ValueType type) {
        if (value == null || type == null) {
            return value;
        }
        if (value instanceof Map || value instanceof List) {
            return null;
        }
        if (type == ValueType.STRING) {
            return String.valueOf(value);
        }
        if (value instanceof Number && (type == ValueType.LONG || type == ValueType.INTEGER)) {
            return ((Number) value).longValue();
        }
        if (value instanceof Number && (type == ValueType.DOUBLE || type == ValueType.FLOAT)) {
            return ((Number) value).doubleValue();
        }
        return type.cast(String.valueOf(value));
    }
}

package dev.bullet.query;

import com.google.gson.JsonElement;
import dev.bullet.common.BulletError;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import static dev.bullet.query.JsonShapes.describe;
import static dev.bullet.query.JsonShapes.isNumber;
import static dev.bullet.query.JsonShapes.isString;

/**
 * The one problem collector of a parse, shared by the parser of every part of the query: errors (the query is
 * rejected, SPEC §6.9) and warnings (a value was clamped, reported in the result metadata). Not thread-safe: one per
 * parse.
 */
final class Problems {
    private final List<BulletError> errors = new ArrayList<>();
    private final List<BulletError> warnings = new ArrayList<>();

    void error(String message, String... resolutions) {
        errors.add(BulletError.of(message, resolutions));
    }

    void error(BulletError error) {
        errors.add(error);
    }

    void warn(String message, String... resolutions) {
        warnings.add(BulletError.of(message, resolutions));
    }

    boolean hasErrors() {
        return !errors.isEmpty();
    }

    List<BulletError> errors() {
        return List.copyOf(errors);
    }

    List<BulletError> warnings() {
        return List.copyOf(warnings);
    }

    /** The JSON number as written; null when its exponent is beyond what gson reads as a decimal (10,000). */
    private static BigDecimal exactly(JsonElement e) {
        try {
            return e.getAsBigDecimal();
        } catch (NumberFormatException | ArithmeticException beyondADecimal) {
            return null;
        }
    }

    /** Whether the decimal is a whole number, in steps bounded by its digits (a huge exponent costs nothing). */
    private static boolean isWhole(BigDecimal value) {
        if (value.signum() == 0 || value.scale() <= 0) {
            return true;
        }
        if (value.precision() <= value.scale()) {
            return false; // between -1 and 1, not 0
        }
        return value.remainder(BigDecimal.ONE).signum() == 0;
    }

    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);

    /**
     * A whole number, or null (with an error) when it is not one. A whole number beyond a long's range is the long
     * nearest it ({@code Long.MAX_VALUE} or {@code Long.MIN_VALUE}), so that a bound clamps it as it clamps any large
     * value.
     */
    Long wholeNumber(JsonElement e, String what) {
        BigDecimal value = isNumber(e) ? exactly(e) : null;
        if (value != null && isWhole(value)) {
            return value.compareTo(LONG_MAX) > 0 ? Long.MAX_VALUE
                   : value.compareTo(LONG_MIN) < 0 ? Long.MIN_VALUE : value.longValueExact();
        }
        if (isNumber(e) && value == null && Double.isInfinite(e.getAsDouble())) { // 5e1000000000: huge, so whole
            return e.getAsDouble() > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        if (isString(e)) {
            try {
                return Long.parseLong(e.getAsString().trim());
            } catch (NumberFormatException notAWholeNumber) {
                // reported below
            }
        }
        error(what + " must be a whole number, got " + describe(e), "Give " + what + " as an integer, e.g. 10");
        return null;
    }
}

package dev.bullet.query;

import com.google.gson.JsonElement;
import dev.bullet.common.BulletError;

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

    /** A whole number, or null (with an error) when it is not one. */
    Long wholeNumber(JsonElement e, String what) {
        if (isNumber(e)) {
            double d = e.getAsDouble();
            if (d == Math.rint(d) && Math.abs(d) < 9.0e18) {
                return e.getAsBigDecimal().longValue();
            }
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

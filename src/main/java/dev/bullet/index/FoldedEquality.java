package dev.bullet.index;

import dev.bullet.record.FieldPath;

import java.util.List;
import java.util.Locale;

/**
 * What an expression filter {@code LOWER(f) = 'x'}, {@code UPPER(f) IN ('A', 'B')} (or the literal first) requires:
 * the top-level field's value is a string whose case, folded as LOWER or UPPER fold it ({@link Locale#ROOT}), is one
 * of the literals. Any other value (a number, a map, none) makes LOWER and UPPER null or fail, so the filter false.
 *
 * @param upper    UPPER, else LOWER
 * @param path     the field
 * @param literals the texts the folded value must be one of (at least one)
 */
public record FoldedEquality(boolean upper, FieldPath path, List<String> literals) {
    public FoldedEquality {
        literals = List.copyOf(literals);
        if (literals.isEmpty()) {
            throw new IllegalArgumentException("no literal");
        }
    }

    /** The value folded as UPPER ({@code upper}) or LOWER folds it. */
    static String fold(boolean upper, String value) {
        return upper ? value.toUpperCase(Locale.ROOT) : value.toLowerCase(Locale.ROOT);
    }
}

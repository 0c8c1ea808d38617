package dev.bullet.query;

import dev.bullet.query.expr.Expr;

import java.util.Objects;

/**
 * bullet-core's EXPLODE table function: the list (or map) an expression gives, one record per element (per entry).
 *
 * @param field      the expression whose value is exploded
 * @param keyAlias   the element of a list, or the key of a map entry
 * @param valueAlias the value of a map entry, or {@code null} to explode a list
 * @param outer      a record whose value is missing, empty or no list (map) gives one record without the aliases
 *                   instead of none
 */
public record Explode(Expr field, String keyAlias, String valueAlias, boolean outer) {
    public Explode {
        Objects.requireNonNull(field);
        Objects.requireNonNull(keyAlias);
    }

    /** Whether a map is exploded (into key and value), not a list. */
    public boolean explodesMap() {
        return valueAlias != null;
    }
}

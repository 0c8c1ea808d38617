package dev.bullet.index;

import java.util.EnumSet;
import java.util.Locale;

/**
 * The optimisations of the Filter stage beyond equality and range indexing (SPEC §10), each of which can be turned
 * off — for before/after measurements in one run, and for tests proving results are identical with and without.
 */
public enum IndexFeature {
    /** RLIKE queries meet only records whose value holds the literals their pattern requires. */
    REGEX,
    /** CONTAINSKEY, CONTAINSVALUE and SIZEIS found by looking the record's keys, values or size up. */
    CONTAINS,
    /** Queries with the same filter and aggregation evaluated and aggregated once, fanned out at emit. */
    SHARED,
    /** {@code !=} and {@code NOT ==} meet every record but those whose value is one of their literals. */
    NEGATION,
    /**
     * Non-RAW queries without expressions or projections collect a batch's matches as a bit mask and update their
     * aggregation once per batch (a COUNT-only GROUP by the mask's count), not once per (record, query) pair.
     */
    BATCH,
    /**
     * Queries fed a batch at a time whose aggregations are equal and whose filters took every record since their
     * partials were last taken ride on one aggregation, updated once per batch (with {@link #BATCH} only).
     */
    AGREEING,
    /**
     * Queries whose only indexable requirement is an expression filter {@code LOWER(f) = 'x'} or {@code UPPER(f) IN
     * (...)} meet only the records whose value, folded once for all of them, is one of their literals.
     */
    FOLDED,
    /**
     * Queries whose only indexable requirement is an expression filter {@code E = literal} or {@code E IN (...)}, for an
     * expression of the record ({@code l % 10 = 3}, {@code CAST(n AS STRING) = '5'}), meet only the records where
     * {@code E}, evaluated once for all of them, may equal one of their literals.
     */
    COMPUTED;

    public static EnumSet<IndexFeature> all() {
        return EnumSet.allOf(IndexFeature.class);
    }

    /** Parses a comma list of feature names (case-insensitive) or {@code all}. */
    public static EnumSet<IndexFeature> parse(String list) {
        EnumSet<IndexFeature> out = EnumSet.noneOf(IndexFeature.class);
        for (String name : list.split(",")) {
            String n = name.trim().toUpperCase(Locale.ROOT);
            if (n.isEmpty()) {
                continue;
            }
            if (n.equals("ALL")) {
                return all();
            }
            out.add(IndexFeature.valueOf(n));
        }
        return out;
    }
}

package dev.bullet.index;

import dev.bullet.regex.MatchShape;
import dev.bullet.regex.RegexDfa;
import dev.bullet.regex.WholeLiteral;

import java.util.List;

/**
 * One query's place in the {@link RegexPrefilter}: its formula over its path's literal ids, the shape every match has,
 * and what decides it. Mutable (its stamps), not thread-safe.
 *
 * @param <Q> the per-query object the index hands out
 */
final class RegexEntry<Q> {
    final Q query;
    final LiteralFormula formula;
    final MatchShape shape;
    /** The pattern when it is a literal decided from ASCII text alone; null otherwise. */
    final WholeLiteral whole;
    /** Whether the RLIKE is the query's whole filter (a decided match then needs no test). */
    final boolean entire;
    /** The patterns of an entry the path's DFA decides ({@link RegexDfa}); null for the others. */
    final List<String> patterns;
    /** A decided entry whose patterns require no literal worth looking for. */
    boolean literalFree;
    long stamp = -1;
    /**
     * The entry of a {@code NOT (field RLIKE ...)}: the regex machinery finds it as it finds the RLIKE, and a
     * value it is not found for surely fails the RLIKE, so surely passes the NOT ({@link RegexPrefilter}).
     */
    boolean negated;
    /** For a negated entry: the value it was last found for , and whether surely matching then. */
    long foundFor = -1;
    boolean foundSure;

    RegexEntry(Q query, LiteralFormula formula, MatchShape shape, WholeLiteral whole, boolean entire) {
        this(query, formula, shape, whole, entire, null);
    }

    RegexEntry(Q query, LiteralFormula formula, MatchShape shape, WholeLiteral whole, boolean entire, List<String> patterns) {
        this.query = query;
        this.patterns = patterns;
        this.formula = formula;
        this.shape = shape;
        this.whole = whole;
        this.entire = entire;
    }
}

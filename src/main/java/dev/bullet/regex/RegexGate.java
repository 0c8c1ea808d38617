package dev.bullet.regex;

import dev.bullet.regex.RegexLiterals.And;
import dev.bullet.regex.RegexLiterals.Literal;
import dev.bullet.regex.RegexLiterals.Requirement;

import java.util.List;

/**
 * A cheap test a value passes before an RLIKE pattern runs on it: the literals a whole-value match of the pattern
 * requires (an AND/OR of substrings, case-folded) and the characters such a match can start and end with, as the
 * regex prefilter uses them. A value it turns away cannot match; one it lets through still goes to RE2. Sound for
 * the same reason the prefilter is ({@code RegexLiteralsPropertyTest}). Immutable.
 */
public final class RegexGate {
    private static final RegexGate OPEN = new RegexGate(RegexLiterals.Shape.UNKNOWN);
    private final RegexLiterals.Shape shape;

    private RegexGate(RegexLiterals.Shape shape) {
        this.shape = shape;
    }

    /** The gate of a pattern (one that lets everything through when the pattern cannot be analysed). */
    public static RegexGate of(String pattern) {
        RegexLiterals.Shape shape = RegexLiterals.shape(pattern);
        return shape == RegexLiterals.Shape.UNKNOWN ? OPEN : new RegexGate(shape);
    }

    /** False only when the pattern cannot match the whole of {@code text}. */
    public boolean admits(CharSequence text) {
        if (this == OPEN) {
            return true;
        }
        return shape.admits(text) && (shape.requirement() == null || holds(shape.requirement(), text));
    }

    private static boolean holds(Requirement r, CharSequence text) {
        if (r instanceof Literal) {
            return containsFolded(text, ((Literal) r).text());
        }
        List<Requirement> parts = r instanceof And ? ((And) r).parts() : ((RegexLiterals.Or) r).parts();
        boolean all = r instanceof And;
        for (Requirement part : parts) {
            if (holds(part, text) != all) {
                return !all;
            }
        }
        return all;
    }

    /** Whether the folded text contains the folded literal. */
    static boolean containsFolded(CharSequence text, String literal) {
        int n = text.length();
        int k = literal.length();
        outer:
        for (int at = 0; at + k <= n; at++) {
            for (int i = 0; i < k; i++) {
                if (LiteralMatcher.fold(text.charAt(at + i)) != literal.charAt(i)) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}

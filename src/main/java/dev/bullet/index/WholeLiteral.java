package dev.bullet.index;

/**
 * An RLIKE pattern that is a literal with nothing but {@code .*} around it — {@code error}, {@code gah.*},
 * {@code .*tifu.*}, {@code .*cu$}, {@code (?i)ALPHA.*} — decided from the value alone: the prefilter answers such a
 * query itself, match or no match, and its regex never runs. Only for values read as ASCII bytes from the record
 * (no escapes): such a value holds no line break, which {@code .} would not match, and no character that folds onto
 * an ASCII letter other than the letter's own cases. Immutable.
 */
final class WholeLiteral {
    private enum Kind { EQUALS, PREFIX, SUFFIX, CONTAINS }

    private final Kind kind;
    private final String literal;
    private final boolean foldCase;

    private WholeLiteral(Kind kind, String literal, boolean foldCase) {
        this.kind = kind;
        this.literal = foldCase ? LiteralMatcher.fold(literal) : literal;
        this.foldCase = foldCase;
    }

    /** The pattern's whole-literal form, or null when it is anything else. */
    static WholeLiteral of(String pattern) {
        String p = pattern;
        boolean fold = p.startsWith("(?i)");
        if (fold) {
            p = p.substring(4);
        }
        if (p.startsWith("^")) {
            p = p.substring(1);
        }
        if (p.endsWith("$") && !p.endsWith("\\$")) {
            p = p.substring(0, p.length() - 1);
        }
        boolean leading = p.startsWith(".*");
        if (leading) {
            p = p.substring(2);
        }
        boolean trailing = p.endsWith(".*");
        if (trailing) {
            p = p.substring(0, p.length() - 2);
        }
        if (p.isEmpty()) {
            return null;
        }
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c < 0x20 || c >= 0x7f || "\\.+*?()|[]{}^$".indexOf(c) >= 0) {
                return null;
            }
        }
        Kind kind = leading ? (trailing ? Kind.CONTAINS : Kind.SUFFIX) : (trailing ? Kind.PREFIX : Kind.EQUALS);
        return new WholeLiteral(kind, p, fold);
    }

    /** Whether the pattern matches the whole ASCII text (see the class comment for which texts). */
    boolean matches(CharSequence text) {
        int n = text.length();
        int k = literal.length();
        switch (kind) {
            case EQUALS:
                return n == k && regionMatches(text, 0);
            case PREFIX:
                return n >= k && regionMatches(text, 0);
            case SUFFIX:
                return n >= k && regionMatches(text, n - k);
            default:
                for (int at = 0; at + k <= n; at++) {
                    if (regionMatches(text, at)) {
                        return true;
                    }
                }
                return false;
        }
    }

    private boolean regionMatches(CharSequence text, int at) {
        for (int i = 0, k = literal.length(); i < k; i++) {
            char c = text.charAt(at + i);
            if ((foldCase ? (char) LiteralMatcher.fold(c) : c) != literal.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}

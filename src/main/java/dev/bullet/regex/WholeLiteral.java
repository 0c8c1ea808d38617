package dev.bullet.regex;

/**
 * An RLIKE pattern that is a literal, or a parenthesised alternation of literals, with nothing but {@code .*} around
 * it — {@code error}, {@code gah.*}, {@code .*tifu.*}, {@code .*cu$}, {@code (?i)ALPHA.*}, {@code (gapu|sixa)},
 * {@code .*(warn|error).*} — decided from the value alone: the prefilter answers such a
 * query itself, match or no match, and its regex never runs. Only for values read as ASCII bytes from the record
 * (no escapes): such a value holds no line break, which {@code .} would not match, and no character that folds onto
 * an ASCII letter other than the letter's own cases. Immutable.
 */
public final class WholeLiteral {
    private enum Kind { EQUALS, PREFIX, SUFFIX, CONTAINS }

    private final Kind kind;
    /** The alternatives: the pattern matches when one of them does. */
    private final String[] literals;
    private final boolean foldCase;

    private WholeLiteral(Kind kind, String[] literals, boolean foldCase) {
        this.kind = kind;
        this.literals = new String[literals.length];
        for (int i = 0; i < literals.length; i++) {
            this.literals[i] = foldCase ? LiteralMatcher.fold(literals[i]) : literals[i];
        }
        this.foldCase = foldCase;
    }

    /** The pattern's whole-literal form, or null when it is anything else. */
    public static WholeLiteral of(String pattern) {
        // Java's dot as RLIKE writes it for RE2: on the texts read here (no line terminator) it is RE2's dot
        String p = pattern.replace(JavaRegex.DOT, ".");
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
        boolean group = p.length() > 2 && p.startsWith("(") && p.endsWith(")");
        String[] literals = group ? p.substring(1, p.length() - 1).split("\\|", -1) : new String[] {p};
        for (String literal : literals) {
            if (!plain(literal)) {
                return null;
            }
        }
        Kind kind = leading ? (trailing ? Kind.CONTAINS : Kind.SUFFIX) : (trailing ? Kind.PREFIX : Kind.EQUALS);
        return new WholeLiteral(kind, literals, fold);
    }

    /** A non-empty literal of printable ASCII characters that mean themselves in a pattern. */
    private static boolean plain(String literal) {
        if (literal.isEmpty()) {
            return false;
        }
        for (int i = 0; i < literal.length(); i++) {
            char c = literal.charAt(i);
            if (c < 0x20 || c >= 0x7f || "\\.+*?()|[]{}^$".indexOf(c) >= 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether the pattern matches the whole ASCII text (see the class comment for which texts). */
    public boolean matches(CharSequence text) {
        for (String literal : literals) {
            if (matches(text, literal)) {
                return true;
            }
        }
        return false;
    }

    private boolean matches(CharSequence text, String literal) {
        int n = text.length();
        int k = literal.length();
        switch (kind) {
            case EQUALS:
                return n == k && regionMatches(text, 0, literal);
            case PREFIX:
                return n >= k && regionMatches(text, 0, literal);
            case SUFFIX:
                return n >= k && regionMatches(text, n - k, literal);
            default:
                for (int at = 0; at + k <= n; at++) {
                    if (regionMatches(text, at, literal)) {
                        return true;
                    }
                }
                return false;
        }
    }

    private boolean regionMatches(CharSequence text, int at, String literal) {
        for (int i = 0, k = literal.length(); i < k; i++) {
            char c = text.charAt(at + i);
            if ((foldCase ? (char) LiteralMatcher.fold(c) : c) != literal.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}

package dev.bullet.query.expr;

import java.util.Map;

/**
 * Java's POSIX character classes ({@code \p{Alpha}}, {@code \p{Digit}}, {@code \P{Punct}}...), which a pattern written
 * for the original Bullet (java.util.regex) may hold and RE2 does not know, written as RE2's POSIX classes: Java
 * defines them over ASCII, as RE2's {@code [[:alpha:]]} and the rest, so both match the same characters. Every other
 * part of the pattern is left as it is ({@code \Q...\E} quoted text included).
 */
public final class JavaPosixClasses {
    private JavaPosixClasses() {
    }

    private static final Map<String, String> NAMES = Map.ofEntries(
            Map.entry("Lower", "lower"), Map.entry("Upper", "upper"), Map.entry("ASCII", "ascii"),
            Map.entry("Alpha", "alpha"), Map.entry("Digit", "digit"), Map.entry("Alnum", "alnum"),
            Map.entry("Punct", "punct"), Map.entry("Graph", "graph"), Map.entry("Print", "print"),
            Map.entry("Blank", "blank"), Map.entry("Cntrl", "cntrl"), Map.entry("XDigit", "xdigit"),
            Map.entry("Space", "space"));

    /** The pattern with Java's POSIX classes as RE2's; the same string when it has none. */
    public static String rewrite(String pattern) {
        if (!pattern.contains("\\p{") && !pattern.contains("\\P{")) {
            return pattern;
        }
        StringBuilder out = new StringBuilder(pattern.length() + 16);
        boolean inClass = false;
        int n = pattern.length();
        for (int i = 0; i < n; i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < n) {
                char d = pattern.charAt(i + 1);
                if (d == 'Q') { // quoted text up to \E (or the end) stays as it is
                    int end = pattern.indexOf("\\E", i + 2);
                    int stop = end < 0 ? n : end + 2;
                    out.append(pattern, i, stop);
                    i = stop - 1;
                    continue;
                }
                int close = (d == 'p' || d == 'P') && i + 2 < n && pattern.charAt(i + 2) == '{'
                            ? pattern.indexOf('}', i + 3) : -1;
                String posix = close < 0 ? null : NAMES.get(pattern.substring(i + 3, close));
                if (posix != null) {
                    boolean negated = d == 'P';
                    if (inClass) {
                        out.append(negated ? "[:^" : "[:").append(posix).append(":]");
                    } else {
                        out.append(negated ? "[^[:" : "[[:").append(posix).append(":]]");
                    }
                    i = close;
                    continue;
                }
                out.append(c).append(d);
                i++;
                continue;
            }
            out.append(c);
            if (!inClass && c == '[') {
                inClass = true;
                if (i + 1 < n && pattern.charAt(i + 1) == '^') {
                    out.append('^');
                    i++;
                }
                if (i + 1 < n && pattern.charAt(i + 1) == ']') { // a ']' first in a class is the character
                    out.append(']');
                    i++;
                }
            } else if (inClass && c == '[' && i + 1 < n && pattern.charAt(i + 1) == ':') { // an RE2 POSIX class
                int end = pattern.indexOf(":]", i + 2);
                if (end > 0) {
                    out.append(pattern, i + 1, end + 2);
                    i = end + 1;
                }
            } else if (inClass && c == ']') {
                inClass = false;
            }
        }
        return out.toString();
    }
}

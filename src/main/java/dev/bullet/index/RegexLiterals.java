package dev.bullet.index;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The literals a regular expression match requires, in the manner of RE2's prefilter: an AND/OR formula over
 * substrings such that every string the pattern matches (whole or in part) contains them. Literals are case-folded
 * ({@link LiteralMatcher#fold(char)}) whatever the pattern's flags, so the formula holds for {@code (?i)} parts as
 * well as for case-sensitive ones (it is then only a little weaker). Conservative: anything this reader is not sure
 * of — non-ASCII characters, escapes other than punctuation and the common classes, POSIX classes, {@code \Q..\E} —
 * gives "no requirement", and the pattern is then evaluated on every value. Works on patterns RE2/J has accepted.
 */
final class RegexLiterals {
    /** Largest set of exact strings carried through a concatenation or an alternation before it becomes an OR. */
    private static final int MAX_EXACT = 16;
    /** Largest character class expanded into its characters. */
    private static final int MAX_CLASS = 8;

    /** A formula over literal strings: a literal, an AND or an OR. */
    sealed interface Requirement {
    }

    record Literal(String text) implements Requirement {
    }

    record And(List<Requirement> parts) implements Requirement {
    }

    record Or(List<Requirement> parts) implements Requirement {
    }

    /** Thrown inside the reader for a construct it does not handle; the caller answers "no requirement". */
    private static final class Unsure extends RuntimeException {
        Unsure() {
            super(null, null, false, false);
        }
    }

    /** What one node can match: a small set of exact strings, or else a requirement (null = none). */
    private static final class Info {
        final Set<String> exact;
        final Requirement match;

        private Info(Set<String> exact, Requirement match) {
            this.exact = exact;
            this.match = match;
        }

        static Info exact(Set<String> strings) {
            return new Info(strings, null);
        }

        static Info any() {
            return new Info(null, null);
        }

        static Info empty() {
            Set<String> s = new LinkedHashSet<>();
            s.add("");
            return exact(s);
        }

        Requirement requirement() {
            if (exact == null) {
                return match;
            }
            List<Requirement> parts = new ArrayList<>();
            for (String s : exact) {
                if (s.isEmpty()) {
                    return null;
                }
                parts.add(new Literal(s));
            }
            return parts.size() == 1 ? parts.get(0) : new Or(parts);
        }
    }

    private final String pattern;
    private int pos;

    private RegexLiterals(String pattern) {
        this.pattern = pattern;
    }

    /** The requirement of a pattern, or {@code null} when a match requires no literal (or the reader is unsure). */
    static Requirement of(String pattern) {
        try {
            RegexLiterals reader = new RegexLiterals(pattern);
            Info info = reader.alternation();
            if (reader.pos != pattern.length()) {
                return null;
            }
            return info.requirement();
        } catch (Unsure | IndexOutOfBoundsException e) {
            return null;
        }
    }

    private Info alternation() {
        Info result = concatenation();
        while (pos < pattern.length() && pattern.charAt(pos) == '|') {
            pos++;
            result = or(result, concatenation());
        }
        return result;
    }

    /**
     * A concatenation: runs of exact parts are multiplied out (while small) so that {@code .*error.*} requires
     * "error", not "e", "r", ...; everything else is ANDed.
     */
    private Info concatenation() {
        Requirement required = null;
        Set<String> run = new LinkedHashSet<>(Set.of(""));
        boolean exact = true;
        while (pos < pattern.length() && pattern.charAt(pos) != '|' && pattern.charAt(pos) != ')') {
            Info part = repetition();
            if (part.exact != null && run != null && run.size() * part.exact.size() <= MAX_EXACT) {
                Set<String> product = new LinkedHashSet<>();
                for (String x : run) {
                    for (String y : part.exact) {
                        product.add(x + y);
                    }
                }
                run = product;
                continue;
            }
            if (run != null) {
                required = all(required, Info.exact(run).requirement());
            }
            if (part.exact != null) {
                run = new LinkedHashSet<>(part.exact);
            } else {
                required = all(required, part.match);
                run = null;
            }
            exact = false;
        }
        if (exact) {
            return Info.exact(run);
        }
        return new Info(null, run == null ? required : all(required, Info.exact(run).requirement()));
    }

    private Info repetition() {
        boolean flags = isFlagGroup();
        Info atom = atom();
        while (pos < pattern.length()) {
            char c = pattern.charAt(pos);
            if (flags && (c == '*' || c == '+' || c == '?' || c == '{')) {
                throw new Unsure(); // a repeat after a flag group: RE2 reads it its own way
            }
            if (c == '*') {
                pos++;
                atom = Info.any();
            } else if (c == '?') {
                pos++;
                atom = optional(atom);
            } else if (c == '+') {
                pos++;
                atom = new Info(null, atom.requirement());
            } else if (c == '{' && repeatEnd() > 0) {
                int end = repeatEnd();
                String body = pattern.substring(pos + 1, end);
                pos = end + 1;
                int min = Integer.parseInt(body.contains(",") ? body.substring(0, body.indexOf(',')) : body);
                atom = min == 0 ? Info.any() : new Info(null, atom.requirement());
            } else {
                break;
            }
            if (pos < pattern.length() && pattern.charAt(pos) == '?') {
                pos++; // non-greedy: same strings
            }
        }
        return atom;
    }

    /** Whether a flag group such as (?i) or (?-s) starts at pos. */
    private boolean isFlagGroup() {
        if (!pattern.startsWith("(?", pos)) {
            return false;
        }
        int i = pos + 2;
        while (i < pattern.length() && "imsU-".indexOf(pattern.charAt(i)) >= 0) {
            i++;
        }
        return i < pattern.length() && pattern.charAt(i) == ')';
    }

    /** The index of the '}' closing a repeat {n}, {n,} or {n,m} at pos, or -1 when '{' is a plain character. */
    private int repeatEnd() {
        int i = pos + 1;
        int digits = 0;
        while (i < pattern.length() && Character.isDigit(pattern.charAt(i))) {
            i++;
            digits++;
        }
        if (digits == 0 || i >= pattern.length()) {
            return -1;
        }
        if (pattern.charAt(i) == ',') {
            i++;
            while (i < pattern.length() && Character.isDigit(pattern.charAt(i))) {
                i++;
            }
        }
        return i < pattern.length() && pattern.charAt(i) == '}' ? i : -1;
    }

    private Info atom() {
        char c = pattern.charAt(pos);
        switch (c) {
            case '(':
                return group();
            case '[':
                return characterClass();
            case '.':
                pos++;
                return Info.any();
            case '^':
            case '$':
                pos++;
                return Info.empty();
            case '\\':
                return escape();
            case '*':
            case '+':
            case '?':
                throw new Unsure();
            default:
                pos++;
                return literal(c);
        }
    }

    private static Info literal(char c) {
        if (c >= 128) {
            return Info.any();
        }
        Set<String> s = new LinkedHashSet<>();
        s.add(String.valueOf((char) LiteralMatcher.fold(c)));
        return Info.exact(s);
    }

    private Info group() {
        pos++;
        if (pattern.startsWith("?", pos)) {
            pos++;
            if (pattern.startsWith("P<", pos) || pattern.startsWith("<", pos)) {
                int end = pattern.indexOf('>', pos);
                if (end < 0) {
                    throw new Unsure();
                }
                pos = end + 1;
            } else {
                while (pos < pattern.length() && "imsU-".indexOf(pattern.charAt(pos)) >= 0) {
                    pos++;
                }
                if (pattern.charAt(pos) == ')') {
                    pos++;
                    return Info.empty(); // flags only: no text
                }
                if (pattern.charAt(pos) != ':') {
                    throw new Unsure();
                }
                pos++;
            }
        }
        Info inner = alternation();
        if (pos >= pattern.length() || pattern.charAt(pos) != ')') {
            throw new Unsure();
        }
        pos++;
        return inner;
    }

    private Info escape() {
        char c = pattern.charAt(pos + 1);
        pos += 2;
        if (c < 128 && !Character.isLetterOrDigit(c)) {
            return literal(c); // escaped punctuation
        }
        switch (c) {
            case 'd':
            case 'D':
            case 'w':
            case 'W':
            case 's':
            case 'S':
                return Info.any();
            case 'b':
            case 'B':
            case 'A':
            case 'z':
                return Info.empty();
            case 'n':
                return literal('\n');
            case 't':
                return literal('\t');
            case 'r':
                return literal('\r');
            case 'f':
                return literal('\f');
            default:
                throw new Unsure();
        }
    }

    private Info characterClass() {
        pos++;
        boolean negated = false;
        if (pattern.charAt(pos) == '^') {
            negated = true;
            pos++;
        }
        Set<Character> chars = new LinkedHashSet<>();
        boolean tooWide = false;
        boolean first = true;
        while (first || pattern.charAt(pos) != ']') {
            first = false;
            if (pattern.startsWith("[:", pos)) {
                int end = pattern.indexOf(":]", pos + 2);
                if (end < 0) {
                    throw new Unsure();
                }
                pos = end + 2;
                tooWide = true;
                continue;
            }
            char lo = classChar();
            if (lo == 0) {
                tooWide = true; // a class escape such as \d
                continue;
            }
            char hi = lo;
            if (pattern.charAt(pos) == '-' && pattern.charAt(pos + 1) != ']') {
                pos++;
                hi = classChar();
                if (hi == 0) {
                    throw new Unsure();
                }
            }
            if (hi - lo >= MAX_CLASS || hi >= 128) {
                tooWide = true;
                continue;
            }
            for (char x = lo; x <= hi; x++) {
                chars.add((char) LiteralMatcher.fold(x));
            }
        }
        pos++;
        if (negated || tooWide || chars.size() > MAX_CLASS) {
            return Info.any();
        }
        Set<String> s = new LinkedHashSet<>();
        for (char x : chars) {
            s.add(String.valueOf(x));
        }
        // a folded ASCII letter stands for both cases: the folded value meets it either way
        return Info.exact(s);
    }

    /** One character of a class, or 0 for a class escape (\d, \w, \s and their negations). */
    private char classChar() {
        char c = pattern.charAt(pos);
        if (c != '\\') {
            pos++;
            return c;
        }
        char e = pattern.charAt(pos + 1);
        pos += 2;
        if (e < 128 && !Character.isLetterOrDigit(e)) {
            return e;
        }
        switch (e) {
            case 'd':
            case 'D':
            case 'w':
            case 'W':
            case 's':
            case 'S':
                return 0;
            case 'n':
                return '\n';
            case 't':
                return '\t';
            case 'r':
                return '\r';
            case 'f':
                return '\f';
            default:
                throw new Unsure();
        }
    }

    private static Info optional(Info atom) {
        if (atom.exact != null && atom.exact.size() < MAX_EXACT) {
            Set<String> s = new LinkedHashSet<>(atom.exact);
            s.add("");
            return Info.exact(s);
        }
        return Info.any();
    }

    private static Info or(Info a, Info b) {
        if (a.exact != null && b.exact != null && a.exact.size() + b.exact.size() <= MAX_EXACT) {
            Set<String> s = new LinkedHashSet<>(a.exact);
            s.addAll(b.exact);
            return Info.exact(s);
        }
        Requirement x = a.requirement();
        Requirement y = b.requirement();
        if (x == null || y == null) {
            return Info.any();
        }
        List<Requirement> parts = new ArrayList<>();
        for (Requirement r : List.of(x, y)) {
            if (r instanceof Or) {
                parts.addAll(((Or) r).parts());
            } else {
                parts.add(r);
            }
        }
        return new Info(null, new Or(parts));
    }

    private static Requirement all(Requirement x, Requirement y) {
        if (x == null) {
            return y;
        }
        if (y == null) {
            return x;
        }
        List<Requirement> parts = new ArrayList<>();
        for (Requirement r : List.of(x, y)) {
            if (r instanceof And) {
                parts.addAll(((And) r).parts());
            } else {
                parts.add(r);
            }
        }
        return new And(parts);
    }
}

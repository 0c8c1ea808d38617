package dev.bullet.regex;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The syntax {@link RegexDfa} compiles: a conservative subset of RE2's (ASCII character sets, concatenation,
 * alternation, bounded and unbounded repeats), read into a tree of {@link Node}s. A pattern outside the subset reads
 * as null, and the caller falls back to RE2. Stateless.
 */
final class RegexSyntax {
    private RegexSyntax() {
    }

    sealed interface Node permits Chars, Concat, Alt, Repeat {
    }

    /** One character of a set of ASCII characters. */
    record Chars(long low, long high) implements Node {
    }

    record Concat(List<Node> parts) implements Node {
    }

    record Alt(List<Node> branches) implements Node {
    }

    /** {@code max} -1: no bound. */
    record Repeat(Node node, int min, int max) implements Node {
    }

    /** Thrown inside the parser for anything outside the subset. */
    private static final class Unsupported extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unsupported() {
            super(null, null, false, false);
        }
    }

    /** Largest count of a repeat compiled here. */
    static final int MAX_REPEAT = 64;
    /** The characters past ASCII that RE2's case folding takes onto ASCII letters: the long s and the Kelvin sign. */
    private static final int LONG_S = 0x17F;
    private static final int KELVIN = 0x212A;
    private static final Chars DIGIT = range('0', '9');
    private static final Chars WORD = union(union(union(range('0', '9'), range('a', 'z')), range('A', 'Z')), one('_'));
    private static final Chars SPACE = union(union(union(union(one('\t'), one('\n')), one('\f')), one('\r')), one(' '));
    private static final Chars ANY_BUT_NEWLINE = new Chars(-1L & ~(1L << '\n'), -1L);
    private static final Chars ANY = new Chars(-1L, -1L);
    /** RE2's POSIX classes ({@code [[:name:]]}). */
    private static final Map<String, Chars> POSIX = Map.ofEntries(
            Map.entry("alnum", union(union(range('0', '9'), range('A', 'Z')), range('a', 'z'))),
            Map.entry("alpha", union(range('A', 'Z'), range('a', 'z'))),
            Map.entry("ascii", range('\0', (char) 127)),
            Map.entry("blank", union(one('\t'), one(' '))),
            Map.entry("cntrl", union(range('\0', (char) 31), one((char) 127))),
            Map.entry("digit", range('0', '9')),
            Map.entry("graph", range('!', '~')),
            Map.entry("lower", range('a', 'z')),
            Map.entry("print", range(' ', '~')),
            Map.entry("punct", union(union(union(range('!', '/'), range(':', '@')), range('[', '`')),
                                               range('{', '~'))),
            Map.entry("space", union(range('\t', '\r'), one(' '))),
            Map.entry("upper", range('A', 'Z')),
            Map.entry("word", union(union(union(range('0', '9'), range('A', 'Z')), range('a', 'z')), one('_'))),
            Map.entry("xdigit", union(union(range('0', '9'), range('A', 'F')), range('a', 'f'))));

    /** The syntax tree of a pattern in the subset; null when it is outside it. */
    static Node parse(String pattern) {
        Parser parser = new Parser(pattern);
        try {
            Node node = parser.alternation();
            return parser.pos == pattern.length() ? node : null;
        } catch (Unsupported | IndexOutOfBoundsException | NumberFormatException e) {
            return null;
        }
    }

    /** A reader of one pattern: a conservative subset of RE2's syntax. */
    private static final class Parser {
        private final String pattern;
        private int pos;
        /** Whether {@code (?i)} holds here: set by a flag group, to the end of the group it is in (as in RE2). */
        private boolean fold;
        /** Whether {@code (?s)} holds here ({@code .} matches a newline too), as {@link #fold}. */
        private boolean dotAll;
        /** Groups open around pos. */
        private int depth;
        /** Whether nothing but anchors and flags came yet in the current branch. */
        private boolean branchStart;

        Parser(String pattern) {
            this.pattern = pattern;
        }

        private Node alternation() {
            List<Node> branches = new ArrayList<>();
            branches.add(concatenation());
            while (pos < pattern.length() && pattern.charAt(pos) == '|') {
                pos++;
                branches.add(concatenation());
            }
            return branches.size() == 1 ? branches.get(0) : new Alt(branches);
        }

        private Node concatenation() {
            List<Node> parts = new ArrayList<>();
            branchStart = true;
            while (pos < pattern.length() && pattern.charAt(pos) != '|' && pattern.charAt(pos) != ')') {
                Node atom = atom();
                if (atom != null) {
                    branchStart = false;
                    parts.add(repeats(atom));
                }
            }
            return parts.size() == 1 ? parts.get(0) : new Concat(parts);
        }

        private Node repeats(Node atom) {
            if (pos >= pattern.length()) {
                return atom;
            }
            char c = pattern.charAt(pos);
            Node out;
            if (c == '*') {
                pos++;
                out = new Repeat(atom, 0, -1);
            } else if (c == '+') {
                pos++;
                out = new Repeat(atom, 1, -1);
            } else if (c == '?') {
                pos++;
                out = new Repeat(atom, 0, 1);
            } else if (c == '{') {
                int close = pattern.indexOf('}', pos);
                if (close < 0) {
                    throw new Unsupported();
                }
                String body = pattern.substring(pos + 1, close);
                if (!body.matches("[0-9]{1,3}(,[0-9]{0,3})?")) {
                    throw new Unsupported(); // RE2 reads a '{' that starts no repeat as itself: left to RE2
                }
                int comma = body.indexOf(',');
                int min = Integer.parseInt(comma < 0 ? body : body.substring(0, comma));
                int max = comma < 0 ? min : comma == body.length() - 1 ? -1 : Integer.parseInt(body.substring(comma + 1));
                if (min > MAX_REPEAT || max > MAX_REPEAT || max >= 0 && max < min) {
                    throw new Unsupported();
                }
                pos = close + 1;
                out = new Repeat(atom, min, max);
            } else {
                return atom;
            }
            if (pos < pattern.length() && pattern.charAt(pos) == '?') {
                pos++; // lazy: the same strings
            }
            if (pos < pattern.length() && "*+?{".indexOf(pattern.charAt(pos)) >= 0) {
                throw new Unsupported(); // a repeat of a repeat: RE2 rejects or reads it its own way
            }
            return out;
        }

        /**
         * One atom; null for a flag group, or for an anchor that is a no-op in a whole-value match: {@code ^} before
         * anything else of a top-level branch, {@code $} after everything else of one. (A repeat after either is
         * then read as an atom, and left to RE2.)
         */
        private Node atom() {
            char c = pattern.charAt(pos);
            switch (c) {
                case '(':
                    return group();
                case '^':
                    if (depth == 0 && branchStart) {
                        pos++;
                        return null;
                    }
                    throw new Unsupported();
                case '[':
                    return characterClass();
                case '.':
                    pos++;
                    return dotAll ? ANY : ANY_BUT_NEWLINE;
                case '\\':
                    return escape(false);
                case '$':
                    if (depth == 0 && (pos == pattern.length() - 1 || pattern.charAt(pos + 1) == '|')) {
                        pos++;
                        return null;
                    }
                    throw new Unsupported();
                default:
                    if (c >= 128 || "*+?{".indexOf(c) >= 0) {
                        throw new Unsupported();
                    }
                    pos++;
                    return letter(c);
            }
        }

        /**
         * A group: {@code (…)}, {@code (?:…)}, or one with flags for its inside ({@code (?i:…)}, {@code (?s-i:…)});
         * or a flag group ({@code (?i)}, {@code (?-s)}, {@code (?is)}), which sets its flags for the rest of the
         * group it is in and answers null. The flags read are {@code i} and {@code s}; others ({@code m}, {@code U})
         * and named groups are left to RE2.
         */
        private Node group() {
            boolean outerFold = fold;
            boolean outerDotAll = dotAll;
            if (pattern.startsWith("(?", pos)) {
                int i = pos + 2;
                boolean negate = false;
                boolean any = false;
                while (i < pattern.length() && pattern.charAt(i) != ')' && pattern.charAt(i) != ':') {
                    char f = pattern.charAt(i++);
                    if (f == '-' && !negate) {
                        negate = true;
                    } else if (f == 'i') {
                        fold = !negate;
                        any = true;
                    } else if (f == 's') {
                        dotAll = !negate;
                        any = true;
                    } else {
                        throw new Unsupported();
                    }
                }
                if (i >= pattern.length() || (negate || pattern.charAt(i) == ')') && !any
                    || pattern.charAt(i - 1) == '-') {
                    throw new Unsupported(); // "(?)", "(?-)", "(?i-)": RE2 rejects them, or they are not flags
                }
                pos = i + 1;
                if (pattern.charAt(i) == ')') {
                    return null; // a flag group: its flags hold to the end of the enclosing group
                }
            } else {
                pos++;
            }
            depth++;
            Node inner = alternation();
            if (pos >= pattern.length() || pattern.charAt(pos) != ')') {
                throw new Unsupported();
            }
            pos++;
            depth--;
            fold = outerFold;
            dotAll = outerDotAll;
            return inner;
        }

        /** A character, both cases of it under (?i). */
        private Chars letter(char c) {
            Chars one = one(c);
            if (fold && Character.isLetter(c)) {
                one = union(one, one(Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c)));
            }
            return one;
        }

        /** An escape at pos: a class escape, a control character or escaped punctuation. */
        private Chars escape(boolean inClass) {
            char e = pattern.charAt(pos + 1);
            pos += 2;
            switch (e) {
                case 'd':
                    return DIGIT;
                case 'w':
                    return WORD;
                case 's':
                    return SPACE;
                case 'D':
                case 'W':
                case 'S':
                    if (fold) {
                        throw new Unsupported(); // a negated set under (?i): RE2 folds it its own way
                    }
                    return complement(e == 'D' ? DIGIT : e == 'W' ? WORD : SPACE);
                case 'n':
                    return one('\n');
                case 't':
                    return one('\t');
                case 'r':
                    return one('\r');
                case 'f':
                    return one('\f');
                case 'v':
                    return one((char) 0x0B);
                case 'x': {
                    pos -= 2;
                    int cp = hexEscape();
                    if (cp >= 128) {
                        throw new Unsupported(); // a character no ASCII text holds: the class reader skips it
                    }
                    return letter((char) cp);
                }
                default:
                    if (e < 128 && !Character.isLetterOrDigit(e)) {
                        return letter(e);
                    }
                    throw new Unsupported();
            }
        }

        /**
         * {@code \xHH} or {@code \x{H...}} at pos, consumed: the character's code (past ASCII too: {@link JavaRegex}
         * writes Java's line terminators so).
         */
        private int hexEscape() {
            HexEscape hex = HexEscape.at(pattern, pos + 2);
            if (hex == null) {
                throw new Unsupported();
            }
            pos = hex.end();
            return hex.codePoint();
        }

        /** One character of a class at pos, consumed: itself, or what its escape names. */
        private int classChar() {
            char c = pattern.charAt(pos);
            if (c != '\\') {
                pos++;
                return c;
            }
            if (pattern.charAt(pos + 1) == 'x') {
                return hexEscape();
            }
            return single(escape(true));
        }

        /**
         * A class. Under {@code (?i)} its members come with both cases of their letters, so the set is closed under
         * ASCII case and its complement too: a negated class is the same set in RE2 and here, for ASCII text. A
         * member past ASCII matches no ASCII text and is left out; under {@code (?i)} the two that RE2 folds onto
         * ASCII letters (the long s, the Kelvin sign) leave the class to RE2.
         */
        private Chars characterClass() {
            pos++;
            boolean negated = pattern.charAt(pos) == '^';
            if (negated) {
                pos++;
            }
            if (pattern.charAt(pos) == ']') {
                throw new Unsupported(); // RE2 reads a leading ']' as itself: left to RE2
            }
            Chars set = new Chars(0L, 0L);
            while (pattern.charAt(pos) != ']') {
                if (pattern.startsWith("[:", pos)) {
                    set = union(set, posixClass());
                    continue;
                }
                if (pattern.charAt(pos) == '\\' && "dwsDWS".indexOf(pattern.charAt(pos + 1)) >= 0) {
                    set = union(set, escape(true));
                    continue;
                }
                int lo = classChar();
                int hi = lo;
                if (pattern.charAt(pos) == '-' && pattern.charAt(pos + 1) != ']') {
                    pos++;
                    if (pattern.charAt(pos) == '\\' && "dwsDWS".indexOf(pattern.charAt(pos + 1)) >= 0) {
                        throw new Unsupported();
                    }
                    hi = classChar();
                }
                if (hi < lo || fold && (holds(lo, hi, LONG_S) || holds(lo, hi, KELVIN))) {
                    throw new Unsupported(); // RE2 folds them onto s and k
                }
                for (int x = lo; x <= Math.min(hi, 127); x++) {
                    set = union(set, fold ? letter((char) x) : one((char) x));
                }
            }
            pos++;
            return negated ? complement(set) : set;
        }

        /**
         * A POSIX class inside brackets at pos, {@code [:alpha:]} or {@code [:^alpha:]}, as RE2 defines them (ASCII
         * only). Under {@code (?i)} only one that holds both cases of its letters ({@code [:lower:]} does not): RE2
         * folds the others its own way.
         */
        private Chars posixClass() {
            int close = pattern.indexOf(":]", pos + 2);
            if (close < 0) {
                throw new Unsupported();
            }
            String name = pattern.substring(pos + 2, close);
            boolean negated = name.startsWith("^");
            Chars set = POSIX.get(negated ? name.substring(1) : name);
            if (set == null || fold && !caseClosed(set)) {
                throw new Unsupported();
            }
            pos = close + 2;
            return negated ? complement(set) : set;
        }

        /** The one character of a set of one (an escape read as a character). */
        private static char single(Chars chars) {
            if (Long.bitCount(chars.low()) + Long.bitCount(chars.high()) != 1) {
                throw new Unsupported();
            }
            return (char) (chars.low() != 0 ? Long.numberOfTrailingZeros(chars.low())
                                            : 64 + Long.numberOfTrailingZeros(chars.high()));
        }
    }

    private static boolean holds(int lo, int hi, int c) {
        return lo <= c && c <= hi;
    }

    /** Whether the set holds both cases of each ASCII letter it holds. */
    private static boolean caseClosed(Chars set) {
        for (char c = 'A'; c <= 'Z'; c++) {
            if (contains(set, c) != contains(set, Character.toLowerCase(c))) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(Chars set, char c) {
        return c < 64 ? (set.low() & 1L << c) != 0 : (set.high() & 1L << (c - 64)) != 0;
    }

    private static Chars one(char c) {
        return c < 64 ? new Chars(1L << c, 0L) : new Chars(0L, 1L << (c - 64));
    }

    private static Chars range(char lo, char hi) {
        Chars out = new Chars(0L, 0L);
        for (char c = lo; c <= hi; c++) {
            out = union(out, one(c));
        }
        return out;
    }

    private static Chars union(Chars a, Chars b) {
        return new Chars(a.low | b.low, a.high | b.high);
    }

    private static Chars complement(Chars a) {
        return new Chars(~a.low, ~a.high);
    }
}

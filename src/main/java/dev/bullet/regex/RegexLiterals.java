package dev.bullet.regex;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a regular expression match requires of a value, in the manner of RE2's prefilter: an AND/OR formula over
 * substrings that every matching value contains, and — since RLIKE matches the whole value (SPEC §6.2) — the
 * characters a matching value can start and end with, and whether it can be empty. Literals and characters are
 * case-folded ({@link LiteralMatcher#fold(char)}) whatever the pattern's flags, so the answer holds for {@code (?i)}
 * parts as well as for case-sensitive ones (it is then only a little weaker). Conservative: anything this reader is
 * not sure of — non-ASCII characters, escapes other than punctuation and the common classes, POSIX classes,
 * {@code \Q..\E}, a repeat after a flag group — gives "no requirement, any characters", and the pattern is then
 * evaluated on every value. Works on patterns RE2/J has accepted.
 */
public final class RegexLiterals {
    /** Largest set of exact strings carried through a concatenation or an alternation before it becomes an OR. */
    private static final int MAX_EXACT = 16;
    /** Largest character class expanded into its characters as exact strings. */
    private static final int MAX_CLASS = 8;

    /** A formula over literal strings: a literal, an AND or an OR. */
    public sealed interface Requirement {
    }

    public record Literal(String text) implements Requirement {
    }

    public record And(List<Requirement> parts) implements Requirement {
    }

    public record Or(List<Requirement> parts) implements Requirement {
    }

    /**
     * Everything known about the values a pattern matches in whole.
     *
     * @param requirement the literals they contain, or {@code null} for none known
     * @param first the folded characters they can start with
     * @param last the folded characters they can end with
     * @param nullable whether the empty value can match
     */
    record Shape(Requirement requirement, CharMask first, CharMask last, boolean nullable, CharMask[] prefix,
                 CharMask need) {
        static final Shape UNKNOWN = new Shape(null, CharMask.ANY, CharMask.ANY, true, new CharMask[0], null);

        /** Whether a value may match: false only when it cannot. */
        boolean admits(CharSequence value) {
            if (value.length() == 0) {
                return nullable;
            }
            return first.contains(LiteralMatcher.fold(value.charAt(0)))
                   && last.contains(LiteralMatcher.fold(value.charAt(value.length() - 1)))
                   && startsAsPrefix(value) && (requirement != null || holdsNeed(value));
        }

        /**
         * Whether the value holds a character of {@link #need} (always, when there is none). {@link #admits} scans for
         * it only when the pattern requires no literal: a literal gates better, and its check holds the scan's answer.
         */
        boolean holdsNeed(CharSequence value) {
            if (need == null) {
                return true;
            }
            for (int i = 0, n = value.length(); i < n; i++) {
                if (need.contains(LiteralMatcher.fold(value.charAt(i)))) {
                    return true;
                }
            }
            return false;
        }

        /** Whether the value is at least as long as the prefix and its first characters are in the prefix's sets. */
        boolean startsAsPrefix(CharSequence value) {
            if (value.length() < prefix.length) {
                return false;
            }
            for (int i = 0; i < prefix.length; i++) {
                if (!prefix[i].contains(LiteralMatcher.fold(value.charAt(i)))) {
                    return false;
                }
            }
            return true;
        }

        /** A shape admitting what either admits (a clause with several patterns). */
        Shape or(Shape o) {
            Requirement r = requirement == null || o.requirement == null ? null : new Or(List.of(requirement, o.requirement));
            return new Shape(r, first.union(o.first), last.union(o.last), nullable || o.nullable,
                             new Prefix(prefix, false).or(new Prefix(o.prefix, false)).masks(), eitherNeed(need, o.need));
        }

        @Override
        public String toString() {
            return "Shape[requirement=" + requirement + ", first=" + first + ", last=" + last + ", nullable=" + nullable
                   + ", prefix=" + Arrays.toString(prefix) + ", need=" + need + "]";
        }
    }

    /**
     * What every whole match starts with, position by position: a match is at least {@code masks.length} characters
     * (UTF-16 units) long and its i-th character, folded, is in {@code masks[i]}; {@code complete}: every match is
     * exactly that long, so what follows it in a concatenation starts right after. Positions past {@link #MAX} are
     * not kept. An atom that may match a character outside the BMP (two UTF-16 units: {@code .}, a negated or
     * non-ASCII class) leaves the prefix incomplete.
     */
    record Prefix(CharMask[] masks, boolean complete) {
        static final int MAX = 4;
        static final Prefix NONE = new Prefix(new CharMask[0], false);
        static final Prefix EMPTY = new Prefix(new CharMask[0], true);

        /** One character of the set; of certain length only when the set is ASCII. */
        static Prefix one(CharMask chars) {
            return new Prefix(new CharMask[] {chars}, !chars.other());
        }

        /** This followed by {@code next}. */
        Prefix then(Prefix next) {
            if (!complete) {
                return this;
            }
            int n = Math.min(MAX, masks.length + next.masks.length);
            CharMask[] out = Arrays.copyOf(masks, n);
            System.arraycopy(next.masks, 0, out, masks.length, n - masks.length);
            return new Prefix(out, next.complete && masks.length + next.masks.length <= MAX);
        }

        /** Either this or {@code o}. */
        Prefix or(Prefix o) {
            int n = Math.min(masks.length, o.masks.length);
            CharMask[] out = new CharMask[n];
            for (int i = 0; i < n; i++) {
                out[i] = masks[i].union(o.masks[i]);
            }
            return new Prefix(out, complete && o.complete && masks.length == o.masks.length);
        }

        /** This at least {@code n} times (exactly, when {@code exact}). */
        Prefix times(int n, boolean exact) {
            Prefix p = EMPTY;
            for (int i = 0; i < n && p.complete; i++) {
                p = p.then(this);
            }
            return exact ? p : p.open();
        }

        /** The same start, followed by something of unknown length. */
        Prefix open() {
            return complete ? new Prefix(masks, false) : this;
        }
    }

    /** Thrown inside the reader for a construct it does not handle; the caller answers "unknown". */
    private static final class Unsure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unsure() {
            super(null, null, false, false);
        }
    }

    /** What one node can match: a small set of exact strings or else a requirement (null = none), and its shape. */
    private static final class Info {
        final Set<String> exact;
        final Requirement match;
        final boolean nullable;
        final CharMask first;
        final CharMask last;
        final Prefix prefix;
        /** A set of which every match holds a character (null: none known); always null when the node can be empty. */
        final CharMask need;

        Info(Set<String> exact, Requirement match, boolean nullable, CharMask first, CharMask last, Prefix prefix) {
            this(exact, match, nullable, first, last, prefix, null);
        }

        Info(Set<String> exact, Requirement match, boolean nullable, CharMask first, CharMask last, Prefix prefix,
             CharMask need) {
            this.exact = exact;
            this.match = match;
            this.nullable = nullable;
            this.first = first;
            this.last = last;
            this.prefix = prefix;
            this.need = nullable || need == null || need.isAny() ? null : need;
        }

        /** One character of a set, nothing known of which exactly. */
        static Info oneOf(CharMask chars) {
            return new Info(null, null, false, chars, chars, Prefix.one(chars), chars);
        }

        /** Matches only the empty string (anchors, flag groups). */
        static Info empty() {
            return new Info(strings(""), null, true, CharMask.NONE, CharMask.NONE, Prefix.EMPTY);
        }

        Requirement requirement() {
            return exact == null ? match : anyOf(exact);
        }

        /** The same shape with the strings forgotten and this requirement instead. */
        Info withMatch(Requirement r, boolean canBeEmpty, Prefix start) {
            return new Info(null, r, canBeEmpty, first, last, start, need);
        }
    }

    private static Set<String> strings(String s) {
        Set<String> out = new LinkedHashSet<>();
        out.add(s);
        return out;
    }

    /** OR of the exact strings; none when one is empty. */
    private static Requirement anyOf(Set<String> exact) {
        List<Requirement> parts = new ArrayList<>();
        for (String s : exact) {
            if (s.isEmpty()) {
                return null;
            }
            parts.add(new Literal(s));
        }
        return parts.size() == 1 ? parts.get(0) : new Or(parts);
    }

    private final String pattern;
    private int pos;

    private RegexLiterals(String pattern) {
        this.pattern = pattern;
    }

    /** The requirement of a pattern, or {@code null} when a match requires no literal (or the reader is unsure). */
    static Requirement of(String pattern) {
        return shape(pattern).requirement();
    }

    /** Everything known about the values the pattern matches in whole; {@link Shape#UNKNOWN} when unsure. */
    static Shape shape(String pattern) {
        try {
            RegexLiterals reader = new RegexLiterals(pattern);
            Info info = reader.alternation();
            if (reader.pos != pattern.length()) {
                return Shape.UNKNOWN;
            }
            return new Shape(info.requirement(), info.first, info.last, info.nullable, info.prefix.masks(), info.need);
        } catch (Unsure | IndexOutOfBoundsException | NumberFormatException e) {
            return Shape.UNKNOWN;
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
        Set<String> run = strings("");
        boolean exact = true;
        boolean nullable = true;
        CharMask first = CharMask.NONE;
        CharMask last = CharMask.NONE;
        Prefix prefix = Prefix.EMPTY;
        CharMask need = null;
        while (pos < pattern.length() && pattern.charAt(pos) != '|' && pattern.charAt(pos) != ')') {
            Info part = repetition();
            prefix = prefix.then(part.prefix);
            need = narrower(need, part.need);
            if (nullable) {
                first = first.union(part.first);
            }
            last = part.nullable ? last.union(part.last) : part.last;
            nullable = nullable && part.nullable;
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
                required = all(required, anyOf(run));
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
            return new Info(run, null, nullable, first, last, prefix, need);
        }
        return new Info(null, run == null ? required : all(required, anyOf(run)), nullable, first, last, prefix, need);
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
                atom = atom.withMatch(null, true, Prefix.NONE);
            } else if (c == '?') {
                pos++;
                atom = optional(atom);
            } else if (c == '+') {
                pos++;
                atom = atom.withMatch(atom.requirement(), atom.nullable, atom.prefix.open());
            } else if (c == '{' && repeatEnd() > 0) {
                int end = repeatEnd();
                String body = pattern.substring(pos + 1, end);
                pos = end + 1;
                int comma = body.indexOf(',');
                int min = Integer.parseInt(comma < 0 ? body : body.substring(0, comma));
                boolean exact = comma < 0 || body.substring(comma + 1).equals(Integer.toString(min));
                atom = min == 0 ? atom.withMatch(null, true, Prefix.NONE)
                                : atom.withMatch(atom.requirement(), atom.nullable, atom.prefix.times(min, exact));
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
        while (i < pattern.length() && pattern.charAt(i) >= '0' && pattern.charAt(i) <= '9') {
            i++;
            digits++;
        }
        if (digits == 0 || i >= pattern.length()) {
            return -1;
        }
        if (pattern.charAt(i) == ',') {
            i++;
            while (i < pattern.length() && pattern.charAt(i) >= '0' && pattern.charAt(i) <= '9') {
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
                return Info.oneOf(CharMask.ANY);
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
                if (Character.isHighSurrogate(c) && pos + 1 < pattern.length()
                    && Character.isLowSurrogate(pattern.charAt(pos + 1))) {
                    pos += 2; // one code point outside the BMP: a quantifier after it repeats both halves
                    return Info.oneOf(CharMask.ANY);
                }
                pos++;
                return literal(c);
        }
    }

    /** One character; a non-ASCII one is "any character" (under (?i) some fold onto ASCII letters). */
    private static Info literal(char c) {
        if (c >= 128) {
            return Info.oneOf(CharMask.ANY);
        }
        int folded = LiteralMatcher.fold(c);
        CharMask mask = CharMask.of(folded);
        return new Info(strings(String.valueOf((char) folded)), null, false, mask, mask, Prefix.one(mask), mask);
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
                return Info.oneOf(CharMask.DIGITS);
            case 'w':
                return Info.oneOf(CharMask.WORD);
            case 's':
                return Info.oneOf(CharMask.SPACE);
            case 'D':
            case 'W':
            case 'S':
                return Info.oneOf(CharMask.ANY);
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
        CharMask mask = CharMask.NONE;
        boolean listable = true;
        boolean first = true;
        while (first || pattern.charAt(pos) != ']') {
            first = false;
            if (pattern.startsWith("[:", pos)) {
                int end = pattern.indexOf(":]", pos + 2);
                if (end < 0) {
                    throw new Unsure();
                }
                boolean space = pattern.startsWith("[:space:]", pos); // Java's \s as RLIKE writes it
                pos = end + 2;
                mask = space ? mask.union(CharMask.SPACE).union(CharMask.of(0x0B)) : CharMask.ANY;
                listable = false;
                continue;
            }
            CharMask escaped = classEscape();
            if (escaped != null) {
                mask = mask.union(escaped);
                listable = false;
                continue;
            }
            char lo = classChar();
            char hi = lo;
            if (pattern.charAt(pos) == '-' && pattern.charAt(pos + 1) != ']') {
                pos++;
                if (classEscape() != null) {
                    throw new Unsure();
                }
                hi = classChar();
            }
            if (hi >= 128) {
                mask = CharMask.ANY; // non-ASCII, some of which fold onto ASCII letters
                listable = false;
                continue;
            }
            mask = mask.union(CharMask.range(lo, hi));
            if (hi - lo >= MAX_CLASS) {
                listable = false;
                continue;
            }
            for (char x = lo; x <= hi; x++) {
                chars.add((char) LiteralMatcher.fold(x));
            }
        }
        pos++;
        if (negated) {
            return Info.oneOf(CharMask.ANY);
        }
        if (!listable || chars.size() > MAX_CLASS) {
            return Info.oneOf(mask);
        }
        Set<String> s = new LinkedHashSet<>();
        for (char x : chars) {
            s.add(String.valueOf(x));
        }
        // a folded ASCII letter stands for both cases: the folded value meets it either way
        return new Info(s, null, false, mask, mask, Prefix.one(mask), mask);
    }

    /** The set of a class escape (\d, \w, \s and their negations) at pos, consumed; null when there is none. */
    private CharMask classEscape() {
        if (pattern.charAt(pos) != '\\') {
            return null;
        }
        switch (pattern.charAt(pos + 1)) {
            case 'd':
                pos += 2;
                return CharMask.DIGITS;
            case 'w':
                pos += 2;
                return CharMask.WORD;
            case 's':
                pos += 2;
                return CharMask.SPACE;
            case 'D':
            case 'W':
            case 'S':
                pos += 2;
                return CharMask.ANY;
            default:
                return null;
        }
    }

    /** One character of a class. */
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
            case 'n':
                return '\n';
            case 't':
                return '\t';
            case 'r':
                return '\r';
            case 'f':
                return '\f';
            case 'v':
                return (char) 0x0B;
            case 'x':
                return hexChar();
            default:
                throw new Unsure();
        }
    }

    /**
     * The character of a {@code \xHH} or {@code \x{H...}} escape whose 'x' was just read, consumed; one past ASCII
     * as U+0080 (the class reader counts every such one alike).
     */
    private char hexChar() {
        HexEscape hex = HexEscape.at(pattern, pos);
        if (hex == null) {
            throw new Unsure();
        }
        pos = hex.end();
        return hex.codePoint() < 128 ? (char) hex.codePoint() : (char) 0x80;
    }

    private static Info optional(Info atom) {
        if (atom.exact != null && atom.exact.size() < MAX_EXACT) {
            Set<String> s = new LinkedHashSet<>(atom.exact);
            s.add("");
            return new Info(s, null, true, atom.first, atom.last, Prefix.NONE);
        }
        return atom.withMatch(null, true, Prefix.NONE);
    }

    private static Info or(Info a, Info b) {
        boolean nullable = a.nullable || b.nullable;
        CharMask first = a.first.union(b.first);
        CharMask last = a.last.union(b.last);
        Prefix prefix = a.prefix.or(b.prefix);
        CharMask need = eitherNeed(a.need, b.need);
        if (a.exact != null && b.exact != null && a.exact.size() + b.exact.size() <= MAX_EXACT) {
            Set<String> s = new LinkedHashSet<>(a.exact);
            s.addAll(b.exact);
            return new Info(s, null, nullable, first, last, prefix, need);
        }
        Requirement x = a.requirement();
        Requirement y = b.requirement();
        if (x == null || y == null) {
            return new Info(null, null, nullable, first, last, prefix, need);
        }
        List<Requirement> parts = new ArrayList<>();
        for (Requirement r : List.of(x, y)) {
            if (r instanceof Or) {
                parts.addAll(((Or) r).parts());
            } else {
                parts.add(r);
            }
        }
        return new Info(null, new Or(parts), nullable, first, last, prefix, need);
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

    /** Of two sets a match must each hold a character of, the one with fewer characters (either may be null). */
    private static CharMask narrower(CharMask a, CharMask b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return b.size() < a.size() ? b : a;
    }

    /** What a match of either of two nodes must hold: a character of both sets together; nothing when one has none. */
    private static CharMask eitherNeed(CharMask a, CharMask b) {
        return a == null || b == null ? null : a.union(b);
    }
}

package dev.bullet.regex;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * An RLIKE pattern as the original Bullet reads it (java.util.regex), written in RE2's syntax so that RE2/J matches
 * exactly the values Java's {@code matches()} matches. Where the two engines read the same text differently, the
 * pattern is rewritten:
 *
 * <ul>
 *   <li>{@code .} is any character but Java's line terminators ({@code \n}, {@code \r}, U+0085, U+2028, U+2029; RE2's leaves out
 *       {@code \n} only): {@link #DOT}, unless {@code (?s)} or {@code (?d)} holds;</li>
 *   <li>{@code \s} and {@code \S} hold {@code \x0B} as Java's do ({@code [[:space:]]}); {@code \v}, {@code \h} and
 *       their negations are Java's vertical and horizontal whitespace; {@code \e}, Java's {@code u} escapes (four hexadecimal digits) and {@code \0ooo}
 *       are written as {@code \x{...}};</li>
 *   <li>Java's POSIX classes ({@code \p{Alpha}}, {@code \P{Punct}}...) are RE2's ({@code [[:alpha:]]}), which match
 *       the same ASCII characters;</li>
 *   <li>under {@code (?i)} Java folds ASCII letters only: another letter written in the pattern matches itself
 *       ({@code (?-i:é)});</li>
 *   <li>the flag {@code d}, which RE2 does not know, is read here and left out.</li>
 * </ul>
 *
 * <p>A class nested in a class ({@code [a[bc]]}, Java's union) is written as one class: to Java {@code [[:digit:]]}
 * is the characters {@code :digt}, not RE2's POSIX class. What Java reads in a way no RE2 pattern can follow is
 * refused ({@link Unsupported}): a nested class with {@code ^} or inside one (Java 8 and 9 read it differently),
 * {@code &&} inside a class (an intersection), {@code \V \H \Q} inside a class, {@code (?x)}, {@code (?U)} (RE2's
 * {@code U} means lazy repeats), {@code (?u)}, and a class mixing ASCII letters with other letters under
 * {@code (?i)}. Everything else is copied, so RE2 refuses what it cannot run (backreferences, lookaround).
 * Stateless.
 */
public final class JavaRegex {
    private JavaRegex() {
    }

    /** Java's {@code .} without {@code (?s)}: any character but a line terminator. */
    public static final String DOT = "[^\\n\\r\\x{85}\\x{2028}\\x{2029}]";
    /** Java's vertical whitespace ({@code \v}), as members of a class. */
    private static final String VERTICAL = "\\n\\x0B\\f\\r\\x{85}\\x{2028}\\x{2029}";
    /** Java's horizontal whitespace ({@code \h}), as members of a class. */
    private static final String HORIZONTAL = " \\t\\x{A0}\\x{1680}\\x{180E}\\x{2000}-\\x{200A}\\x{202F}\\x{205F}\\x{3000}";

    private static final Map<String, String> POSIX = Map.ofEntries(
            Map.entry("Lower", "lower"), Map.entry("Upper", "upper"), Map.entry("ASCII", "ascii"),
            Map.entry("Alpha", "alpha"), Map.entry("Digit", "digit"), Map.entry("Alnum", "alnum"),
            Map.entry("Punct", "punct"), Map.entry("Graph", "graph"), Map.entry("Print", "print"),
            Map.entry("Blank", "blank"), Map.entry("Cntrl", "cntrl"), Map.entry("XDigit", "xdigit"),
            Map.entry("Space", "space"));

    /** A pattern Java reads in a way RE2 cannot be made to; the message says what and how to write it. */
    public static final class Unsupported extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        Unsupported(String message) {
            super(message);
        }
    }

    private static final int FOLD = 1;
    private static final int DOT_ALL = 2;
    private static final int UNIX_LINES = 4;

    /**
     * The pattern in RE2's syntax with Java's meaning; the same string when nothing in it needs writing.
     *
     * @throws Unsupported when Java reads it in a way RE2 cannot follow
     */
    public static String toRe2(String pattern) {
        boolean plain = true;
        for (int i = 0; i < pattern.length() && plain; i++) {
            plain = ".\\[(".indexOf(pattern.charAt(i)) < 0;
        }
        return plain ? pattern : new Writer(pattern).write();
    }

    private static final class Writer {
        private final String p;
        private final StringBuilder out;
        private int pos;
        private int flags;
        /** The flags outside each open group, restored at its end (as Java and RE2 both do). */
        private final Deque<Integer> outer = new ArrayDeque<>();

        Writer(String pattern) {
            this.p = pattern;
            this.out = new StringBuilder(pattern.length() + 32);
        }

        String write() {
            int n = p.length();
            while (pos < n) {
                char c = p.charAt(pos);
                switch (c) {
                    case '\\' -> escape();
                    case '[' -> characterClass();
                    case '.' -> {
                        pos++;
                        out.append((flags & (DOT_ALL | UNIX_LINES)) != 0 ? "." : DOT);
                    }
                    case '(' -> group();
                    case ')' -> {
                        pos++;
                        out.append(')');
                        if (!outer.isEmpty()) {
                            flags = outer.pop();
                        }
                    }
                    default -> {
                        int cp = p.codePointAt(pos);
                        pos += Character.charCount(cp);
                        literal(cp, false);
                    }
                }
            }
            return out.toString();
        }

        /**
         * Whether {@code (?i)} holds here, under which Java folds ASCII letters only. (RE2/J never folds a letter past
         * ASCII of a pattern written here: besides Java's meaning, some of them, U+1C80 and its kin, send its folding
         * into a loop that never ends.)
         */
        private boolean asciiFold() {
            return (flags & FOLD) != 0;
        }

        /** A character meant as itself; {@code escaped}: written as {@code \x{...}}. */
        private void literal(int cp, boolean escaped) {
            String text = escaped || cp < 0x20 ? "\\x{" + Integer.toHexString(cp) + "}" : new String(Character.toChars(cp));
            if (cp >= 128 && asciiFold()) {
                out.append("(?-i:").append(text).append(')');
            } else {
                out.append(text);
            }
        }

        private void escape() {
            if (pos + 1 >= p.length()) {
                out.append('\\'); // RE2 refuses a trailing backslash as Java does
                pos++;
                return;
            }
            char e = p.charAt(pos + 1);
            switch (e) {
                case 's' -> append("[[:space:]]", 2);
                case 'S' -> append("[^[:space:]]", 2);
                case 'v' -> append("[" + VERTICAL + "]", 2);
                case 'V' -> append("[^" + VERTICAL + "]", 2);
                case 'h' -> append("[" + HORIZONTAL + "]", 2);
                case 'H' -> append("[^" + HORIZONTAL + "]", 2);
                case 'p', 'P' -> {
                    String posix = posixName();
                    if (posix == null) {
                        append(p.substring(pos, pos + 2), 2);
                    } else {
                        out.append(e == 'P' ? "[^[:" : "[[:").append(posix).append(":]]");
                    }
                }
                case 'Q' -> quoted();
                case 'e', 'u', '0', 'x' -> literal(escapedChar(), true);
                default -> {
                    if (e >= 128) {
                        int cp = p.codePointAt(pos + 1);
                        pos += 1 + Character.charCount(cp);
                        literal(cp, false);
                    } else {
                        append(p.substring(pos, pos + 2), 2);
                    }
                }
            }
        }

        private void append(String text, int consumed) {
            out.append(text);
            pos += consumed;
        }

        /**
         * The RE2 name of a Java POSIX class at pos ({@code \p{Alpha}}), consumed; null, nothing consumed, for
         * anything else ({@code \pL}, {@code \p{Greek}}: the same in both engines, or refused by RE2).
         */
        private String posixName() {
            if (pos + 2 >= p.length() || p.charAt(pos + 2) != '{') {
                return null;
            }
            int close = p.indexOf('}', pos + 3);
            String name = close < 0 ? null : POSIX.get(p.substring(pos + 3, close));
            if (name != null) {
                pos = close + 1;
            }
            return name;
        }

        /** {@code \Q...\E}: each character as itself. */
        private void quoted() {
            int end = p.indexOf("\\E", pos + 2);
            int stop = end < 0 ? p.length() : end;
            for (int i = pos + 2; i < stop; ) {
                int cp = p.codePointAt(i);
                i += Character.charCount(cp);
                if (cp < 128 && !Character.isLetterOrDigit(cp) && cp >= 0x20) {
                    out.append('\\').append((char) cp);
                } else {
                    literal(cp, false);
                }
            }
            pos = end < 0 ? p.length() : end + 2;
        }

        /**
         * The character of an escape at pos that names one ({@code \e}, a {@code u} escape of four hexadecimal digits, {@code \0ooo},
         * {@code \xHH}, {@code \x{H...}}), consumed.
         */
        private int escapedChar() {
            char e = p.charAt(pos + 1);
            pos += 2;
            switch (e) {
                case 'e':
                    return 0x1B;
                case 'u': {
                    char unit = (char) hex(4);
                    if (Character.isHighSurrogate(unit) && p.startsWith("\\u", pos)) {
                        int save = pos;
                        pos += 2;
                        char low = (char) hex(4);
                        if (Character.isLowSurrogate(low)) {
                            return Character.toCodePoint(unit, low);
                        }
                        pos = save;
                    }
                    return unit;
                }
                case '0': {
                    int digits = pos + 2 < p.length() && p.charAt(pos) <= '3' ? 3 : 2;
                    int value = 0;
                    int read = 0;
                    while (read < digits && pos < p.length() && p.charAt(pos) >= '0' && p.charAt(pos) <= '7') {
                        value = value * 8 + p.charAt(pos++) - '0';
                        read++;
                    }
                    if (read == 0) {
                        throw new Unsupported("\\0 must be followed by an octal number (\\0ooo)");
                    }
                    return value;
                }
                default: { // 'x'
                    HexEscape hex = HexEscape.at(p, pos);
                    if (hex == null) {
                        throw new Unsupported("\\x must be followed by two hexadecimal digits, or by {digits}");
                    }
                    pos = hex.end();
                    return hex.codePoint();
                }
            }
        }

        private int hex(int digits) {
            if (pos + digits > p.length()) {
                throw new Unsupported("an escape needs " + digits + " hexadecimal digits");
            }
            int value = parseHex(p.substring(pos, pos + digits));
            pos += digits;
            return value;
        }

        private static int parseHex(String digits) {
            try {
                int value = Integer.parseInt(digits, 16);
                if (digits.isEmpty() || digits.charAt(0) == '+' || digits.charAt(0) == '-'
                    || value > Character.MAX_CODE_POINT) {
                    throw new NumberFormatException();
                }
                return value;
            } catch (NumberFormatException e) {
                throw new Unsupported("\"" + digits + "\" is not a hexadecimal character code");
            }
        }

        /**
         * A group's opening: flags read and written as RE2's ({@code d} and {@code u} read here only), saved to be
         * restored at its end; a flag group ({@code (?i)}) sets them to the end of the group it is in.
         */
        private void group() {
            if (!p.startsWith("(?", pos)) {
                outer.push(flags);
                append("(", 1);
                return;
            }
            int i = pos + 2;
            int on = 0;
            int off = 0;
            boolean negate = false;
            StringBuilder re2On = new StringBuilder();
            StringBuilder re2Off = new StringBuilder();
            for (; i < p.length() && "idmsuxU-".indexOf(p.charAt(i)) >= 0; i++) {
                char f = p.charAt(i);
                if (f == '-') {
                    negate = true;
                    continue;
                }
                int bit = switch (f) { // x, U and u are refused below; turning them off changes nothing
                    case 'i' -> FOLD;
                    case 's' -> DOT_ALL;
                    case 'd' -> UNIX_LINES;
                    default -> 0;
                };
                if (!negate && f == 'x') {
                    throw new Unsupported("(?x) (comments) is not supported: write the pattern without spaces or comments");
                }
                if (!negate && f == 'U') {
                    throw new Unsupported("(?U) (Unicode character classes) is not supported");
                }
                if (!negate && f == 'u') {
                    throw new Unsupported("(?u) (Unicode case folding) is not supported: (?i) folds ASCII letters, "
                                          + "write the cases of other letters as a class, e.g. [éÉ]");
                }
                if (negate) {
                    off |= bit;
                } else {
                    on |= bit;
                }
                if ("ims".indexOf(f) >= 0) {
                    (negate ? re2Off : re2On).append(f);
                }
            }
            if (i >= p.length() || p.charAt(i) != ')' && p.charAt(i) != ':' || i == pos + 2) {
                outer.push(flags); // (?<name>...), (?P<name>...), lookaround...: RE2 runs or refuses it
                append("(", 1);
                return;
            }
            boolean scoped = p.charAt(i) == ':';
            String written = re2On + (re2Off.length() > 0 ? "-" + re2Off : "");
            if (scoped) {
                outer.push(flags);
                out.append("(?").append(written).append(':');
            } else if (!written.isEmpty()) {
                out.append("(?").append(written).append(')');
            }
            flags = (flags | on) & ~off;
            pos = i + 1;
        }

        /** A class, {@code [...]} or {@code [^...]}: Java's members written as RE2's. */
        private void characterClass() {
            int start = pos;
            pos++;
            boolean negated = pos < p.length() && p.charAt(pos) == '^';
            if (negated) {
                pos++;
            }
            StringBuilder members = new StringBuilder();
            Letters letters = new Letters();
            readMembers(members, letters, negated, start);
            String written = (negated ? "[^" : "[") + members + "]";
            if (letters.other && asciiFold()) {
                if (letters.ascii) {
                    throw new Unsupported("under (?i) Java folds only ASCII letters, and RE2 cannot be told to in a "
                                          + "class that holds both: write the other letters' class apart, e.g. "
                                          + "(?:[a-z]|[éè])");
                }
                out.append("(?-i:").append(written).append(')');
            } else {
                out.append(written);
            }
        }

        /**
         * The members of a class up to its closing {@code ]}, consumed. A class nested in it ({@code [a[bc]]}, Java's
         * union; {@code [[:digit:]]} is the characters {@code :digt} to Java) adds its members; a '-' after it is a
         * character ({@code [[a]-z]}).
         */
        private void readMembers(StringBuilder members, Letters letters, boolean negated, int start) {
            int previous = -1; // the last member if it was one character, for a range after it
            boolean first = true;
            while (true) {
                if (pos >= p.length()) {
                    throw new Unsupported("the class at " + start + " is not closed with ]");
                }
                char c = p.charAt(pos);
                if (c == ']' && !first) {
                    pos++;
                    return;
                }
                first = false;
                if (c == '[') {
                    if (negated || p.startsWith("[^", pos)) {
                        throw new Unsupported("a class nested in a class with ^, or with ^ itself, is not supported: "
                                              + "write the characters it keeps, or \\[ for the character");
                    }
                    pos++;
                    readMembers(members, letters, false, pos - 1);
                    previous = -1;
                    continue;
                }
                if (c == '&' && p.startsWith("&&", pos)) {
                    throw new Unsupported("&& inside a class (an intersection) is not supported: write the class "
                                          + "with the characters it keeps");
                }
                if (c == '-' && previous >= 0 && pos + 1 < p.length() && p.charAt(pos + 1) != ']'
                    && p.charAt(pos + 1) != '[') {
                    pos++;
                    members.append('-');
                    int hi = classChar(members, letters);
                    if (hi < 0) {
                        throw new Unsupported("a range in a class must end with a character");
                    }
                    letters.note(previous, hi);
                    previous = -1;
                    continue;
                }
                previous = classChar(members, letters);
            }
        }

        /**
         * Which letters a class holds: ASCII ones, others (any character past ASCII, to be safe). A set closed under
         * case ({@code \\S}, {@code \\w}, a POSIX class) counts as ASCII letters only.
         */
        private static final class Letters {
            boolean ascii;
            boolean other;

            void note(int lo, int hi) {
                ascii |= lo <= 'z' && hi >= 'A' && !(hi < 'a' && lo > 'Z');
                other |= hi >= 128;
            }
        }

        /**
         * One member of a class at pos, written as RE2's and consumed: the character it is, or -1 for a set
         * ({@code \s}, a POSIX class...).
         */
        private int classChar(StringBuilder members, Letters letters) {
            char c = p.charAt(pos);
            if (c != '\\') {
                int cp = p.codePointAt(pos);
                pos += Character.charCount(cp);
                if ("-]^[".indexOf(cp) >= 0) {
                    members.append('\\'); // the character itself wherever it stands among the members
                }
                members.appendCodePoint(cp);
                letters.note(cp, cp);
                return cp;
            }
            if (pos + 1 >= p.length()) {
                throw new Unsupported("a class is not closed with ]");
            }
            char e = p.charAt(pos + 1);
            switch (e) {
                case 's' -> members.append("[:space:]");
                case 'S' -> {
                    members.append("[:^space:]");
                    letters.ascii = true;
                }
                case 'v' -> members.append(VERTICAL);
                case 'h' -> members.append(HORIZONTAL);
                case 'V', 'H' -> throw new Unsupported("\\" + e + " inside a class is not supported: write "
                                                       + "(?:[...]|\\" + e + ") instead");
                case 'Q' -> throw new Unsupported("\\Q...\\E inside a class is not supported: escape each "
                                                  + "character with \\");
                case 'p', 'P' -> {
                    String posix = posixName();
                    if (posix != null) {
                        members.append(e == 'P' ? "[:^" : "[:").append(posix).append(":]");
                        letters.ascii = true;
                        return -1;
                    }
                    members.append(p, pos, pos + 2); // \pL, \p{Greek}...: RE2 reads the name that follows
                    letters.note('A', 0x10FFFF);
                }
                case 'e', 'u', '0', 'x' -> {
                    int cp = escapedChar();
                    members.append("\\x{").append(Integer.toHexString(cp)).append('}');
                    letters.note(cp, cp);
                    return cp;
                }
                case 'w', 'W', 'D' -> {
                    members.append(p, pos, pos + 2);
                    letters.ascii = true;
                }
                default -> {
                    if (e >= 128) {
                        int cp = p.codePointAt(pos + 1);
                        pos += 1 + Character.charCount(cp);
                        members.appendCodePoint(cp);
                        letters.note(cp, cp);
                        return cp;
                    }
                    members.append(p, pos, pos + 2);
                    pos += 2;
                    int cp = switch (e) {
                        case 'n' -> '\n';
                        case 't' -> '\t';
                        case 'r' -> '\r';
                        case 'f' -> '\f';
                        case 'a' -> 7;
                        default -> Character.isLetterOrDigit(e) ? -1 : e;
                    };
                    return cp;
                }
            }
            pos += 2;
            return -1;
        }

        private static boolean isAsciiLetter(int cp) {
            return cp < 128 && Character.isLetter(cp);
        }
    }
}

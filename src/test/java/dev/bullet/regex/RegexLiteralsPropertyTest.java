package dev.bullet.regex;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.bullet.regex.RegexLiterals.And;
import dev.bullet.regex.RegexLiterals.Literal;
import dev.bullet.regex.RegexLiterals.Or;
import dev.bullet.regex.RegexLiterals.Requirement;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The prefilter may only widen: over random patterns (literals, classes, groups, alternations, quantifiers, flags,
 * escapes) and random values (mixed case, the two non-ASCII letters RE2 folds onto ASCII, other non-ASCII, newlines),
 * whenever RE2/J matches a value, the literals the pattern is said to require are all there (as the Aho–Corasick
 * matcher finds them in the folded value). Also: the matcher agrees with a naive search, and common log-search
 * patterns do get a requirement.
 */
class RegexLiteralsPropertyTest {
    private static final String[] ATOMS = {"a", "b", "A", "k", "K", "s", "x", "-", "\\.", ".", "[ab]", "[^a]", "[a-c]",
                                           "[K]", "[]a]", "\\d", "\\w", "\\s", "\\-", "\\b", "^", "$", "é", "[ks]", "{",
                                           "[[:alpha:]]", "\\pL", "\\x41", "[a-z]", "ab", "error", "ERR", "(?i)", "(?-i)",
                                           "\\Qa.\\E", "\\n", "[\\d_]", "[a-k]", "[0-9]", "\\D", "[A-Z]", "[\\w.]",
                                           "[^0-9]", "[a\\-z]", "\\S", "[ -~]", "\uD83D\uDE00", "[a-f]", "x{3}",
                                           "[0-9]{2,}", "(ab|c)"};
    private static final String[] QUANTIFIERS = {"", "", "", "*", "+", "?", "{2}", "{0,1}", "{1,}", "*?", "+?", "{2,3}",
                                                 "{1}"};
    private static final char[] VALUE_CHARS = {'a', 'b', 'A', 'B', 'k', 'K', '\u212A', '\u017F', 's', 'S', 'x', '.', '-',
                                               '\n', '1', '_', ' ', '9', 'Z', '\u00e9', 'e', 'r', 'o', 'R', 'E', 'c', ']', '{'};

    private static String pattern(Random r, int depth) {
        StringBuilder out = new StringBuilder();
        int parts = 1 + r.nextInt(4);
        for (int i = 0; i < parts; i++) {
            int kind = r.nextInt(depth > 2 ? 8 : 11);
            if (kind < 8) {
                out.append(ATOMS[r.nextInt(ATOMS.length)]);
            } else if (kind == 8) {
                out.append('(').append(pattern(r, depth + 1)).append('|').append(pattern(r, depth + 1)).append(')');
            } else if (kind == 9) {
                out.append(r.nextBoolean() ? "(?i:" : "(?:").append(pattern(r, depth + 1)).append(')');
            } else {
                out.append("(?P<g").append(depth).append(i).append('>').append(pattern(r, depth + 1)).append(')');
            }
            out.append(QUANTIFIERS[r.nextInt(QUANTIFIERS.length)]);
        }
        if (depth == 0 && r.nextInt(4) == 0) {
            out.append('|').append(pattern(r, 1));
        }
        return out.toString();
    }

    private static String value(Random r) {
        StringBuilder out = new StringBuilder();
        for (int i = r.nextInt(9); i > 0; i--) {
            if (r.nextInt(40) == 0) {
                out.append("\uD83D\uDE00"); // outside the BMP: one code point, two UTF-16 units
            } else {
                out.append(VALUE_CHARS[r.nextInt(VALUE_CHARS.length)]);
            }
        }
        return out.toString();
    }

    private static void literals(Requirement r, List<String> out) {
        if (r instanceof Literal) {
            out.add(((Literal) r).text());
        } else {
            for (Requirement p : r instanceof And ? ((And) r).parts() : ((Or) r).parts()) {
                literals(p, out);
            }
        }
    }

    private static boolean holds(Requirement r, Set<String> found) {
        if (r instanceof Literal) {
            return found.contains(((Literal) r).text());
        }
        if (r instanceof And) {
            return ((And) r).parts().stream().allMatch(p -> holds(p, found));
        }
        return ((Or) r).parts().stream().anyMatch(p -> holds(p, found));
    }

    /** The literals collect finds in the value, each once; the same whether it reads a String or ASCII bytes. */
    private static Set<String> found(LiteralMatcher matcher, List<String> literals, String value) {
        Set<String> found = collected(matcher, literals, value);
        if (value.chars().allMatch(c -> c < 128)) {
            byte[] bytes = ("\"" + value + "\"").getBytes(StandardCharsets.US_ASCII);
            assertEquals(found, collected(matcher, literals, new AsciiText().set(bytes, 1, bytes.length - 1)),
                         "collect of the bytes of " + value);
        }
        return found;
    }

    private static Set<String> collected(LiteralMatcher matcher, List<String> literals, CharSequence text) {
        boolean[] seen = new boolean[literals.size()];
        int[] list = new int[literals.size()];
        int n = matcher.collect(text, seen, list);
        Set<String> collected = new HashSet<>();
        for (int i = 0; i < n; i++) {
            assertTrue(seen[list[i]]);
            assertTrue(collected.add(literals.get(list[i])), "each literal once");
        }
        return collected;
    }

    @Test
    void everyMatchHoldsTheRequiredLiterals() {
        Random r = new Random(1313);
        int withRequirement = 0;
        int checkedMatches = 0;
        int checkedShapes = 0;
        int gateRejections = 0;
        for (int round = 0; round < 20_000; round++) {
            String text = pattern(r, 0);
            if (r.nextInt(3) == 0) {
                text = "(?i)" + text;
            }
            Pattern pattern;
            try {
                pattern = Pattern.compile(text);
            } catch (PatternSyntaxException e) {
                continue; // only patterns RE2/J accepts reach the index
            }
            RegexLiterals.Shape shape = RegexLiterals.shape(text);
            RegexGate gate = RegexGate.of(text);
            for (int k = 0; k < 40; k++) {
                String value = value(r);
                boolean admitted = gate.admits(value);
                if (pattern.matcher(value).matches()) {
                    checkedShapes++;
                    assertTrue(shape.admits(value), "pattern " + text + " matches the whole of '" + value
                                                    + "' but its shape " + shape + " does not admit it");
                    assertTrue(admitted, "pattern " + text + " matches the whole of '" + value
                                         + "' but its gate turns it away");
                } else if (!admitted) {
                    gateRejections++;
                }
            }
            Requirement requirement = shape.requirement();
            if (requirement == null) {
                continue;
            }
            withRequirement++;
            List<String> literals = new ArrayList<>();
            literals(requirement, literals);
            List<String> distinct = literals.stream().distinct().toList();
            LiteralMatcher matcher = new LiteralMatcher(distinct);
            for (int k = 0; k < 40; k++) {
                String value = value(r);
                if (pattern.matcher(value).find()) {
                    checkedMatches++;
                    assertTrue(holds(requirement, found(matcher, distinct, value)),
                               "pattern " + text + " matches '" + value + "' but its requirement " + requirement
                               + " does not hold");
                }
            }
        }
        assertTrue(withRequirement > 3_000, "too few patterns with a requirement: " + withRequirement);
        assertTrue(checkedMatches > 3_000, "too few matches checked: " + checkedMatches);
        assertTrue(checkedShapes > 3_000, "too few whole matches checked: " + checkedShapes);
        assertTrue(gateRejections > 10_000, "the gate turned away too few values to be worth it: " + gateRejections);
    }

    @Test
    void matcherAgreesWithANaiveSearch() {
        Random r = new Random(7);
        for (int round = 0; round < 2_000; round++) {
            List<String> literals = new ArrayList<>();
            for (int i = 1 + r.nextInt(6); i > 0; i--) {
                String v = value(r).replaceAll("[^a-z1.\\-\\]{]", "");
                if (!v.isEmpty() && !literals.contains(v.toLowerCase(Locale.ROOT))) {
                    literals.add(v.toLowerCase(Locale.ROOT));
                }
            }
            if (literals.isEmpty()) {
                continue;
            }
            LiteralMatcher matcher = new LiteralMatcher(literals, round % 2 == 1); // 16- and 32-bit tables
            for (int k = 0; k < 20; k++) {
                String value = value(r) + value(r);
                StringBuilder folded = new StringBuilder();
                for (char c : value.toCharArray()) {
                    folded.append((char) LiteralMatcher.fold(c));
                }
                Set<String> expected = new HashSet<>();
                for (String l : literals) {
                    if (folded.indexOf(l) >= 0) {
                        expected.add(l);
                    }
                }
                assertEquals(expected, found(matcher, literals, value), literals + " in '" + value + "'");
            }
        }
    }

    @Test
    void wholeValueShapesKnowFirstAndLastCharacters() {
        RegexLiterals.Shape digits = RegexLiterals.shape("[0-9]{2}[a-f]+.*");
        assertTrue(digits.admits("12abc"));
        assertFalse(digits.admits("a12"));
        assertFalse(digits.admits(""));
        // the first positions: two digits, then a-f
        assertFalse(digits.admits("1abc"), "the second character must be a digit");
        assertFalse(digits.admits("123bc"), "the third character must be in a-f");
        assertFalse(digits.admits("12"), "too short");
        assertTrue(RegexLiterals.shape("(ab|c)d.*").admits("cdx"));
        assertFalse(RegexLiterals.shape("(ab|cd)e.*").admits("axex"), "both branches have a b or d second");
        assertTrue(RegexLiterals.shape(".{2}x").admits("\uD83D\uDE00\uD83D\uDE00x"), "a dot can be two UTF-16 units");
        assertTrue(RegexLiterals.shape("a+b").admits("aaab"));
        assertFalse(RegexLiterals.shape("a{2}b").admits("abb"));
        RegexLiterals.Shape twoDigits = RegexLiterals.shape(".*[0-9]{2}.*");
        assertFalse(twoDigits.admits("bazo"), "no digit: no match");
        assertTrue(twoDigits.admits("zw1c69"));
        assertFalse(RegexLiterals.shape(".*(\\d|_)x?").admits("abc"), "a digit or an underscore");
        assertTrue(RegexLiterals.shape(".*(\\d|_)x?").admits("ab_"));
        assertTrue(RegexLiterals.shape(".*[0-9]*").admits("abc"), "a starred class needs nothing");
        RegexLiterals.Shape prefix = RegexLiterals.shape("(?i)Ba.*[xz]");
        assertTrue(prefix.admits("bAnjx"));
        assertFalse(prefix.admits("abaz"));
        assertFalse(prefix.admits("bay"));
        assertTrue(RegexLiterals.shape("a*").admits(""));
        assertTrue(RegexLiterals.shape("(?i)k").admits("\u212A"), "KELVIN SIGN folds onto k");
        assertTrue(RegexLiterals.shape("\u00e9t\u00e9").admits("\u00c9T\u00c9"));
    }

    @Test
    void logSearchPatternsRequireTheirWords() {
        assertEquals(new Literal("error"), RegexLiterals.of(".*error.*"));
        assertEquals(new Literal("get /api"), RegexLiterals.of("^GET /api.*"));
        assertEquals(new Literal("timeout"), RegexLiterals.of("(?i).*TimeOut.*"));
        assertEquals(new Or(List.of(new Literal("alpha"), new Literal("bravo"))), RegexLiterals.of("(alpha|bravo)"));
        assertEquals(new Or(List.of(new Literal("balpha"), new Literal("kalpha"))), RegexLiterals.of("[bk]alpha"));
        assertEquals(new And(List.of(new Literal("user="), new Literal("denied"))),
                     RegexLiterals.of(".*user=\\d+.*denied.*"));
        assertNotNull(RegexLiterals.of("^zz1q.*x$"));
        assertNull(RegexLiterals.of("[0-9]{2}\\w+.*"));
        assertNull(RegexLiterals.of(".*"));
        assertNull(RegexLiterals.of("a*"));
        assertNull(RegexLiterals.of("error|.*"));
        assertNull(RegexLiterals.of("\\x{65}rror"), "unsure escapes give no requirement");
        assertFalse(RegexLiterals.of("caf\u00e9") instanceof Literal && ((Literal) RegexLiterals.of("caf\u00e9")).text()
                .contains("\u00e9"), "non-ASCII is never a literal");
    }
}

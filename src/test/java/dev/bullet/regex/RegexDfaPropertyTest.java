package dev.bullet.regex;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.bullet.querying.Predicates;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lazy DFA answers exactly as RE2/J's whole-value match (the RLIKE rule) over random patterns and random values:
 * the patterns mix what it compiles (case, classes, negations, repeats, alternation, anchors, {@code (?i)}) with what
 * it must leave to RE2 (flag groups, named groups, word boundaries, Unicode classes, POSIX classes, odd braces); values
 * mix case, newlines, punctuation and non-ASCII (where it must say {@link RegexDfa#NOT_ASCII}). Many patterns at once
 * must each answer as they do alone, also once the state cache has started again.
 */
class RegexDfaPropertyTest {
    private static final String[] ATOMS = {"a", "b", "A", "k", "K", "s", "x", "-", "\\.", ".", "[ab]", "[^a]", "[a-c]",
                                           "[K]", "[]a]", "\\d", "\\w", "\\s", "\\-", "\\b", "^", "$", "é", "[ks]", "{",
                                           "}", "]", "[[:alpha:]]", "\\pL", "\\x41", "[a-z]", "ab", "error", "ERR",
                                           "(?i)", "(?-i)", "\\Qa.\\E", "\\n", "[\\d_]", "[a-k]", "[0-9]", "\\D",
                                           "[A-Z]", "[\\w.]", "[^0-9]", "[a\\-z]", "\\S", "[ -~]", "\uD83D\uDE00",
                                           "[a-f]", "x{3}", "[0-9]{2,}", "(ab|c)", "\\W", "[^\\n]", "[-a]", "[a-]",
                                           "\\_", "\\$", "\\^", "[.]", "\\t", "[\\D]", "[^\\s]", "\\{", "()", "\\z",
                                           "[a-b-]", "\\\\", "[\\^]", "[^-]", "(?s)", "(?-s)", "(?is)", "[[:digit:]]",
                                           "[[:^alpha:]]", "[[:space:]x]", "[[:punct:]]", "[^[:lower:]]", "[[:word:]]",
                                           "[[:xdigit:][:blank:]]", "[[:foo:]]", "(?m)", "(?U)", JavaRegex.DOT,
                                           "[\\x{85}a]", "[^\\x{2028}b]", "\\v", "[\\v]", "\\x{e9}", "[\\x00-\\x{2FF}]",
                                           "[^\\x{212A}]", "[[:space:]]", "[^[:space:]]"};
    private static final String[] QUANTIFIERS = {"", "", "", "*", "+", "?", "{2}", "{0,1}", "{1,}", "*?", "+?", "{2,3}",
                                                 "{1}", "??", "{0}", "{,2}", "{3,2}", "**", "{2}?"};
    private static final char[] VALUE_CHARS = {'a', 'b', 'A', 'B', 'k', 'K', '\u212A', '\u017F', 's', 'S', 'x', '.', '-',
                                               '\n', '1', '_', ' ', '9', 'Z', '\u00e9', 'e', 'r', 'o', 'R', 'E', 'c', ']',
                                               '{', '\t', '$', '^', '\\', '\u000B', '!', '@', '~', '\r', '\u0085',
                                               '\u2028'};

    private static String pattern(Random r, int depth) {
        StringBuilder out = new StringBuilder();
        if (depth == 0 && r.nextInt(5) == 0) {
            out.append("(?i)");
        }
        if (depth == 0 && r.nextInt(4) == 0) {
            out.append('^');
        }
        int parts = r.nextInt(5);
        for (int i = 0; i < parts; i++) {
            int kind = r.nextInt(depth > 2 ? 8 : 11);
            if (kind < 8) {
                out.append(ATOMS[r.nextInt(ATOMS.length)]);
            } else if (kind == 8) {
                // "$|" and "|^" inside a group are anchors that must hold there, unlike at the top level
                out.append('(').append(pattern(r, depth + 1)).append(r.nextInt(4) == 0 ? "$|" : "|")
                   .append(r.nextInt(4) == 0 ? "^" : "").append(pattern(r, depth + 1)).append(')');
            } else if (kind == 9) {
                String[] opens = {"(?i:", "(?-i:", "(?:", "(?:", "(?s:", "(?s-i:", "(?is:", "(?-s:"};
                out.append(opens[r.nextInt(opens.length)]).append(pattern(r, depth + 1)).append(')');
            } else {
                out.append(r.nextInt(6) == 0 ? "(?P<g" + depth + i + ">" : "(").append(pattern(r, depth + 1)).append(')');
            }
            out.append(QUANTIFIERS[r.nextInt(QUANTIFIERS.length)]);
        }
        if (depth == 0 && r.nextInt(4) == 0) {
            out.append(r.nextInt(3) == 0 ? "$|" : "|").append(r.nextInt(3) == 0 ? "^" : "").append(pattern(r, 1));
        }
        if (depth == 0 && r.nextInt(4) == 0) {
            out.append('$');
        }
        return out.toString();
    }

    private static String value(Random r) {
        StringBuilder out = new StringBuilder();
        for (int i = r.nextInt(10); i > 0; i--) {
            if (r.nextInt(60) == 0) {
                out.append("\uD83D\uDE00");
            } else {
                out.append(VALUE_CHARS[r.nextInt(VALUE_CHARS.length)]);
            }
        }
        return out.toString();
    }

    private static boolean ascii(String s) {
        return s.chars().allMatch(c -> c < 128);
    }

    /** RE2/J's answer, the rule itself; null when RE2/J rejects the pattern. */
    private static Pattern compiled(String pattern) {
        try {
            return Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            return null;
        }
    }

    @Test
    void answersAsRe2OverRandomPatternsAndValues() {
        Random r = new Random(20261125L);
        int compiled = 0;
        int completed = 0;
        int checked = 0;
        int matched = 0;
        for (int p = 0; p < 20_000; p++) {
            String pattern = pattern(r, 0);
            Pattern re2 = compiled(pattern);
            if (re2 == null) {
                continue;
            }
            RegexDfa dfa = RegexDfa.of(List.of(pattern));
            if (dfa == null) {
                continue;
            }
            compiled++;
            RegexDfa whole = RegexDfa.complete(pattern, 256);
            int built = whole == null ? 0 : whole.states();
            for (int v = 0; v < 40; v++) {
                String value = v == 0 ? "" : value(r);
                boolean expected = Predicates.rlikeMatches(re2, value);
                Boolean got = dfa.matches(value);
                if (!ascii(value)) {
                    assertNull(got, () -> pattern + " on a non-ASCII value");
                    continue;
                }
                checked++;
                matched += expected ? 1 : 0;
                assertEquals(expected, got, () -> "/" + pattern + "/ on \"" + value.replace("\n", "\\n") + "\"");
                if (whole != null) {
                    assertEquals(expected, whole.matches(value), () -> "complete /" + pattern + "/ on " + value);
                }
                byte[] bytes = ("\"" + value + "\"").getBytes(StandardCharsets.US_ASCII);
                int state = dfa.run(bytes, 1, bytes.length - 1);
                assertEquals(expected, dfa.accepts(state).length > 0, () -> pattern + " over bytes");
            }
            if (whole != null) {
                assertEquals(built, whole.states(), () -> "complete /" + pattern + "/ built a state while matching");
                completed++;
            }
        }
        assertTrue(completed > compiled / 2, "complete " + completed + " of " + compiled);
        // the generator must reach both answers often, and the subset must be most of what it draws
        assertTrue(compiled > 5_000, "compiled " + compiled);
        assertTrue(matched > checked / 20 && matched < checked - checked / 20, matched + " of " + checked);
    }

    /**
     * Anchors and flag groups in every position a small alphabet reaches, against every value of up to four of its
     * characters: random values of the property test above seldom both match a group and go on after it.
     */
    @Test
    void anchorsAndFlagGroupsAnswerAsRe2OverEveryShortValue() {
        String[] atoms = {"a", "b", "A", "^", "$", "(a$|b)", "(a|^b)", "(?:a$|b)", "(?i)", "(?-i)", "(?i:a)", "(b|$)",
                          "(^|a)", "(a|b)$", "^(a|b)", ".", "[ab]", "(?s)", "(?s:.)", "(?is)"};
        List<String> values = new ArrayList<>();
        char[] alphabet = {'a', 'b', 'A', 'B', '\n'};
        values.add("");
        for (int from = 0, length = 1; length <= 4; length++) {
            int to = values.size();
            for (int i = from; i < to; i++) {
                for (char c : alphabet) {
                    values.add(values.get(i) + c);
                }
            }
            from = to;
        }
        int compiled = 0;
        for (String x : atoms) {
            for (String y : atoms) {
                for (String z : new String[] {"", "b", "|a", "$|b", "|^a"}) {
                    String pattern = x + y + z;
                    Pattern re2 = compiled(pattern);
                    RegexDfa dfa = re2 == null ? null : RegexDfa.of(List.of(pattern));
                    if (dfa == null) {
                        continue;
                    }
                    compiled++;
                    for (String value : values) {
                        assertEquals(Predicates.rlikeMatches(re2, value), dfa.matches(value),
                                     () -> "/" + pattern + "/ on \"" + value + "\"");
                    }
                }
            }
        }
        assertTrue(compiled > 300, "compiled " + compiled);
    }

    @Test
    void manyPatternsAtOnceAnswerAsEachAlone() {
        Random r = new Random(7L);
        for (int round = 0; round < 200; round++) {
            List<String> patterns = new ArrayList<>();
            List<Pattern> re2 = new ArrayList<>();
            while (patterns.size() < 1 + r.nextInt(40)) {
                String p = pattern(r, 0);
                Pattern c = compiled(p);
                if (c != null && RegexDfa.supports(p)) {
                    patterns.add(p);
                    re2.add(c);
                }
            }
            RegexDfa dfa = RegexDfa.of(patterns);
            assertNotNull(dfa);
            for (int v = 0; v < 200; v++) {
                String value = value(r);
                if (!ascii(value)) {
                    assertEquals(RegexDfa.NOT_ASCII, dfa.run(value));
                    continue;
                }
                List<Integer> expected = new ArrayList<>();
                for (int i = 0; i < re2.size(); i++) {
                    if (Predicates.rlikeMatches(re2.get(i), value)) {
                        expected.add(i);
                    }
                }
                int[] got = dfa.accepts(dfa.run(value));
                assertArrayEquals(expected.stream().mapToInt(Integer::intValue).toArray(), got,
                                  () -> patterns + " on \"" + value + "\"");
            }
        }
    }

    @Test
    void keepsAnsweringAfterTheStateCacheStartsAgain() {
        // 30 patterns each counting a different letter's position: far more reachable states than the cache holds
        List<String> patterns = new ArrayList<>();
        List<Pattern> re2 = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String p = ".*" + (char) ('a' + i % 26) + "[a-z]{" + (3 + i % 5) + "}";
            patterns.add(p);
            re2.add(Pattern.compile(p));
        }
        RegexDfa dfa = RegexDfa.of(patterns);
        Random r = new Random(3L);
        for (int v = 0; v < 20_000; v++) {
            char[] chars = new char[5 + r.nextInt(20)];
            for (int i = 0; i < chars.length; i++) {
                chars[i] = (char) ('a' + r.nextInt(26));
            }
            String value = new String(chars);
            int[] got = dfa.accepts(dfa.run(value));
            for (int i = 0; i < re2.size(); i++) {
                boolean expected = Predicates.rlikeMatches(re2.get(i), value);
                assertEquals(expected, Arrays.binarySearch(got, i) >= 0, patterns.get(i) + " on " + value);
            }
        }
        assertTrue(dfa.resets() > 0, "the cache never filled: the test does not test it");
    }

    @Test
    void leavesToRe2WhatItDoesNotCompile() {
        for (String p : List.of("(?i)[\\x{212A}a]", "(?i)[\\x{100}-\\x{200}]", "(?i)[[:^lower:]]", "(?i)\\W", "a\\b", "(?m)^a", "(?U)a*", "a{,2}", "\\pL", "(?i)[[:lower:]]",
                                "[[:alpha:]", "[[:foo:]]", "(?i-)a", "(?-)a",
                                "é", "a^b", "a$b", "(a$)", "(^a)", "(a$|b)c", "(?:a$|b)", "x(^a|b)", "(?P<x>a)", "[]a]", "a{100}", "\\x{e9}", "\\Qa\\E", "a**",
                                "(?i)*", "^*")) {
            assertNull(RegexDfa.of(List.of(p)), p);
        }
        for (String p : List.of("", ".*error.*", "(?i)^GET /api/.*", "[0-9]{2}[a-f]+.*", "(tu|du|bravo)", "\\w+ce",
                                "[^0-9]+pe", "a|$", "^$", "[a-]x", "\\.\\$", "x{2,}?", "(?i:a)b", "x(?i)y|z",
                                "^a|^b$|c$", "a}", "]", "(?-i:A)(?i)b", "(?i)^warn", "(?s).", "(?i-s)a",
                                "[[:alpha:]]", "[^[:space:]]+", "(?s-i:a.)b", "[[:^digit:]x]", "(?i)[^a]", "x(?i)[^a]",
                                "\\x41", JavaRegex.DOT + "*error" + JavaRegex.DOT + "*", "(?i)[^[:space:]]",
                                "[\\x{85}a\\x00-\\x{FFFF}]", "[^\\n\\v]", "(?i)BI" + JavaRegex.DOT + "*",
                                "(?i)[^\\x{85}-\\x{100}]")) {
            assertNotNull(RegexDfa.of(List.of(p)), p);
        }
    }
}

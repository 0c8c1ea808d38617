package dev.bullet.regex;

import com.google.re2j.Pattern;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Patterns written for the original Bullet, run by RE2/J as {@link JavaRegex} writes them, match what
 * java.util.regex (bullet-core's engine, {@code matches()}) matches on the pattern as written: every pattern below is
 * run by both engines over every character of an alphabet that holds what the two engines read differently (line
 * terminators, {@code \x0B}, non-ASCII letters and their cases, non-breaking space) and over random strings of it.
 */
class JavaRegexTest {
    private static final List<String> PATTERNS = List.of(
            // Java's POSIX classes
            "\\p{Alpha}+", "\\p{Digit}*", "\\P{Punct}+", "[\\p{Lower}_]+", "[^\\p{Upper}]+", "[\\P{Alnum}x]+",
            "\\p{XDigit}{2}", "a\\p{Space}b", "\\p{Blank}*\\p{Cntrl}?", "\\p{Graph}+\\p{Print}*", "\\p{ASCII}+",
            "[]\\p{Digit}]+", "[\\]\\p{Alpha}]+", "x\\Q\\p{Alpha}\\E", "\\p{ASCII}*\\p{Punct}\\p{ASCII}*",
            "[a-c\\p{Digit}]{1,3}",
            // . and the line terminators
            ".*", ".*a.*", "a.b", ".+", "(?s).*", "(?s)a.b", "(?d).*", "(?d)a.b", "a(?s:.)b.", "(?s)a(?-s:.)b",
            "(?i).*A.*", "(a.)|(?s)b.", "(?is)A.", "[.]+", "\\.+", "a\\Q.\\Eb",
            // \s \S \v \V \h \H, in and out of classes
            "\\s+", "\\S+", "a\\sb", "[\\s]+", "[^\\s]+", "[a\\s]+", "[a\\S]+", "[^a\\S]+", "\\v+", "\\V+", "[\\v]",
            "[a\\v]+", "\\h+", "\\H+", "[\\h]+", "[x\\h]+", "\\s*\\S+\\s*",
            // escapes naming characters
            "\\e?a", "\\u00e9+", "\\u0041", "[\\u00e9a]+", "\\0101", "\\x41\\x{e9}", "[\\x{2028}\\x0B]+",
            // ASCII-only case folding, and (?u)
            "(?i)\u00e9", "(?i)caf\u00e9", "(?i)[\u00e9\u00e8]", "(?i)[^\u00e9]",
            "(?i)\\u00e9", "(?i)\\Q\u00e9a\\E", "(?i)a\u00c9", "(?i:\u00e9)\u00e9", "(?i)x(?-i)\u00e9",
            "(?i)\\x{e9}", "(?i)[a-c]+", "(?i)[^a]+", "(?i)\\w+",
            // nested classes (unions), and characters that mean something in RE2's classes
            "[[:alpha:]]+", "[[:digit:]]", "[a[bc]]+", "[[a]-z]+", "[a-]+", "[]a-]+", "[x^]+", "[\\[a]+", "[a[b[c]]]+");

    /** Each one a character the two engines may read differently, and ordinary ones. */
    private static final String ALPHABET = "aAbBcCxXz_09 \t\n\r\u000B\f\u0085\u2028\u2029\u00A0\u00e9\u00c9\u00e8"
                                           + ".-]\\:dgitlphm^[";

    @Test
    void javasPatternsMatchWhatJavaMatches() {
        Random r = new Random(20261129);
        for (String pattern : PATTERNS) {
            Pattern re2 = Pattern.compile(JavaRegex.toRe2(pattern));
            for (int c = 0; c < 256; c++) {
                check(pattern, re2, String.valueOf((char) c));
            }
            for (int i = 0; i < ALPHABET.length(); i++) {
                check(pattern, re2, String.valueOf(ALPHABET.charAt(i)));
            }
            for (int i = 0; i < 3_000; i++) {
                StringBuilder s = new StringBuilder();
                for (int k = r.nextInt(6); k >= 0; k--) {
                    s.append(r.nextInt(8) == 0 ? (char) r.nextInt(128) : ALPHABET.charAt(r.nextInt(ALPHABET.length())));
                }
                check(pattern, re2, s.toString());
            }
        }
    }

    /** Java's answer ({@code String.matches}, java.util.regex) against RE2/J's on the pattern as written for it. */
    private static void check(String pattern, Pattern re2, String s) {
        assertEquals(s.matches(pattern), re2.matcher(s).matches(),
                     () -> pattern + " (RE2: " + JavaRegex.toRe2(pattern) + ") on " + s.chars().mapToObj(Integer::toHexString)
                                                                                          .toList());
    }

    @Test
    void whatJavaReadsOtherwiseIsRefusedWithAReason() {
        for (String pattern : List.of("[a[^b]]", "[^a[b]]", "[a-z&&[^e]]", "(?x)a b", "(?U)\\w", "(?i)[a\u00e9]",
                                      "[\\V]", "[a\\H]", "[\\Qab\\E]", "\\0", "[abc", "(?iu)\u00e9",
                                      "(?i)(?u)\u00e9")) {
            JavaRegex.Unsupported refused = assertThrows(JavaRegex.Unsupported.class, () -> JavaRegex.toRe2(pattern),
                                                         pattern);
            assertTrue(refused.getMessage().length() > 20, refused.getMessage());
        }
    }

    /**
     * RE2/J folds some letters past ASCII forever (U+1C80 to U+1C88: its fold orbit of them never comes back): under
     * {@code (?i)} none is ever given to it to fold, in a literal, an escape or a class.
     */
    @Test
    void lettersRe2FoldsForeverAreNeverFolded() {
        for (String pattern : List.of("(?i)\u1c80", "(?i)\\x{1C80}", "(?i)\\u1C88+", "(?i)[\u1c80-\u1c88]",
                                      "(?i)[^\\x{1C80}]", "(?i)\\Q\u1c80\\E")) {
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                Pattern re2 = Pattern.compile(JavaRegex.toRe2(pattern));
                for (String s : List.of("\u1c80", "\u0412", "\u0432", "a")) {
                    assertEquals(s.matches(pattern), re2.matcher(s).matches(), pattern + " on " + s);
                }
            }, pattern);
        }
    }

    @Test
    void aPatternWithNothingToWriteIsLeftAsItIs() {
        assertSame("abc|d+e*", JavaRegex.toRe2("abc|d+e*"));
        assertEquals("\\p{Greek}[[:alpha:]]", JavaRegex.toRe2("\\p{Greek}\\p{Alpha}"));
        assertEquals(JavaRegex.DOT + "*error" + JavaRegex.DOT + "*", JavaRegex.toRe2(".*error.*"));
        assertEquals("(?i)" + JavaRegex.DOT + "*ALPHA", JavaRegex.toRe2("(?i).*ALPHA"));
    }
}

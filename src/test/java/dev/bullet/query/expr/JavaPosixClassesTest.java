package dev.bullet.query.expr;

import com.google.re2j.Pattern;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Java's POSIX classes, written as RE2's, match what java.util.regex (bullet-core's engine) matches: every pattern
 * below is run by both engines, Java's ({@code String.matches}) on the pattern as written and RE2/J on the rewritten
 * one, over every ASCII
 * character and random strings.
 */
class JavaPosixClassesTest {
    private static final List<String> PATTERNS = List.of(
            "\\p{Alpha}+", "\\p{Digit}*", "\\P{Punct}+", "[\\p{Lower}_]+", "[^\\p{Upper}]+", "[\\P{Alnum}x]+",
            "\\p{XDigit}{2}", "a\\p{Space}b", "\\p{Blank}*\\p{Cntrl}?", "\\p{Graph}+\\p{Print}*", "\\p{ASCII}+",
            "[]\\p{Digit}]+", "[\\]\\p{Alpha}]+", "x\\Q\\p{Alpha}\\E", "\\p{ASCII}*\\p{Punct}\\p{ASCII}*", "[a-c\\p{Digit}]{1,3}");

    @Test
    void javasPosixClassesMatchWhatJavaMatches() {
        Random r = new Random(20261129);
        for (String pattern : PATTERNS) {
            Pattern re2 = Pattern.compile(JavaPosixClasses.rewrite(pattern));
            for (int c = 0; c < 128; c++) {
                String s = String.valueOf((char) c);
                assertEquals(s.matches(pattern), re2.matcher(s).matches(), pattern + " on char " + c);
            }
            for (int i = 0; i < 2_000; i++) {
                StringBuilder s = new StringBuilder();
                for (int k = r.nextInt(5); k >= 0; k--) {
                    s.append(r.nextInt(10) == 0 ? "\\p{Alpha}".charAt(r.nextInt(9)) : (char) r.nextInt(128));
                }
                assertEquals(s.toString().matches(pattern), re2.matcher(s).matches(), pattern + " on " + s);
            }
        }
    }

    @Test
    void aPatternWithoutThemIsLeftAsItIs() {
        String pattern = ".*[[:alpha:]]\\pL\\p{Greek}";
        assertEquals(pattern, JavaPosixClasses.rewrite(pattern));
        assertSame("a.*b", JavaPosixClasses.rewrite("a.*b"));
        assertEquals("\\p{Greek}[[:alpha:]]", JavaPosixClasses.rewrite("\\p{Greek}\\p{Alpha}"));
    }
}

package dev.bullet.regex;

import com.google.re2j.Pattern;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A whole-literal pattern decides exactly what RE2's whole match decides, on ASCII text without line breaks. */
class WholeLiteralTest {
    private static final List<String> PATTERNS = List.of("abc", "ab.*", ".*bc", ".*b.*", "^abc$", "^ab.*", ".*bc$",
            "(?i)ABC", "(?i)Ab.*", "(?i).*BC", "(?i).*B.*", "a-b c", ".*a b.*", "(?i).*ERROR.*", "x", "(ab)", "(ab|x)",
            "(abc|bc|b)", "^(ab|bc)$", "(ab|bc).*", ".*(ab|bc)", ".*(ab|error).*", "(?i)(AB|X)", "(?i).*(ERROR|xa).*",
            "(a b|a-b c)", "^(bc|ab).*$");
    private static final List<String> TEXTS = List.of("", "abc", "ABC", "aBc", "abcd", "xabc", "xabcx", "ab", "bc", "b",
            "a-b c", "za b!", "an error here", "an ERROR here", "x", "X", "abab", "bcbc", "xa", "XA", "bcx", "ab|x", "(ab)");

    @Test
    void decidesAsRe2DoesOnAsciiText() {
        for (String pattern : PATTERNS) {
            WholeLiteral whole = WholeLiteral.of(pattern);
            assertNotNull(whole, pattern);
            Pattern re2 = Pattern.compile(pattern);
            for (String text : TEXTS) {
                assertEquals(re2.matcher(text).matches(), whole.matches(text), pattern + " on '" + text + "'");
                assertEquals(re2.matcher(text).matches(), whole.matches(new AsciiText().set(text.getBytes(), 0, text.length())),
                             pattern + " on bytes '" + text + "'");
            }
        }
    }

    @Test
    void anythingButALiteralWithDotStarAroundIsNotOne() {
        for (String pattern : List.of("a.b", "ab+", "a?", "a|b", "[ab]c", "a{2}", "\\d", ".*", "(?i)", "a\\.b",
                                      "(?s).*a.*", ".+a", "a$b", "^", "é.*", "a\tb", "()", "(a|)", "(|a)", "(a|b",
                                      "a|b)", "(a|(b))", "(a|b)c", "c(a|b)", "(a|b)|(c)", "(a|b)(c|d)", "(a|b.c)",
                                      "(a||b)", ".*a|b.*", "(?i)(a|é)")) {
            assertNull(WholeLiteral.of(pattern), pattern);
        }
    }
}

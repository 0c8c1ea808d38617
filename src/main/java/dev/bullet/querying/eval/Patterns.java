package dev.bullet.querying.eval;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.bullet.regex.JavaRegex;

import static dev.bullet.querying.eval.Evaluators.FAILED;

/**
 * RLIKE's patterns, compiled with RE2/J: a literal once, a pattern read from the record when it changes (the last one
 * is kept). A match is of the whole string, as Java's {@code Matcher.matches()} in bullet-core.
 */
final class Patterns {
    private record Compiled(String regex, Pattern pattern) {
    }

    private volatile Compiled last;

    Patterns(String literal) {
        if (literal != null) {
            last = compile(literal);
        }
    }

    /** TRUE or FALSE, or FAILED when the pattern does not compile. */
    Object matches(String regex, String s) {
        Compiled c = last;
        if (c == null || !c.regex.equals(regex)) {
            c = compile(regex);
            last = c;
        }
        return c.pattern == null ? FAILED : (Object) c.pattern.matcher(s).matches();
    }

    private static Compiled compile(String regex) {
        try {
            return new Compiled(regex, Pattern.compile(JavaRegex.toRe2(regex)));
        } catch (PatternSyntaxException | JavaRegex.Unsupported invalid) {
            return new Compiled(regex, null);
        }
    }
}

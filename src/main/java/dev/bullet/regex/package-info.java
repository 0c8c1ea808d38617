/**
 * The regex engine behind {@code RLIKE} (SPEC §10): what a pattern tells before it runs, and a fast matcher for the
 * patterns it can decide. It depends on nothing of the project; the index and the engine use it through a small face:
 * <ul>
 *   <li>{@link dev.bullet.regex.RegexDfa}: a lazily built DFA over ASCII text for a subset of RE2's syntax
 *       ({@code RegexSyntax} reads it), for one pattern or many at once;</li>
 *   <li>{@link dev.bullet.regex.RegexLiterals} and {@link dev.bullet.regex.MatchShape}: the literals every match of a
 *       pattern holds and the characters it starts and ends with, so a value that cannot match is skipped unread;</li>
 *   <li>{@link dev.bullet.regex.LiteralMatcher}: all the required literals of many patterns found in one pass over a
 *       value (an Aho–Corasick automaton, ASCII case folded);</li>
 *   <li>{@link dev.bullet.regex.WholeLiteral}: a pattern that is a literal, decided by comparison;</li>
 *   <li>{@link dev.bullet.regex.RegexGate}: the cheap test a value passes before one query's regex runs;</li>
 *   <li>{@link dev.bullet.regex.RegexSize}: a bound on the work a pattern takes to compile, checked at validation.</li>
 * </ul>
 * Every answer here may say "may match" of a value that does not; none says "cannot match" of one that does. RE2/J
 * stays the reference: a pattern outside the supported subset is left to it.
 */
package dev.bullet.regex;

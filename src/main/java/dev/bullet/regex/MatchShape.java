package dev.bullet.regex;

/**
 * What every match of a pattern looks like, held as bit sets for quick tests of a value: the sets its first and
 * last characters come from, the sets of its first characters ({@link RegexLiterals.Shape#prefix()}), a set it holds
 * at least one character of ({@link RegexLiterals.Shape#need()}), whether it may be empty, and the literals it
 * requires. A value that fails a test cannot match; one that passes them all may. Characters are folded
 * ({@link LiteralMatcher#fold}) before they are tested. Immutable.
 */
public final class MatchShape {
    /** The shape of a pattern nothing is known of: every value may match it. */
    public static final MatchShape UNKNOWN = new MatchShape(RegexLiterals.Shape.UNKNOWN);

    private final RegexLiterals.Shape shape;
    private final long firstLow;
    private final long firstHigh;
    private final boolean firstOther;
    private final long lastLow;
    private final long lastHigh;
    private final boolean lastOther;
    private final long[] startLow;
    private final long[] startHigh;
    private final boolean[] startOther;
    private final boolean hasNeed;
    private final long needLow;
    private final long needHigh;
    private final boolean needOther;

    private MatchShape(RegexLiterals.Shape shape) {
        this.shape = shape;
        firstLow = shape.first().low();
        firstHigh = shape.first().high();
        firstOther = shape.first().other();
        lastLow = shape.last().low();
        lastHigh = shape.last().high();
        lastOther = shape.last().other();
        CharMask[] prefix = shape.prefix();
        startLow = new long[prefix.length];
        startHigh = new long[prefix.length];
        startOther = new boolean[prefix.length];
        for (int i = 0; i < prefix.length; i++) {
            startLow[i] = prefix[i].low();
            startHigh[i] = prefix[i].high();
            startOther[i] = prefix[i].other();
        }
        CharMask need = shape.need();
        hasNeed = need != null;
        needLow = hasNeed ? need.low() : 0L;
        needHigh = hasNeed ? need.high() : 0L;
        needOther = hasNeed && need.other();
    }

    /** The shape of a pattern (a Java/RE2 regex matched against a whole value). */
    public static MatchShape of(String pattern) {
        return new MatchShape(RegexLiterals.shape(pattern));
    }

    /** A value matching this pattern or the other may look like either. */
    public MatchShape or(MatchShape other) {
        return new MatchShape(shape.or(other.shape));
    }

    /** The literals every match holds, as a formula of AND/OR over literals; null when there is none. */
    public RegexLiterals.Requirement requirement() {
        return shape.requirement();
    }

    /** Whether the empty value may match. */
    public boolean nullable() {
        return shape.nullable();
    }

    /** Whether a match may start with any character. */
    public boolean startsWithAny() {
        return shape.first().isAny();
    }

    /** Whether a match may start with the folded character {@code c} (128 stands for every non-ASCII one). */
    public boolean mayStartWith(int c) {
        return shape.first().contains(c);
    }

    /** Whether a value that is not empty may match, by its folded first and last characters. */
    public boolean admits(int first, int last) {
        return CharMask.contains(firstLow, firstHigh, firstOther, first)
               && CharMask.contains(lastLow, lastHigh, lastOther, last);
    }

    /** Whether the value holds a character every match holds one of (always, when there is no such set). */
    public boolean holdsNeed(CharSequence text) {
        if (!hasNeed) {
            return true;
        }
        for (int i = 0, n = text.length(); i < n; i++) {
            if (CharMask.contains(needLow, needHigh, needOther, LiteralMatcher.fold(text.charAt(i)))) {
                return true;
            }
        }
        return false;
    }

    /** Whether the value is long enough and its first characters are in the sets every match starts with. */
    public boolean startsRight(CharSequence text) {
        int n = startLow.length;
        if (n == 0) {
            return true;
        }
        if (text.length() < n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (!CharMask.contains(startLow[i], startHigh[i], startOther[i], LiteralMatcher.fold(text.charAt(i)))) {
                return false;
            }
        }
        return true;
    }
}

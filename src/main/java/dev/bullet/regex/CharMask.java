package dev.bullet.regex;

/**
 * A set of case-folded characters ({@link LiteralMatcher#fold(char)}): each ASCII character, plus one bit for "any
 * non-ASCII character". Immutable.
 */
final class CharMask {
    static final CharMask NONE = new CharMask(0L, 0L, false);
    static final CharMask ANY = new CharMask(-1L, -1L, true);
    static final CharMask DIGITS = range('0', '9');
    static final CharMask WORD = DIGITS.union(range('a', 'z')).union(of('_'));
    static final CharMask SPACE = of('\t').union(of('\n')).union(of('\f')).union(of('\r')).union(of(' '));

    private final long low;
    private final long high;
    private final boolean other;

    private CharMask(long low, long high, boolean other) {
        this.low = low;
        this.high = high;
        this.other = other;
    }

    /** The set of one folded ASCII character. */
    static CharMask of(int folded) {
        return folded < 64 ? new CharMask(1L << folded, 0L, false) : new CharMask(0L, 1L << (folded - 64), false);
    }

    /** The folded forms of the ASCII characters lo..hi. */
    static CharMask range(char lo, char hi) {
        CharMask out = NONE;
        for (char c = lo; c <= hi; c++) {
            out = out.union(of(LiteralMatcher.fold(c)));
        }
        return out;
    }

    CharMask union(CharMask o) {
        return new CharMask(low | o.low, high | o.high, other || o.other);
    }

    /** The bits of the characters 0..63. */
    long low() {
        return low;
    }

    /** The bits of the characters 64..127. */
    long high() {
        return high;
    }

    /** Whether it holds every non-ASCII character. */
    boolean other() {
        return other;
    }

    /** {@link #contains} over a mask's parts, kept inline by a hot caller. */
    static boolean contains(long low, long high, boolean other, int folded) {
        if (folded < 64) {
            return (low & (1L << folded)) != 0;
        }
        if (folded < 128) {
            return (high & (1L << (folded - 64))) != 0;
        }
        return other;
    }

    /** How many characters it holds, counting all non-ASCII ones as 128 (for choosing the narrower of two sets). */
    int size() {
        return Long.bitCount(low) + Long.bitCount(high) + (other ? 128 : 0);
    }

    boolean isAny() {
        return low == -1L && high == -1L && other;
    }

    /** Whether the set holds a character already folded. */
    boolean contains(int folded) {
        return contains(low, high, other, folded);
    }

    @Override
    public String toString() {
        if (isAny()) {
            return "ANY";
        }
        StringBuilder out = new StringBuilder("[");
        for (int c = 0; c < 128; c++) {
            if (contains(c)) {
                out.append((char) c);
            }
        }
        return out.append(other ? "+non-ASCII]" : "]").toString();
    }
}

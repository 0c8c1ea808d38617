package dev.bullet.regex;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Aho–Corasick multi-pattern matching: finds which of a fixed set of literals occur in a text in one pass over it,
 * whatever the number of literals. Literals are ASCII and compared case-folded ({@link #fold(char)}): the text is
 * folded as it is read, so a folded literal is found in any casing of it. The automaton is a full DFA over the
 * characters the literals use (every other character leads back to the start), built once; immutable and
 * thread-safe after construction.
 *
 * <p>Written here rather than taken from {@code org.ahocorasick:ahocorasick}: that library allocates a result
 * collection and an object per match and per search, which is the hot path of a Filter task.
 */
public final class LiteralMatcher {
    private static final int[] NO_OUTPUT = new int[0];
    /** The class of each ASCII character, folding built in (an upper-case letter has its lower case's class). */
    private final char[] classOf = new char[128];
    private final int alphabet;
    /**
     * The DFA, {@code next[state * alphabet + class]}: 16-bit states while they fit (the tables of all the paths of
     * a Filter task are read once per record each, so their size is what the scan waits on), else 32-bit.
     */
    private final char[] narrow;
    private final int[] wide;
    /** States are numbered so that those with outputs come last: from this one on, a state outputs literals. */
    private final int firstEmitting;
    /** The literals each emitting state outputs, by {@code state - firstEmitting}. */
    private final int[][] outputs;

    /** @param literals folded, non-empty ASCII strings; a literal's id is its index */
    public LiteralMatcher(List<String> literals) {
        this(literals, false);
    }

    /** {@code wide}: 32-bit states even when 16 bits would do (tests read both kinds of table). */
    LiteralMatcher(List<String> literals, boolean wide) {
        int classes = 1;
        int[] cls = new int[128];
        for (String literal : literals) {
            for (int i = 0; i < literal.length(); i++) {
                char c = literal.charAt(i);
                if (c >= 128 || fold(c) != c || literal.isEmpty()) {
                    throw new IllegalArgumentException("not a folded ASCII literal: " + literal);
                }
                if (cls[c] == 0) {
                    cls[c] = classes++;
                }
            }
        }
        for (char c = 0; c < 128; c++) {
            classOf[c] = (char) cls[fold(c)];
        }
        alphabet = classes;
        // the trie, dense rows; -1 = no child
        List<int[]> rows = new ArrayList<>();
        List<List<Integer>> own = new ArrayList<>();
        rows.add(newRow());
        own.add(new ArrayList<>());
        for (int id = 0; id < literals.size(); id++) {
            String literal = literals.get(id);
            int state = 0;
            for (int i = 0; i < literal.length(); i++) {
                int c = cls[literal.charAt(i)];
                if (rows.get(state)[c] < 0) {
                    rows.get(state)[c] = rows.size();
                    rows.add(newRow());
                    own.add(new ArrayList<>());
                }
                state = rows.get(state)[c];
            }
            own.get(state).add(id);
        }
        int states = rows.size();
        int[] next = new int[states * alphabet];
        int[][] out = new int[states][];
        int[] fail = new int[states];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        out[0] = toArray(own.get(0), NO_OUTPUT);
        for (int c = 0; c < alphabet; c++) {
            int child = rows.get(0)[c];
            if (child >= 0) {
                next[c] = child;
                fail[child] = 0;
                queue.add(child);
            } else {
                next[c] = 0;
            }
        }
        while (!queue.isEmpty()) {
            int u = queue.poll();
            out[u] = toArray(own.get(u), out[fail[u]]);
            for (int c = 0; c < alphabet; c++) {
                int child = rows.get(u)[c];
                if (child >= 0) {
                    fail[child] = next[fail[u] * alphabet + c];
                    next[u * alphabet + c] = child;
                    queue.add(child);
                } else {
                    next[u * alphabet + c] = next[fail[u] * alphabet + c];
                }
            }
        }
        // renumber: silent states first (the start state has no output: literals are not empty), emitting ones last
        int[] number = new int[states];
        int silent = 0;
        for (int s = 0; s < states; s++) {
            if (out[s].length == 0) {
                number[s] = silent++;
            }
        }
        firstEmitting = silent;
        outputs = new int[states - silent][];
        for (int s = 0, emitting = silent; s < states; s++) {
            if (out[s].length > 0) {
                number[s] = emitting;
                outputs[emitting - silent] = out[s];
                emitting++;
            }
        }
        boolean fits = !wide && states <= Character.MAX_VALUE + 1;
        this.narrow = fits ? new char[states * alphabet] : null;
        this.wide = fits ? null : new int[states * alphabet];
        for (int s = 0; s < states; s++) {
            for (int c = 0; c < alphabet; c++) {
                int target = number[next[s * alphabet + c]];
                if (fits) {
                    this.narrow[number[s] * alphabet + c] = (char) target;
                } else {
                    this.wide[number[s] * alphabet + c] = target;
                }
            }
        }
    }

    private int[] newRow() {
        int[] row = new int[alphabet];
        Arrays.fill(row, -1);
        return row;
    }

    private static int[] toArray(List<Integer> own, int[] inherited) {
        if (own.isEmpty()) {
            return inherited;
        }
        int[] out = Arrays.copyOf(inherited, inherited.length + own.size());
        for (int i = 0; i < own.size(); i++) {
            out[inherited.length + i] = own.get(i);
        }
        return out;
    }

    /**
     * Notes every literal occurring in the text, folded, once: sets {@code seen[id]} and appends the id to
     * {@code list}; returns how many ids were appended. The caller clears {@code seen} afterwards. Text read in
     * place from a record's ASCII bytes is scanned as those bytes.
     */
    public int collect(CharSequence text, boolean[] seen, int[] list) {
        int count = 0;
        int state = 0;
        int emitting = firstEmitting;
        if (text instanceof AsciiText && narrow != null) {
            AsciiText ascii = (AsciiText) text;
            byte[] data = ascii.data();
            char[] next = narrow;
            for (int i = ascii.from(), end = i + ascii.length(); i < end; i++) {
                state = next[state * alphabet + classOf[data[i]]]; // ASCII: 0..127
                if (state >= emitting) {
                    count = note(outputs[state - emitting], seen, list, count);
                }
            }
            return count;
        }
        for (int i = 0, n = text.length(); i < n; i++) {
            int c = fold(text.charAt(i));
            int at = state * alphabet + (c < 128 ? classOf[c] : 0);
            state = narrow != null ? narrow[at] : wide[at];
            if (state >= emitting) {
                count = note(outputs[state - emitting], seen, list, count);
            }
        }
        return count;
    }

    /** Notes the literals a state outputs that were not seen yet; returns the new count. */
    private static int note(int[] out, boolean[] seen, int[] list, int count) {
        for (int k = 0; k < out.length; k++) {
            int id = out[k];
            if (!seen[id]) {
                seen[id] = true;
                list[count++] = id;
            }
        }
        return count;
    }

    /**
     * Case folding as RE2's {@code (?i)} sees ASCII letters: ASCII upper case to lower case, and the two non-ASCII
     * characters that fold onto ASCII letters (KELVIN SIGN to k, LATIN SMALL LETTER LONG S to s). Every other
     * character is itself: literals are ASCII, so no other character can be part of a literal's occurrence.
     */
    public static int fold(char c) {
        if (c < 128) {
            return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
        }
        if (c == '\u212A') {
            return 'k';
        }
        if (c == '\u017F') {
            return 's';
        }
        return c;
    }

    /** The folded form of an ASCII string. */
    static String fold(String ascii) {
        StringBuilder out = new StringBuilder(ascii.length());
        for (int i = 0; i < ascii.length(); i++) {
            out.append((char) fold(ascii.charAt(i)));
        }
        return out.toString();
    }
}

package dev.bullet.regex;

import dev.bullet.regex.RegexSyntax.Alt;
import dev.bullet.regex.RegexSyntax.Chars;
import dev.bullet.regex.RegexSyntax.Concat;
import dev.bullet.regex.RegexSyntax.Node;
import dev.bullet.regex.RegexSyntax.Repeat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whole-value matching of several RLIKE patterns at once, in one pass over an ASCII value: the patterns are compiled
 * into one NFA, and a DFA over it is built lazily, a state the first time a value leads there (RE2's lazy DFA). The
 * state a value ends in holds the patterns that match all of it (the RLIKE rule, SPEC §6.2), so a Filter task
 * decides every pattern of a field with as many table steps as the value has characters, whatever the number of
 * patterns, and runs no regex engine at all.
 *
 * <p>Only patterns in a subset of RE2's syntax whose meaning over ASCII text is plain are compiled ({@link #parse}
 * answers null for the rest, which stay with RE2/J): characters and escaped punctuation, {@code . \d \w \s \D \W \S},
 * classes with ranges, groups ({@code (…)}, {@code (?:…)}), alternation, the repeats {@code * + ? {n} {n,} {n,m}}
 * (lazy or not: same strings), {@code ^} first and {@code $} last, and a leading {@code (?i)} (without negated sets
 * under it, whose folding RE2 does its own way). RE2's defaults hold: {@code .} is any character but a newline, a
 * negated class holds the newline. Only ASCII text is matched here ({@link #run} answers {@link #NOT_ASCII}
 * otherwise): a non-ASCII character could fold onto an ASCII letter or be half of one code point.
 * {@code RegexDfaPropertyTest} holds the answers equal to RE2/J's over random patterns and values.
 *
 * <p>The DFA keeps at most {@link #MAX_STATES} states; past that it starts again empty (the states a field's values
 * use come back within a few values). Not thread-safe: each Filter task (and each thread's pattern cache) has its own.
 */
public final class RegexDfa {
    /** {@link #run}: the text holds a character outside ASCII. */
    public static final int NOT_ASCII = -1;
    /** States kept before the cache starts again. */
    static final int MAX_STATES = 2048;
    /** NFA states a pattern may take (large counted repeats make many). */
    static final int MAX_NFA_STATES = 4096;
    private static final long ALL_LOW = -1L;
    private static final long ALL_HIGH = -1L;
    private static final int DEAD = 0;

    // ---- the NFA, flattened: per state, its epsilon targets and its character edges; acceptance per state ----
    private final int[] epsStart;
    private final int[] eps;
    private final int[] edgeStart;
    private final long[] edgeLow;
    private final long[] edgeHigh;
    private final int[] edgeTarget;
    private final int[] acceptOf;
    private final int startNfa;
    private final int patterns;

    // ---- the DFA over it, built as values need it ----
    private final byte[] classOf = new byte[128];
    private final int classes;
    /**
     * A state's row in {@link #next} is {@code state << shift}: rows are padded to a power of two wide, so a step is
     * a shift, not a multiply, on the chain of dependent loads a value's bytes make.
     */
    private final int shift;
    /** A character of each class: its edges are those of the class. */
    private final char[] representative;
    private int[] next;
    private int[][] sets;
    private int[][] accepts;
    private int states;
    private final Map<SetKey, Integer> known = new HashMap<>();
    private int start;
    private final int[] mark;
    private int markStamp;
    private final int[] stack;
    private final int[] buffer;
    private long resets;

    private RegexDfa(Nfa nfa, int patterns) {
        this.patterns = patterns;
        int n = nfa.states.size();
        epsStart = new int[n + 1];
        edgeStart = new int[n + 1];
        int ne = 0;
        int nc = 0;
        for (NState s : nfa.states) {
            ne += s.eps.size();
            nc += s.targets.size();
        }
        eps = new int[ne];
        edgeLow = new long[nc];
        edgeHigh = new long[nc];
        edgeTarget = new int[nc];
        acceptOf = new int[n];
        ne = 0;
        nc = 0;
        List<long[]> masks = new ArrayList<>();
        Set<List<Long>> distinct = new HashSet<>();
        for (int i = 0; i < n; i++) {
            NState s = nfa.states.get(i);
            epsStart[i] = ne;
            for (NState t : s.eps) {
                eps[ne++] = t.id;
            }
            edgeStart[i] = nc;
            for (int k = 0; k < s.targets.size(); k++) {
                edgeLow[nc] = s.lows.get(k);
                edgeHigh[nc] = s.highs.get(k);
                edgeTarget[nc] = s.targets.get(k).id;
                if (distinct.add(List.of(edgeLow[nc], edgeHigh[nc]))) {
                    masks.add(new long[] {edgeLow[nc], edgeHigh[nc]});
                }
                nc++;
            }
            acceptOf[i] = s.accept;
        }
        epsStart[n] = ne;
        edgeStart[n] = nc;
        startNfa = nfa.start.id;
        // the alphabet's classes: characters no edge tells apart share one
        Map<BitSet, Integer> classIds = new HashMap<>();
        List<Character> reps = new ArrayList<>();
        for (char c = 0; c < 128; c++) {
            BitSet signature = new BitSet(masks.size());
            for (int m = 0; m < masks.size(); m++) {
                if (contains(masks.get(m)[0], masks.get(m)[1], c)) {
                    signature.set(m);
                }
            }
            Integer id = classIds.get(signature);
            if (id == null) {
                id = classIds.size();
                classIds.put(signature, id);
                reps.add(c);
            }
            classOf[c] = (byte) (int) id;
        }
        classes = classIds.size();
        shift = 32 - Integer.numberOfLeadingZeros(Math.max(1, classes - 1));
        representative = new char[classes];
        for (int i = 0; i < classes; i++) {
            representative[i] = reps.get(i);
        }
        mark = new int[n];
        stack = new int[n];
        buffer = new int[n];
        clear();
    }

    /**
     * The DFA of these patterns, pattern {@code i}'s id being {@code i}; null when one of them is outside the subset
     * compiled here.
     */
    public static RegexDfa of(List<String> patterns) {
        Nfa nfa = new Nfa();
        nfa.start = nfa.state();
        for (int i = 0; i < patterns.size(); i++) {
            Node node = RegexSyntax.parse(patterns.get(i));
            if (node == null) {
                return null;
            }
            int before = nfa.states.size();
            NState from = nfa.state();
            nfa.start.eps.add(from);
            NState end;
            try {
                end = nfa.compile(node, from, before + MAX_NFA_STATES);
            } catch (TooLarge e) {
                return null;
            }
            NState accept = nfa.state();
            accept.accept = i;
            end.eps.add(accept);
        }
        return new RegexDfa(nfa, patterns.size());
    }

    /**
     * The whole DFA of one pattern, every state built now (at most {@code maxStates}), so that matching never changes
     * it and threads may share it; null when the pattern is outside the subset or needs more states.
     */
    public static RegexDfa complete(String pattern, int maxStates) {
        RegexDfa dfa = of(List.of(pattern));
        if (dfa == null) {
            return null;
        }
        for (int state = 0; state < dfa.states; state++) {
            for (int c = 0; c < dfa.classes; c++) {
                if (dfa.next[(state << dfa.shift) + c] < 0) {
                    dfa.step(state, c);
                    if (dfa.states > maxStates) {
                        return null;
                    }
                }
            }
        }
        return dfa;
    }

    /** Whether the pattern is in the subset compiled here. */
    public static boolean supports(String pattern) {
        return of(List.of(pattern)) != null;
    }

    /** How many patterns it was built from. */
    public int patterns() {
        return patterns;
    }

    /** How many states it has built (and keeps). */
    int states() {
        return states;
    }

    /** How many times the state cache filled up and started again (a field whose values keep finding new states). */
    public long resets() {
        return resets;
    }

    /** The state {@code text[from, to)} ends in, the bytes being ASCII (the caller knows); {@link #accepts} reads it. */
    public int run(byte[] text, int from, int to) {
        int state = start;
        int[] table = next;
        int rows = shift;
        byte[] cls = classOf;
        for (int i = from; i < to; i++) {
            int at = (state << rows) + cls[text[i]];
            int target = table[at];
            if (target < 0) {
                target = step(state, cls[text[i]]);
                table = next;
            }
            state = target;
            if (state == DEAD) {
                return DEAD;
            }
        }
        return state;
    }

    /** The state the text ends in; {@link #NOT_ASCII} when it holds a character outside ASCII. */
    public int run(CharSequence text) {
        int state = start;
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (c >= 128) {
                return NOT_ASCII;
            }
            int to = next[(state << shift) + classOf[c]];
            if (to < 0) {
                to = step(state, classOf[c]);
            }
            state = to;
            if (state == DEAD) {
                for (int k = i + 1; k < n; k++) { // the answer is "none", unless the rest is not ASCII
                    if (text.charAt(k) >= 128) {
                        return NOT_ASCII;
                    }
                }
                return DEAD;
            }
        }
        return state;
    }

    /** The ids of the patterns that match the whole of a text that ended in this state (shared: do not modify). */
    public int[] accepts(int state) {
        return accepts[state];
    }

    /** Whether pattern 0 matches the whole of an ASCII text; null when the text is not ASCII. */
    public Boolean matches(CharSequence text) {
        int state = run(text);
        return state == NOT_ASCII ? null : accepts[state].length > 0;
    }

    // ---- the lazy DFA ----

    private void clear() {
        known.clear();
        int capacity = 64;
        next = new int[capacity << shift];
        Arrays.fill(next, -1);
        sets = new int[capacity][];
        accepts = new int[capacity][];
        states = 0;
        intern(new int[0]); // DEAD: the empty set, every edge back to itself
        Arrays.fill(next, 0, classes, DEAD);
        buffer[0] = startNfa;
        start = intern(closure(1));
    }

    /** The state reached from {@code state} by a character of class {@code c}, made now. */
    private int step(int state, int c) {
        char ch = representative[c];
        int[] from = sets[state];
        int count = 0;
        int stamp = ++markStamp;
        for (int s : from) {
            for (int e = edgeStart[s]; e < edgeStart[s + 1]; e++) {
                int t = edgeTarget[e];
                if (mark[t] != stamp && contains(edgeLow[e], edgeHigh[e], ch)) {
                    mark[t] = stamp;
                    buffer[count++] = t;
                }
            }
        }
        int[] set = closure(count);
        if (states >= MAX_STATES && !known.containsKey(new SetKey(set))) {
            resets++;
            clear(); // the current state is gone with the rest: the caller goes on from the state returned
            Integer again = known.get(new SetKey(set));
            return again != null ? again : intern(set);
        }
        int to = intern(set);
        next[(state << shift) + c] = to;
        return to;
    }

    /** The epsilon closure of {@code buffer[0, count)}, sorted. */
    private int[] closure(int count) {
        int stamp = ++markStamp;
        int top = 0;
        for (int i = 0; i < count; i++) {
            mark[buffer[i]] = stamp;
            stack[top++] = buffer[i];
        }
        int size = count;
        while (top > 0) {
            int s = stack[--top];
            for (int e = epsStart[s]; e < epsStart[s + 1]; e++) {
                int t = eps[e];
                if (mark[t] != stamp) {
                    mark[t] = stamp;
                    buffer[size++] = t;
                    stack[top++] = t;
                }
            }
        }
        int[] set = Arrays.copyOf(buffer, size);
        Arrays.sort(set);
        return set;
    }

    private int intern(int[] set) {
        SetKey key = new SetKey(set);
        Integer id = known.get(key);
        if (id != null) {
            return id;
        }
        if (states == sets.length) {
            int capacity = states * 2;
            sets = Arrays.copyOf(sets, capacity);
            accepts = Arrays.copyOf(accepts, capacity);
            int old = next.length;
            next = Arrays.copyOf(next, capacity << shift);
            Arrays.fill(next, old, next.length, -1);
        }
        int state = states++;
        sets[state] = set;
        int[] accepted = new int[0];
        for (int s : set) {
            if (acceptOf[s] >= 0) {
                accepted = Arrays.copyOf(accepted, accepted.length + 1);
                accepted[accepted.length - 1] = acceptOf[s];
            }
        }
        Arrays.sort(accepted);
        accepts[state] = accepted;
        known.put(key, state);
        return state;
    }

    private static boolean contains(long low, long high, int c) {
        return c < 64 ? (low & 1L << c) != 0 : (high & 1L << (c - 64)) != 0;
    }

    private record SetKey(int[] set) {
        @Override
        public boolean equals(Object o) {
            return o instanceof SetKey && Arrays.equals(set, ((SetKey) o).set);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(set);
        }
    }

    // ---- the NFA, built from the syntax tree ----

    private static final class TooLarge extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooLarge() {
            super(null, null, false, false);
        }
    }

    private static final class NState {
        final int id;
        final List<NState> eps = new ArrayList<>(2);
        final List<Long> lows = new ArrayList<>(1);
        final List<Long> highs = new ArrayList<>(1);
        final List<NState> targets = new ArrayList<>(1);
        int accept = -1;

        NState(int id) {
            this.id = id;
        }
    }

    private static final class Nfa {
        final List<NState> states = new ArrayList<>();
        NState start;

        NState state() {
            NState s = new NState(states.size());
            states.add(s);
            return s;
        }

        /** Compiles the node from {@code from}; returns the state its matches end in. */
        NState compile(Node node, NState from, int limit) {
            if (states.size() > limit) {
                throw new TooLarge();
            }
            if (node instanceof Chars chars) {
                NState to = state();
                from.lows.add(chars.low());
                from.highs.add(chars.high());
                from.targets.add(to);
                return to;
            }
            if (node instanceof Concat concat) {
                NState at = from;
                for (Node part : concat.parts()) {
                    at = compile(part, at, limit);
                }
                return at;
            }
            if (node instanceof Alt alt) {
                NState end = state();
                for (Node branch : alt.branches()) {
                    NState in = state();
                    from.eps.add(in);
                    compile(branch, in, limit).eps.add(end);
                }
                return end;
            }
            Repeat repeat = (Repeat) node;
            NState at = from;
            for (int i = 0; i < repeat.min(); i++) {
                at = compile(repeat.node(), at, limit);
            }
            if (repeat.max() < 0) {
                NState loop = state();
                at.eps.add(loop);
                compile(repeat.node(), loop, limit).eps.add(loop);
                return loop;
            }
            for (int i = repeat.min(); i < repeat.max(); i++) {
                NState end = state();
                at.eps.add(end);
                compile(repeat.node(), at, limit).eps.add(end);
                at = end;
            }
            return at;
        }
    }
}

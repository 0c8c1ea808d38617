package dev.bullet.index;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Queries of a {@link QueryIndex} with a numeric threshold on one path, sorted by it: for a numeric value, the ones whose threshold the
 * value passes are a prefix (above: thresholds below the value) or a suffix (below) of the list.
 * Kept sorted as queries come and go (a query is inserted after those of equal threshold, so ties keep their
 * arrival order): a RAW query restarted many times a second costs a shift of a small array, not a sort.
 */
final class RangeList<Q> {
    final boolean above;
    double[] sorted = new double[4];
    double[] sortedLimits = new double[4];
    Object[] ordered = new Object[4];
    /**
     * Whether the range is the query's whole filter (or top-level OR branch), so {@link #visit} decides it:
     * {@link #UNDECIDED}, {@link #INCLUSIVE} ({@code >=}, {@code <=}) or {@link #STRICT} ({@code >}, {@code <}) at
     * the threshold, and for an interval of two bounds, {@link #LIMIT_STRICT} added when a value at its far bound
     * fails it ({@code <} against {@code <=}).
     */
    byte[] decides = new byte[4];
    static final byte UNDECIDED = 0;
    static final byte INCLUSIVE = 1;
    static final byte STRICT = 2;
    static final byte LIMIT_STRICT = 4;
    int size;

    RangeList(boolean above) {
        this.above = above;
    }

    /**
     * {@code limit}: a value beyond it (above it on the above list, below it on the below list) skips the query.
     * {@code decides}: the range is the query's whole filter (or branch), so {@link #visit} may decide it
     * ({@link #UNDECIDED}, {@link #INCLUSIVE} or {@link #STRICT}).
     */
    void add(Q query, double threshold, double limit, byte decides) {
        if (Double.isNaN(threshold) || Double.isNaN(limit)) {
            throw new IllegalArgumentException("a range threshold cannot be NaN");
        }
        if (size == sorted.length) {
            sorted = Arrays.copyOf(sorted, size * 2);
            sortedLimits = Arrays.copyOf(sortedLimits, size * 2);
            ordered = Arrays.copyOf(ordered, size * 2);
            this.decides = Arrays.copyOf(this.decides, size * 2);
        }
        int at = size;
        while (at > 0 && Double.compare(sorted[at - 1], threshold) > 0) {
            at--;
        }
        System.arraycopy(sorted, at, sorted, at + 1, size - at);
        System.arraycopy(sortedLimits, at, sortedLimits, at + 1, size - at);
        System.arraycopy(ordered, at, ordered, at + 1, size - at);
        System.arraycopy(this.decides, at, this.decides, at + 1, size - at);
        sorted[at] = threshold;
        sortedLimits[at] = limit;
        ordered[at] = query;
        this.decides[at] = decides;
        size++;
    }

    void remove(Q query) {
        int kept = 0;
        for (int i = 0; i < size; i++) {
            if (ordered[i] != query) {
                sorted[kept] = sorted[i];
                sortedLimits[kept] = sortedLimits[i];
                ordered[kept] = ordered[i];
                decides[kept] = decides[i];
                kept++;
            }
        }
        Arrays.fill(ordered, kept, size, null);
        size = kept;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /**
     * Visits the queries the number may pass (threshold ≤ value for above, ≥ value for below); NaN: all. With
     * {@code exact} (the filter compares the very number this double is, see {@link QueryIndex#exactNumber}), a query whose
     * whole filter is its range is decided: past its threshold it matches, whatever its operator and however many
     * literals it has (the threshold is the one the value must pass for any of them to), and goes to
     * {@code matched}; at its threshold it matches if its operator is {@code >=} or {@code <=}, and is skipped if
     * it is {@code >} or {@code <} (no literal lets the value through then). An interval is decided alike at both
     * of its bounds: a value past its limit never meets it, one at the limit matches unless the far bound is strict.
     */
    @SuppressWarnings("unchecked")
    void visit(double value, boolean exact, Consumer<Q> visit,
               Consumer<Q> matched) {
        int n = size;
        if (Double.isNaN(value)) {
            visitAll(visit);
            return;
        }
        double[] limit = sortedLimits;
        if (above) {
            for (int i = 0; i < n && sorted[i] <= value; i++) {
                if (value <= limit[i]) {
                    hand((Q) ordered[i], exact ? decides[i] : UNDECIDED, sorted[i] == value, value == limit[i],
                         visit, matched);
                }
            }
        } else {
            for (int i = n - 1; i >= 0 && sorted[i] >= value; i--) {
                if (value >= limit[i]) {
                    hand((Q) ordered[i], exact ? decides[i] : UNDECIDED, sorted[i] == value, value == limit[i],
                         visit, matched);
                }
            }
        }
    }

    private static <Q> void hand(Q query, byte decides, boolean tie, boolean limitTie, Consumer<Q> visit,
                                 Consumer<Q> matched) {
        if (decides == UNDECIDED) {
            visit.accept(query);
        } else if (!(tie && (decides & STRICT) != 0) && !(limitTie && (decides & LIMIT_STRICT) != 0)) {
            matched.accept(query);
        } // a strict bound at the value: no match
    }

    @SuppressWarnings("unchecked")
    void visitAll(Consumer<Q> visit) {
        for (int i = 0, n = size; i < n; i++) {
            visit.accept((Q) ordered[i]);
        }
    }
}

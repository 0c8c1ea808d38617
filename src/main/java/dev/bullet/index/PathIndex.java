package dev.bullet.index;

import dev.bullet.record.FieldPath;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** One path of a {@link QueryIndex} and the queries waiting for each of its values (equalities and ranges). */
final class PathIndex<Q> {
    final FieldPath path;
    /** The path's id in {@link PathSpans}. */
    int span;
    final TextMap<Q> byText = new TextMap<>();
    /**
     * As {@link #byText}, for queries whose whole filter (or top-level OR branch) is the equality: a string value
     * equal to the literal's text is a match, no test needed (numbers and booleans are still tested: a long past
     * 2^53 and its double, or {@code -0.0} and {@code 0}, compare by their own rules).
     */
    final TextMap<Q> byTextDecided = new TextMap<>();
    final NumberMap<List<Q>> byNumber = new NumberMap<>();
    final Map<Boolean, List<Q>> byBoolean = new HashMap<>();
    /** Queries needing value > (or >=) a threshold, and value < (or <=) a threshold. */
    final RangeList<Q> above = new RangeList<>(true);
    final RangeList<Q> below = new RangeList<>(false);
    /** Negated ranges ({@code NOT x < c}): they also match a record without a value here. */
    final List<Q> whenMissing = new ArrayList<>();
    /**
     * Equalities with typed numeric literals (BQL's numbers): a string value also looks its number reading up in
     * {@link #byNumber}, as such a literal equals a string that reads as its number.
     */
    int typedNumbers;
    int size;
    /**
     * Whether only strings can find the path's queries: no number, boolean or range waits on it (nor a negated range,
     * which also waits for the value to be missing). Kept by {@link #refresh} as queries come and go, so a batch reads
     * one field instead of five structures per path.
     */
    boolean textsOnly = true;

    /** Recomputes {@link #textsOnly}; after every change to the path's structures. */
    void refresh() {
        textsOnly = above.isEmpty() && below.isEmpty() && byNumber.isEmpty() && byBoolean.isEmpty()
                    && whenMissing.isEmpty();
    }

    PathIndex(FieldPath path) {
        this.path = path;
    }
}

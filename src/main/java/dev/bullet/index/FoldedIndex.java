package dev.bullet.index;

import dev.bullet.query.Clause;
import dev.bullet.record.FieldPath;
import dev.bullet.record.RawBytes;
import dev.bullet.record.Span;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Queries whose only indexable requirement is an expression filter {@code LOWER(f) = 'x'} or {@code UPPER(f) IN (...)}
 * ({@link FoldedEquality}) wait under their literals, per field and fold: a record's value is folded once for all of
 * them and looked up, so such a query meets only the records whose folded value is one of its literals instead of
 * every record. A plain ASCII string is folded in place (for ASCII, {@link java.util.Locale#ROOT}'s case mappings
 * are A–Z to a–z and back); any other string is decoded and folded by {@link FoldedEquality#fold}; a value that is no
 * string meets none of them. Never decides: the querier tests its whole filter. Takes no clause
 * ({@link #add(Object, Clause, boolean)} is false): {@link QueryIndex} places a query here only when its clauses have
 * no place. Not thread-safe.
 *
 * @param <Q> the per-query object the index hands out
 */
final class FoldedIndex<Q> implements ClauseIndex<Q> {
    private static final class FoldedPath<Q> {
        final FieldPath path;
        final boolean upper;
        /** The path's id in {@link PathSpans}. */
        int span;
        final TextMap<Q> byText = new TextMap<>();
        int queries;

        FoldedPath(FieldPath path, boolean upper) {
            this.path = path;
            this.upper = upper;
        }
    }

    private record Placement<Q>(FoldedPath<Q> path, List<TextKey> keys) {
    }

    private final PathSpans spans;
    private final List<FoldedPath<Q>> paths = new ArrayList<>();
    private final Map<Q, Placement<Q>> placements = new IdentityHashMap<>();
    private final TextKey probe = TextKey.probe();
    /** A plain value folded; 8 bytes longer than any value so that {@link TextKey#hash} may read a word. */
    private byte[] folded = new byte[64];

    FoldedIndex(PathSpans spans) {
        this.spans = spans;
    }

    @Override
    public boolean add(Q query, Clause filter, boolean mayDecide) {
        return false;
    }

    /** Puts the query under the equality's literals, folded value by folded value. */
    void add(Q query, FoldedEquality equality) {
        if (placements.containsKey(query)) {
            throw new IllegalArgumentException("already in the index: " + query);
        }
        FoldedPath<Q> path = pathOf(equality.path(), equality.upper());
        List<TextKey> keys = new ArrayList<>(equality.literals().size());
        for (String literal : equality.literals()) {
            TextKey key = TextKey.of(literal);
            if (path.byText.add(key, query)) {
                keys.add(key);
            }
        }
        path.queries++;
        placements.put(query, new Placement<>(path, keys));
    }

    @Override
    public boolean remove(Q query) {
        Placement<Q> placement = placements.remove(query);
        if (placement == null) {
            return false;
        }
        FoldedPath<Q> path = placement.path();
        for (TextKey key : placement.keys()) {
            path.byText.remove(key, query);
        }
        if (--path.queries == 0) {
            paths.remove(path);
            spans.release(path.span);
        }
        return true;
    }

    @Override
    public void candidates(PathSpans batch, Candidates<Q> out) {
        int count = batch.count();
        for (int p = 0, np = paths.size(); p < np; p++) {
            FoldedPath<Q> path = paths.get(p);
            long[] column = batch.column(path.span);
            for (int r = 0; r < count; r++) {
                long span = column[r];
                if (span == Span.MISSING) {
                    continue;
                }
                byte[] data = span == Span.UNSURE ? null : batch.bytes(r);
                int start = data == null ? 0 : Span.start(span);
                if (data != null && data[start] != '"') {
                    continue; // a number, boolean, null, map or list: LOWER and UPPER give no string
                }
                List<Q> hits;
                if (data != null && (batch.plainAscii(r) || RawBytes.plainAscii(data, start + 1, Span.end(span) - 1))) {
                    int length = fold(data, start + 1, Span.end(span) - 1, path.upper);
                    hits = path.byText.get(folded, 0, length, TextKey.hash(folded, 0, length), probe);
                } else { // unsure, or a string with escapes or beyond ASCII: decoded
                    Object value = batch.record(r).get(path.path);
                    hits = value instanceof String s ? path.byText.get(probe.set(FoldedEquality.fold(path.upper, s)))
                                                     : null;
                }
                if (hits != null) {
                    out.record = r;
                    ClauseIndex.visitAll(hits, out.visit);
                }
            }
        }
    }

    /** Folds the plain ASCII bytes {@code data[from, to)} into {@link #folded}; returns their length. */
    private int fold(byte[] data, int from, int to, boolean upper) {
        int length = to - from;
        if (folded.length < length + 8) {
            folded = new byte[Math.max(length + 8, 2 * folded.length)];
        }
        byte[] out = folded;
        byte low = upper ? (byte) 'a' : (byte) 'A';
        byte high = upper ? (byte) 'z' : (byte) 'Z';
        for (int i = 0; i < length; i++) {
            byte b = data[from + i];
            out[i] = b >= low && b <= high ? (byte) (b ^ 0x20) : b;
        }
        Arrays.fill(out, length, length + 8, (byte) 0);
        return length;
    }

    private FoldedPath<Q> pathOf(FieldPath path, boolean upper) {
        for (FoldedPath<Q> p : paths) {
            if (p.upper == upper && p.path.equals(path)) {
                return p;
            }
        }
        FoldedPath<Q> p = new FoldedPath<>(path, upper);
        p.span = spans.acquire(path);
        paths.add(p);
        return p;
    }
}

package dev.bullet.index;

import dev.bullet.query.Clause;
import dev.bullet.query.FilterValue;
import dev.bullet.query.Operation;
import dev.bullet.record.FieldPath;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.RawBytes;
import dev.bullet.record.Span;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Negations indexed as "every record except these values" (SPEC §10): queries whose filter requires
 * {@code field != literals} or {@code NOT (field == literals)} (the filter itself or a conjunct of a top-level AND)
 * meet every record of their path except those whose value is one of their literals as text — a string value equal
 * to a literal is the one case such a clause surely fails, so those queries are skipped without a test. A record
 * without the field meets only the {@code NOT ==} queries ({@code !=} needs a value). Numbers and booleans exclude
 * nothing (their equality has readings of its own); every other query is a candidate, tested with its full filter.
 * A filter made only of negations, on one path or several ({@code a != x AND NOT b == y}, or {@code NOT (a == x OR
 * b == y)}, which is the same), is a {@link Conjunction}: each part waits on its path as a negation does and marks the
 * records it surely matches and those it may; after the batch's paths the query is handed out as matched where every
 * part surely matched, and as a candidate where every part may.
 * Not thread-safe.
 *
 * @param <Q> the per-query object the index hands out
 */
final class NegationIndex<Q> implements ClauseIndex<Q> {
    private static final class Entry<Q> {
        final Q query;
        /** {@code NOT ==}: a missing value matches; {@code !=}: it does not. */
        final boolean matchesMissing;
        /** The negation is the query's whole filter: a string value not among the literals decides a match. */
        final boolean entire;
        /**
         * Some literal is a typed number (BQL's numbers): it equals a string that reads as its number, so a string
         * that may read as a number is tested (one that surely does not is still decided).
         */
        final boolean typedNumbers;
        /** Every literal is null ({@code != null}, {@code NOT (== null)}): any value the record has matches. */
        final boolean anyValue;
        long stamp = -1;
        /** The part of a conjunction this entry is, or null: it then marks records instead of handing them out. */
        final Conjunction<Q> conjunction;
        /** A part's records of the batch, a bit each: those it surely matches, and those it may (the sure ones too). */
        long[] sure = NO_WORDS;
        long[] maybe = NO_WORDS;

        Entry(Q query, boolean matchesMissing, boolean entire, boolean typedNumbers, boolean anyValue,
              Conjunction<Q> conjunction) {
            this.query = query;
            this.matchesMissing = matchesMissing;
            this.entire = entire;
            this.typedNumbers = typedNumbers;
            this.anyValue = anyValue;
            this.conjunction = conjunction;
        }

        void mark(int record, boolean surely) {
            long bit = 1L << record;
            maybe[record >>> 6] |= bit;
            if (surely) {
                sure[record >>> 6] |= bit;
            }
        }
    }

    private static final long[] NO_WORDS = new long[0];

    /**
     * A filter that is a conjunction of negations only, each a part on its path; {@code decides}: the conjunction is
     * the whole filter (or a branch of a top-level OR), so where every part surely matches the query matches.
     */
    private static final class Conjunction<Q> {
        final Q query;
        final boolean decides;
        final List<Entry<Q>> parts = new ArrayList<>();

        Conjunction(Q query, boolean decides) {
            this.query = query;
            this.decides = decides;
        }
    }

    private static final class PathNegations<Q> {
        final FieldPath path;
        /** The path's id in {@link PathSpans}. */
        int span;
        final List<Entry<Q>> entries = new ArrayList<>();
        final TextMap<Entry<Q>> excludedBy = new TextMap<>();
        int matchingMissing;

        PathNegations(FieldPath path) {
            this.path = path;
        }
    }

    private record Placement<Q>(PathNegations<Q> path, Entry<Q> entry, List<TextKey> keys) {
    }

    /** A negation a filter requires: its clause, and whether it is {@code NOT ==} (true of a missing value). */
    private record Part(Clause.Relational clause, boolean matchesMissing) {
    }

    private final PathSpans spans;

    NegationIndex(PathSpans spans) {
        this.spans = spans;
    }

    private final List<PathNegations<Q>> paths = new ArrayList<>();
    private final List<Conjunction<Q>> conjunctions = new ArrayList<>();
    /** Where each query waits: once per clause it was added with (the branches of an OR, see {@link QueryIndex}). */
    private final Map<Q, List<Placement<Q>>> placements = new IdentityHashMap<>();
    private final TextKey probe = TextKey.probe();
    private long stamp;

    @Override
    public boolean add(Q query, Clause filter, boolean mayDecide) {
        List<Part> parts = new ArrayList<>();
        if (negations(filter, false, parts) && parts.size() > 1) {
            Conjunction<Q> conjunction = new Conjunction<>(query, mayDecide);
            for (Part part : parts) {
                place(query, part.clause(), part.matchesMissing(), false, conjunction);
            }
            conjunctions.add(conjunction);
            return true;
        }
        Clause.Relational clause = required(filter);
        if (clause == null) {
            return false;
        }
        place(query, clause, clause.operation() == Operation.EQUALS, ClauseIndex.isWhole(filter, clause) && mayDecide,
              null);
        return true;
    }

    private void place(Q query, Clause.Relational clause, boolean matchesMissing, boolean entire,
                       Conjunction<Q> conjunction) {
        PathNegations<Q> path = pathNegations(clause.field());
        boolean typedNumbers = false;
        boolean nulls = false;
        boolean onlyNulls = true;
        for (FilterValue v : clause.values()) {
            typedNumbers |= ClauseIndex.typedNumeric(v);
            nulls |= v.value() == null;
            onlyNulls &= v.value() == null;
        }
        // a null literal: == is true of a missing or null field, so NOT == is not; != is never true of one
        Entry<Q> entry = new Entry<>(query, matchesMissing && !nulls, entire, typedNumbers, onlyNulls, conjunction);
        List<TextKey> keys = new ArrayList<>();
        for (FilterValue v : clause.values()) {
            if (ClauseIndex.typedNumeric(v) || v.value() == null) {
                continue; // no text excludes it: "5" and " 5" both equal 5, "5.5" equals no LONG; null: no value
            }
            TextKey key = TextKey.of(v.value());
            if (path.excludedBy.add(key, entry)) {
                keys.add(key);
            }
        }
        path.entries.add(entry);
        if (entry.matchesMissing) {
            path.matchingMissing++;
        }
        if (conjunction != null) {
            conjunction.parts.add(entry);
        }
        placements.computeIfAbsent(query, q -> new ArrayList<>(1)).add(new Placement<>(path, entry, keys));
    }

    /**
     * Whether {@code clause} (negated when {@code negated}) is a conjunction of negations with plain literals or typed
     * numbers, collected into {@code out}: a {@code !=}, a negated {@code ==}, a NOT of such, an AND of such, a
     * negated OR of such ({@code NOT (a OR b)} is {@code NOT a AND NOT b}: each clause is true or false, a missing
     * field making a relational clause false, so the law holds as it does in logic).
     */
    static boolean negations(Clause clause, boolean negated, List<Part> out) {
        if (clause instanceof Clause.Relational) {
            Clause.Relational r = (Clause.Relational) clause;
            Operation wanted = negated ? Operation.EQUALS : Operation.NOT_EQUALS;
            if (r.operation() != wanted || !negatable(r)) {
                return false;
            }
            out.add(new Part(r, negated));
            return true;
        }
        if (!(clause instanceof Clause.Logical)) {
            return false;
        }
        List<Clause> inner = ((Clause.Logical) clause).clauses();
        if (inner.isEmpty()) {
            return false;
        }
        Operation op = clause.operation();
        if (op == Operation.NOT) {
            return inner.size() == 1 && negations(inner.get(0), !negated, out);
        }
        if (op == (negated ? Operation.OR : Operation.AND)) {
            for (Clause c : inner) {
                if (!negations(c, negated, out)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    @Override
    public boolean remove(Q query) {
        List<Placement<Q>> all = placements.remove(query);
        if (all == null) {
            return false;
        }
        for (Placement<Q> placement : all) {
            unplace(placement);
        }
        return true;
    }

    private void unplace(Placement<Q> placement) {
        PathNegations<Q> path = placement.path();
        for (TextKey key : placement.keys()) {
            path.excludedBy.remove(key, placement.entry());
        }
        path.entries.remove(placement.entry());
        if (placement.entry().matchesMissing) {
            path.matchingMissing--;
        }
        if (path.entries.isEmpty()) {
            paths.remove(path);
            spans.release(path.span);
        }
        conjunctions.remove(placement.entry().conjunction); // by identity; its other parts go with their placements
    }

    @Override
    public void candidates(PathSpans batch, Candidates<Q> out) {
        int words = (batch.count() + 63) >>> 6;
        for (int c = 0, nc = conjunctions.size(); c < nc; c++) {
            for (Entry<Q> part : conjunctions.get(c).parts) {
                if (part.maybe.length < words) {
                    part.sure = new long[words];
                    part.maybe = new long[words];
                }
            }
        }
        for (int p = 0, np = paths.size(); p < np; p++) {
            PathNegations<Q> path = paths.get(p);
            long[] column = batch.column(path.span);
            for (int r = 0, n = batch.count(); r < n; r++) {
                out.record = r;
                visitPath(path, batch, r, column[r], out.visit, out.matched);
            }
        }
        for (int c = 0, nc = conjunctions.size(); c < nc; c++) {
            handOut(conjunctions.get(c), words, out);
        }
    }

    /** A conjunction's records of the batch, from its parts' marks (cleared for the next batch). */
    private static <Q> void handOut(Conjunction<Q> conjunction, int words, Candidates<Q> out) {
        List<Entry<Q>> parts = conjunction.parts;
        for (int w = 0; w < words; w++) {
            long sure = -1L;
            long maybe = -1L;
            for (int i = 0, n = parts.size(); i < n; i++) {
                Entry<Q> part = parts.get(i);
                sure &= part.sure[w];
                maybe &= part.maybe[w];
                part.sure[w] = 0;
                part.maybe[w] = 0;
            }
            if (!conjunction.decides) {
                sure = 0;
            }
            for (long m = sure; m != 0; m &= m - 1) {
                out.record = (w << 6) + Long.numberOfTrailingZeros(m);
                out.matched.accept(conjunction.query);
            }
            for (long m = maybe & ~sure; m != 0; m &= m - 1) {
                out.record = (w << 6) + Long.numberOfTrailingZeros(m);
                out.visit.accept(conjunction.query);
            }
        }
    }

    /** The candidates of one path in the record at position {@code r} of the batch, whose span there is given. */
    private void visitPath(PathNegations<Q> path, PathSpans batch, int r, long span, Consumer<Q> visit,
                           Consumer<Q> matched) {
        LazyRecord lazy = batch.lazy(r);
        TextKey text = null;
        List<Entry<Q>> excluded = null;
        boolean decides = false; // the value is a string read from the bytes: text equality is the whole test
        boolean number = false; // the string may read as a number: typed numeric literals may equal it
        boolean missing = false;
        if (span == Span.MISSING) {
            missing = true;
        } else if (span != Span.UNSURE) {
            byte[] data = lazy.bytes();
            int start = Span.start(span);
            int end = Span.end(span);
            if (data[start] == '"') {
                if (lazy.plainAscii() || RawBytes.plainAscii(data, start + 1, end - 1)) {
                    excluded = path.excludedBy.get(data, start + 1, end - 1, TextKey.hash(data, start + 1, end - 1),
                                                   probe);
                    decides = true;
                    number = ClauseIndex.mayBeNumber(data, start + 1, end - 1);
                } else {
                    span = Span.UNSURE;
                }
            }
        }
        if (span == Span.UNSURE) {
            Object value = batch.record(r).get(path.path);
            missing = value == null;
            text = value instanceof String ? probe.set((String) value) : null;
            excluded = text == null ? null : path.excludedBy.get(text);
        }
        if (missing) {
            if (path.matchingMissing > 0) {
                for (Entry<Q> entry : path.entries) {
                    if (entry.matchesMissing) {
                        if (entry.conjunction != null) {
                            entry.mark(r, false);
                        } else {
                            visit.accept(entry.query);
                        }
                    }
                }
            }
            return;
        }
        long current = ++stamp;
        if (excluded != null) {
            for (int i = 0, n = excluded.size(); i < n; i++) {
                excluded.get(i).stamp = current;
            }
        }
        List<Entry<Q>> entries = path.entries;
        for (int i = 0, n = entries.size(); i < n; i++) {
            Entry<Q> entry = entries.get(i);
            if (entry.stamp != current) {
                boolean surely = entry.anyValue || decides && !(number && entry.typedNumbers);
                if (entry.conjunction != null) {
                    entry.mark(r, surely);
                } else {
                    (surely && entry.entire ? matched : visit).accept(entry.query);
                }
            }
        }
    }

    /**
     * A {@code != literals} or {@code NOT (== literals)} with plain literals or typed numbers the filter requires, if
     * any.
     */
    static Clause.Relational required(Clause filter) {
        return ClauseIndex.required(filter, c -> {
            if (c instanceof Clause.Relational) {
                Clause.Relational r = (Clause.Relational) c;
                return r.operation() == Operation.NOT_EQUALS && negatable(r) ? r : null;
            }
            if (c instanceof Clause.Logical && c.operation() == Operation.NOT) {
                List<Clause> inner = ((Clause.Logical) c).clauses();
                if (inner.size() == 1 && inner.get(0) instanceof Clause.Relational) {
                    Clause.Relational r = (Clause.Relational) inner.get(0);
                    return r.operation() == Operation.EQUALS && negatable(r) ? r : null;
                }
            }
            return null;
        });
    }

    /**
     * Whether the clause has values and each is plain, a typed number ({@link ClauseIndex#plainOrNumeric}) or a null
     * literal (the field is missing or null).
     */
    private static boolean negatable(Clause.Relational r) {
        if (r.values().isEmpty()) {
            return false;
        }
        for (FilterValue v : r.values()) {
            boolean nullLiteral = v.kind() == FilterValue.Kind.VALUE && v.value() == null;
            if (!nullLiteral && !ClauseIndex.plainLike(v) && !ClauseIndex.typedNumeric(v)) {
                return false;
            }
        }
        return true;
    }

    private PathNegations<Q> pathNegations(FieldPath path) {
        for (PathNegations<Q> p : paths) {
            if (p.path.equals(path)) {
                return p;
            }
        }
        PathNegations<Q> p = new PathNegations<>(path);
        p.span = spans.acquire(path);
        paths.add(p);
        return p;
    }
}

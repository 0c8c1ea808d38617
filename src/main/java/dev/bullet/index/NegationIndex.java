package dev.bullet.index;

import dev.bullet.query.Clause;
import dev.bullet.query.FilterValue;
import dev.bullet.query.Operation;
import dev.bullet.record.FieldPath;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.RawBytes;
import dev.bullet.record.Span;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

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
        /** The part of a conjunction this entry is, or null: it then keeps its bits instead of handing them out. */
        final Conjunction<Q> conjunction;
        /** The batch's records whose value is one of the literals, a bit each. */
        long[] excluded = NO_WORDS;
        /** A part's records of the batch: those it surely matches, and those it may (the sure ones too). */
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
        /** The batch's records, a bit each: a plain text, one that may read as a number, another value, none. */
        long[] texts = NO_WORDS;
        long[] numeric = NO_WORDS;
        long[] others = NO_WORDS;
        long[] missing = NO_WORDS;

        PathNegations(FieldPath path) {
            this.path = path;
        }

        /**
         * Bits for a batch of {@code words} words, on the path and its entries, all clear (a batch that failed half
         * way leaves nothing behind).
         */
        void start(int words) {
            if (texts.length < words) {
                texts = new long[words];
                numeric = new long[words];
                others = new long[words];
                missing = new long[words];
            } else {
                Arrays.fill(texts, 0, words, 0);
                Arrays.fill(numeric, 0, words, 0);
                Arrays.fill(others, 0, words, 0);
                Arrays.fill(missing, 0, words, 0);
            }
            for (int i = 0, n = entries.size(); i < n; i++) {
                Entry<Q> entry = entries.get(i);
                if (entry.excluded.length < words) {
                    entry.excluded = new long[words];
                    if (entry.conjunction != null) {
                        entry.sure = new long[words];
                        entry.maybe = new long[words];
                    }
                } else {
                    Arrays.fill(entry.excluded, 0, words, 0);
                }
            }
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
        if (path.entries.isEmpty()) {
            paths.remove(path);
            spans.release(path.span);
        }
        if (placement.entry().conjunction != null) { // by identity; its other parts go with their placements
            conjunctions.remove(placement.entry().conjunction);
        }
    }

    @Override
    public void candidates(PathSpans batch, Candidates<Q> out) {
        int count = batch.count();
        int words = (count + 63) >>> 6;
        for (int p = 0, np = paths.size(); p < np; p++) {
            PathNegations<Q> path = paths.get(p);
            path.start(words);
            read(path, batch, count);
            for (int i = 0, n = path.entries.size(); i < n; i++) {
                handOut(path, path.entries.get(i), words, out);
            }
        }
        for (int c = 0, nc = conjunctions.size(); c < nc; c++) {
            handOut(conjunctions.get(c), words, out);
        }
    }

    /**
     * Reads the path's value in each record of the batch into the path's bits (a plain text, one that may read as a
     * number, another value, no value) and marks, on each entry one of whose literals the text is, the record it
     * excludes.
     */
    private void read(PathNegations<Q> path, PathSpans batch, int count) {
        long[] column = batch.column(path.span);
        for (int r = 0; r < count; r++) {
            long span = column[r];
            int w = r >>> 6;
            long bit = 1L << r;
            if (span == Span.MISSING) {
                path.missing[w] |= bit;
                continue;
            }
            List<Entry<Q>> excluded = null;
            if (span != Span.UNSURE) {
                LazyRecord lazy = batch.lazy(r);
                byte[] data = lazy.bytes();
                int start = Span.start(span);
                int end = Span.end(span);
                if (data[start] != '"') {
                    path.others[w] |= bit; // a number, boolean, list or map: tested against the literals
                } else if (lazy.plainAscii() || RawBytes.plainAscii(data, start + 1, end - 1)) {
                    // a string read from the bytes: text equality is the whole test
                    excluded = path.excludedBy.get(data, start + 1, end - 1, TextKey.hash(data, start + 1, end - 1),
                                                   probe);
                    path.texts[w] |= bit;
                    if (ClauseIndex.mayBeNumber(data, start + 1, end - 1)) {
                        path.numeric[w] |= bit; // typed numeric literals may equal it
                    }
                } else {
                    span = Span.UNSURE;
                }
            }
            if (span == Span.UNSURE) {
                Object value = batch.record(r).get(path.path);
                if (value == null) {
                    path.missing[w] |= bit;
                    continue;
                }
                path.others[w] |= bit;
                excluded = value instanceof String ? path.excludedBy.get(probe.set((String) value)) : null;
            }
            if (excluded != null) {
                for (int i = 0, n = excluded.size(); i < n; i++) {
                    excluded.get(i).excluded[w] |= bit;
                }
            }
        }
    }

    /**
     * One entry's records of the batch from its path's bits: those it surely matches (a text not among its literals;
     * any value when its literal is null), those it may (any value not among its literals; no value for
     * {@code NOT ==}). A whole filter is handed out as matched where sure; a conjunction's part keeps its bits.
     */
    private static <Q> void handOut(PathNegations<Q> path, Entry<Q> entry, int words, Candidates<Q> out) {
        for (int w = 0; w < words; w++) {
            long present = path.texts[w] | path.others[w];
            long excluded = entry.excluded[w];
            long sure = entry.anyValue ? present
                    : path.texts[w] & ~excluded & (entry.typedNumbers ? ~path.numeric[w] : -1L);
            long maybe = present & ~excluded | (entry.matchesMissing ? path.missing[w] : 0);
            if (entry.conjunction != null) {
                entry.sure[w] = sure;
                entry.maybe[w] = maybe;
            } else if (entry.entire) {
                out.matchedAll(w, sure, entry.query);
                out.visitAll(w, maybe & ~sure, entry.query);
            } else {
                out.visitAll(w, maybe, entry.query);
            }
        }
    }

    /** A conjunction's records of the batch, from its parts' bits (cleared for the next batch). */
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
            out.matchedAll(w, sure, conjunction.query);
            out.visitAll(w, maybe & ~sure, conjunction.query);
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

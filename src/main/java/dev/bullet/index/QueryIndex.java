package dev.bullet.index;

import dev.bullet.query.Clause;
import dev.bullet.query.FilterValue;
import dev.bullet.query.Operation;
import dev.bullet.query.Values;
import dev.bullet.record.FieldPath;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.RawBytes;
import dev.bullet.record.Record;
import dev.bullet.record.Span;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The shared predicate index of a Filter task (SPEC §3.4, §10): queries whose filter requires a field to equal one of
 * some literals ({@code ==} or an IN-list, alone or as a conjunct of a top-level AND) are found through hash maps
 * keyed by the literal's possible typed readings (text, number, boolean; a literal typed as a number by its number
 * only, which a string value looks its number reading up against), so a record meets only the queries whose
 * literal equals its value; all other queries are on a scan list and meet every record. Candidates are still
 * tested with their full filter by the caller, so the index may only widen the set, never narrow it: results are
 * identical with and without it. The exception is a query the index knows matches (a string equal to the text of
 * an equality that is its whole filter, and what the secondary indexes decide): it is handed out as matched, untested.
 * Not thread-safe.
 *
 * @param <Q> the per-query object the index hands out
 */
public final class QueryIndex<Q> {

    /** Where a query was put, to take it out again. */
    private record Placement(FieldPath path, List<Object> keys, RangeList<?> range, boolean whenMissing,
                             boolean decided, boolean typedNumbers) {
    }

    private final List<PathIndex<Q>> paths = new ArrayList<>();
    /** The paths all the indexes read, each found once per record. */
    private final PathSpans spans = new PathSpans();
    private final List<Q> scan = new ArrayList<>();
    private final Map<Q, List<Placement>> entries = new IdentityHashMap<>();
    /** The secondary indexes (regex prefilter, negations, contains), tried in order after equality and range. */
    private final List<ClauseIndex<Q>> extras = new ArrayList<>();
    /** The secondary indexes holding each query (several for an OR whose branches they serve). */
    private final Map<Q, List<ClauseIndex<Q>>> extraOwners = new IdentityHashMap<>();
    private final RegexPrefilter<Q> regex;
    /** Queries placed by an expression filter's folded equality ({@link IndexFeature#FOLDED}); null when off. */
    private final FoldedIndex<Q> folded;
    /** Queries placed by an expression filter's computed equality ({@link IndexFeature#COMPUTED}); null when off. */
    private final ComputedIndex<Q> computed;
    private final TextKey probe = TextKey.probe();

    /** An index with every optimisation of {@link IndexFeature}. */
    public QueryIndex() {
        this(IndexFeature.all());
    }

    /** An index with only the given optimisations (equality and range indexing are always on). */
    public QueryIndex(Set<IndexFeature> features) {
        regex = features.contains(IndexFeature.REGEX) ? new RegexPrefilter<>(spans) : null;
        if (regex != null) {
            extras.add(regex);
        }
        if (features.contains(IndexFeature.CONTAINS)) {
            extras.add(new ContainsIndex<>(spans));
        }
        if (features.contains(IndexFeature.NEGATION)) {
            extras.add(new NegationIndex<>(spans));
        }
        folded = features.contains(IndexFeature.FOLDED) ? new FoldedIndex<>(spans) : null;
        if (folded != null) {
            extras.add(folded);
        }
        computed = features.contains(IndexFeature.COMPUTED) ? new ComputedIndex<>() : null;
        if (computed != null) {
            extras.add(computed);
        }
    }

    /**
     * Adds a query with its (validated) filter clause: where {@link #place} puts it (its equalities, else its numeric
     * range, else a secondary index; an OR under each branch), else where {@link #placeWithin} finds it, else on the
     * scan list. A query placed under several paths can be handed out more than once for one record: callers visit
     * each query once per record.
     */
    public void add(Q query, Clause filter) {
        add(query, filter, null);
    }

    /**
     * {@link #add(Object, Clause)} for a query whose expression filters require {@code equality} (null for none): when
     * its clauses have no place, it waits under the equality's folded literals instead of meeting every record.
     */
    public void add(Q query, Clause filter, FoldedEquality equality) {
        add(query, filter, equality, null);
    }

    /**
     * As above, with {@code other} what its expression filters require otherwise (null for nothing): tried after the
     * folded equality.
     */
    public void add(Q query, Clause filter, FoldedEquality equality, ComputedEquality other) {
        if (place(query, filter, true) || placeWithin(query, filter)) {
            return;
        }
        if (equality != null && folded != null) {
            folded.add(query, equality);
            extraOwners.put(query, List.of(folded));
        } else if (other != null && computed != null) {
            computed.add(query, other);
            extraOwners.put(query, List.of(computed));
        } else {
            scan.add(query);
        }
        entries.put(query, List.of());
    }

    /**
     * Adds a query under one conjunct of its top-level AND only (the {@code conjunct}-th), undecided: a record meets the
     * query when it may match that conjunct, and the whole filter is tested. For a caller that learned the conjunct
     * is narrower than the one {@link #add} chooses (which knows no value's frequency). False, with nothing added, when
     * the filter is no such AND or that conjunct has no place.
     */
    public boolean addUnder(Q query, Clause filter, int conjunct) {
        if (entries.containsKey(query)) {
            throw new IllegalArgumentException("already in the index: " + query);
        }
        return conjunct >= 0 && conjunct < conjuncts(filter)
               && place(query, ((Clause.Logical) filter).clauses().get(conjunct), false);
    }

    /** The number of conjuncts of a top-level AND; 0 for any other filter. */
    public static int conjuncts(Clause filter) {
        return filter instanceof Clause.Logical && filter.operation() == Operation.AND
               ? ((Clause.Logical) filter).clauses().size() : 0;
    }

    private Placement placeRange(Q query, RangeSpec range, byte decides) {
        PathIndex<Q> index = pathIndex(range.path());
        RangeList<Q> list = range.above() ? index.above : index.below;
        list.add(query, range.threshold(), range.limit(), decides);
        if (range.whenMissing()) {
            index.whenMissing.add(query);
        }
        index.size++;
        index.refresh();
        return new Placement(range.path(), List.of(), list, range.whenMissing(), false, false);
    }

    /**
     * Where a filter that has no place as a whole may still be found: an OR that is a conjunct of a top-level AND
     * (nested ANDs too), or the negation of one branch of {@code NOT (a OR b)}, which is {@code NOT a AND NOT b}.
     * Either is placed with decisions off: the rest of the filter must be tested.
     */
    private boolean placeWithin(Q query, Clause filter) {
        if (filter instanceof Clause.Logical && filter.operation() == Operation.NOT
            && ((Clause.Logical) filter).clauses().size() == 1
            && ((Clause.Logical) filter).clauses().get(0) instanceof Clause.Logical
            && ((Clause.Logical) filter).clauses().get(0).operation() == Operation.OR) {
            // NOT (a OR b): NOT a AND NOT b, so the negation of one branch is a conjunct (never decided)
            for (Clause branch : ((Clause.Logical) ((Clause.Logical) filter).clauses().get(0)).clauses()) {
                if (place(query, new Clause.Logical(Operation.NOT, List.of(branch)), false)) {
                    return true;
                }
            }
            return false;
        }
        if (filter instanceof Clause.Logical && filter.operation() == Operation.AND) {
            for (Clause conjunct : ((Clause.Logical) filter).clauses()) {
                boolean or = conjunct instanceof Clause.Logical && conjunct.operation() == Operation.OR;
                if (or ? place(query, conjunct, false) : placeWithin(query, conjunct)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Places the query under the clause: under every equality it may match through, else its numeric range, else the
     * first secondary index that takes it; an OR under each of its branches (ORs again or anything), so a record
     * meets the query when it may match any branch. With {@code mayDecide} an index may decide the clause matched
     * (right when it is the whole filter or a branch of a top-level OR). False, with nothing kept, when the clause
     * (or some branch) has no place.
     */
    private boolean place(Q query, Clause clause, boolean mayDecide) {
        List<Placement> placements = new ArrayList<>();
        List<ClauseIndex<Q>> owners = new ArrayList<>();
        if (!placeBranch(query, clause, placements, owners, mayDecide)) {
            for (Placement placement : placements) {
                unplace(query, placement);
            }
            for (ClauseIndex<Q> owner : owners) {
                owner.remove(query);
            }
            return false;
        }
        entries.put(query, placements);
        if (!owners.isEmpty()) {
            extraOwners.put(query, owners);
        }
        return true;
    }

    private boolean placeBranch(Q query, Clause clause, List<Placement> placements, List<ClauseIndex<Q>> owners,
                                boolean mayDecide) {
        if (clause instanceof Clause.Logical && clause.operation() == Operation.OR) {
            for (Clause branch : ((Clause.Logical) clause).clauses()) {
                if (!placeBranch(query, branch, placements, owners, mayDecide)) {
                    return false;
                }
            }
            return !((Clause.Logical) clause).clauses().isEmpty();
        }
        List<Clause.Relational> equalities = equalities(clause);
        if (equalities != null) {
            boolean decides = mayDecide && equalities.size() == 1 && ClauseIndex.isWhole(clause, equalities.get(0));
            for (Clause.Relational equality : equalities) {
                placements.add(placeEquality(query, equality, decides));
            }
            return true;
        }
        RangeSpec range = RangeSpec.of(clause);
        if (range != null) {
            placements.add(placeRange(query, range, mayDecide ? rangeDecision(clause, range) : RangeList.UNDECIDED));
            return true;
        }
        for (ClauseIndex<Q> extra : extras) {
            if (extra.add(query, clause, mayDecide)) {
                if (!owners.contains(extra)) {
                    owners.add(extra);
                }
                return true;
            }
        }
        return false;
    }

    private Placement placeEquality(Q query, Clause.Relational equality, boolean decides) {
        PathIndex<Q> index = pathIndex(equality.field());
        List<Object> keys = new ArrayList<>();
        boolean typedNumbers = false;
        for (FilterValue v : equality.values()) {
            if (ClauseIndex.typedNumeric(v)) {
                // a typed number: equal to a number value of its number, to a string whose number reading it is, to
                // nothing else (a string value looks its reading up, see typedNumbers); one that casts to nothing
                // equals nothing
                typedNumbers = true;
                Number n = ClauseIndex.typedNumber(v);
                if (n != null) {
                    putNumber(index, n.doubleValue(), query, keys);
                }
                continue;
            }
            String text = v.value();
            TextKey key = TextKey.of(text);
            if ((decides ? index.byTextDecided : index.byText).add(key, query)) {
                keys.add(key);
            }
            Object n = Values.asNumber(text);
            if (n != null) {
                putNumber(index, ((Number) n).doubleValue(), query, keys);
            }
            String t = text.trim();
            if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
                put(index.byBoolean, Boolean.parseBoolean(t), query, keys);
            }
        }
        if (typedNumbers) {
            index.typedNumbers++;
        }
        index.size++;
        index.refresh();
        return new Placement(equality.field(), keys, null, false, decides, typedNumbers);
    }

    private static <Q> void putNumber(PathIndex<Q> index, double d, Q query, List<Object> keys) {
        List<Q> list = index.byNumber.computeIfAbsent(d, () -> new ArrayList<>(1));
        if (!list.contains(query)) {
            list.add(query);
            keys.add(d);
        }
    }

    private static <K, Q> void put(Map<K, List<Q>> map, K key, Q query, List<Object> keys) {
        List<Q> list = map.computeIfAbsent(key, k -> new ArrayList<>(1));
        if (!list.contains(query)) {
            list.add(query);
            keys.add(key);
        }
    }

    /** Removes a query; returns whether it was there. */
    public boolean remove(Q query) {
        List<Placement> placements = entries.remove(query);
        if (placements == null) {
            return false;
        }
        List<ClauseIndex<Q>> owners = extraOwners.remove(query);
        if (owners != null) {
            for (ClauseIndex<Q> owner : owners) {
                owner.remove(query);
            }
        } else if (placements.isEmpty()) {
            scan.remove(query);
            return true;
        }
        for (Placement placement : placements) {
            unplace(query, placement);
        }
        return true;
    }

    @SuppressWarnings("unchecked")
    private void unplace(Q query, Placement placement) {
        PathIndex<Q> index = pathIndex(placement.path());
        if (placement.range() != null) {
            ((RangeList<Q>) placement.range()).remove(query);
        }
        if (placement.whenMissing()) {
            index.whenMissing.remove(query);
        }
        if (placement.typedNumbers()) {
            index.typedNumbers--;
        }
        for (Object key : placement.keys()) {
            if (key instanceof Double) {
                double d = (Double) key;
                List<Q> list = index.byNumber.get(d);
                if (list != null) {
                    list.remove(query);
                    if (list.isEmpty()) {
                        index.byNumber.remove(d);
                    }
                }
                continue;
            }
            if (key instanceof TextKey) {
                (placement.decided() ? index.byTextDecided : index.byText).remove((TextKey) key, query);
                continue;
            }
            List<Q> list = index.byBoolean.get(key);
            if (list != null) {
                list.remove(query);
                if (list.isEmpty()) {
                    index.byBoolean.remove(key);
                }
            }
        }
        if (--index.size == 0) {
            paths.remove(index);
            spans.release(index.span);
        }
        index.refresh();
    }

    public int size() {
        return entries.size();
    }

    public int scanned() {
        return scan.size();
    }

    /** From this many paths read per record on, a batch's records are brought near ({@link LazyRecord#warm}) before the reads. */
    static final int WARM_FROM_PATHS = 16;
    /** Keeps the warming reads from being optimised away; its value means nothing. */
    private int warmth;

    private boolean readsManyPaths() {
        return spans.size() >= WARM_FROM_PATHS;
    }

    /** Calls {@code visit} for every query that may match the record: its index candidates, then the scan list. */
    public void candidates(Record record, Consumer<Q> visit) {
        candidates(record, visit, visit);
    }

    /**
     * As {@link #candidates(Record, java.util.function.Consumer)}, but a query the index knows matches the record
     * (a whole-value regex it decided from the literals alone) goes to {@code matched} instead: no test needed.
     */
    public void candidates(Record record, Consumer<Q> visit, Consumer<Q> matched) {
        Consumer<Q> maybe = visit; // inside the class below, visit and matched name its own fields
        Consumer<Q> known = matched;
        candidates(List.of(record), 0, 1, new Candidates<Q>() {
            @Override
            protected void visit(int at, Q query) {
                maybe.accept(query);
            }

            @Override
            protected void matched(int at, Q query) {
                known.accept(query);
            }
        });
    }

    /**
     * Hands {@code out} every query that may match each record of {@code records[from, to)}, with the record's
     * position from {@code from}: its index candidates, then the scan list. The batch is read path by path, so the
     * candidates of one record come spread out over the call, in no particular order; a query may come more than
     * once for one record.
     */
    public void candidates(List<? extends Record> records, int from, int to, Candidates<Q> out) {
        spans.start(records, from, to);
        int count = spans.count();
        if (readsManyPaths()) {
            for (int r = 0; r < count; r++) {
                LazyRecord lazy = spans.lazy(r);
                if (lazy != null) {
                    warmth += lazy.warm();
                }
            }
        }
        Consumer<Q> visit = out.visit;
        Consumer<Q> matched = out.matched;
        for (int p = 0, np = paths.size(); p < np; p++) {
            PathIndex<Q> index = paths.get(p);
            long[] column = spans.column(index.span);
            if (index.textsOnly) {
                visitTexts(index, column, count, out);
                continue;
            }
            for (int r = 0; r < count; r++) {
                out.record = r;
                LazyRecord lazy = spans.lazy(r);
                if (lazy == null || !visitSpan(index, lazy, column[r], visit, matched)) {
                    visitValue(index, spans.record(r).get(index.path), visit, matched);
                }
            }
        }
        for (int i = 0, n = extras.size(); i < n; i++) {
            extras.get(i).candidates(spans, out);
        }
        if (!scan.isEmpty()) {
            for (int r = 0; r < count; r++) {
                out.record = r;
                for (int i = 0, n = scan.size(); i < n; i++) {
                    visit.accept(scan.get(i));
                }
            }
        }
        spans.clear();
    }

    /**
     * {@link #visitSpan} over a batch for a path only strings find queries on ({@link PathIndex#textsOnly}), with what
     * the path holds looked at once: a value that is no string, or none, finds nothing; a plain string is hashed and
     * looked up; anything else takes the general way.
     */
    private void visitTexts(PathIndex<Q> index, long[] column, int count, Candidates<Q> out) {
        Consumer<Q> visit = out.visit;
        Consumer<Q> matched = out.matched;
        TextMap<Q> byText = index.byText.isEmpty() ? null : index.byText;
        TextMap<Q> byTextDecided = index.byTextDecided.isEmpty() ? null : index.byTextDecided;
        for (int r = 0; r < count; r++) {
            long span = column[r];
            if (span == Span.MISSING) {
                continue;
            }
            byte[] data = spans.bytes(r);
            if (span == Span.UNSURE || data == null || !spans.plainAscii(r)) {
                out.record = r;
                LazyRecord lazy = spans.lazy(r);
                if (lazy == null || !visitSpan(index, lazy, span, visit, matched)) {
                    visitValue(index, spans.record(r).get(index.path), visit, matched);
                }
                continue;
            }
            int start = Span.start(span);
            if (data[start] != '"') {
                continue; // a number, boolean, null, map or list: no text query waits for it
            }
            int from = start + 1;
            int to = Span.end(span) - 1;
            int hash = TextKey.hash(data, from, to);
            if (byText != null) {
                List<Q> hits = byText.get(data, from, to, hash, probe);
                if (hits != null) {
                    out.record = r;
                    ClauseIndex.visitAll(hits, visit);
                }
            }
            if (byTextDecided != null) {
                List<Q> hits = byTextDecided.get(data, from, to, hash, probe);
                if (hits != null) {
                    out.record = r;
                    ClauseIndex.visitAll(hits, matched);
                }
            }
        }
    }

    /** The candidates of one path from the record's decoded value there (null: missing). */
    private void visitValue(PathIndex<Q> index, Object value, Consumer<Q> visit,
                            Consumer<Q> matched) {
        if (value == null) {
            ClauseIndex.visitAll(index.whenMissing, visit);
            return;
        }
        List<Q> hits = null;
        if (value instanceof String) {
            hits = index.byText.get(probe.set((String) value));
            ClauseIndex.visitAll(index.byTextDecided.get(probe), matched);
            if (index.typedNumbers > 0 && ClauseIndex.mayBeNumber((String) value)) {
                Object n = Values.asNumber((String) value);
                if (n != null) {
                    ClauseIndex.visitAll(index.byNumber.get(((Number) n).doubleValue()), visit);
                }
            }
        } else if (value instanceof Number) {
            hits = index.byNumber.get(((Number) value).doubleValue());
        } else if (value instanceof Boolean) {
            hits = index.byBoolean.get(value);
        }
        ClauseIndex.visitAll(hits, visit);
        if (!index.above.isEmpty() || !index.below.isEmpty()) {
            if (value instanceof Number) {
                double d = ((Number) value).doubleValue();
                boolean exact = exactNumber(value);
                index.above.visit(d, exact, visit, matched);
                index.below.visit(d, exact, visit, matched);
            } else {
                // strings and booleans compare by their own rules: every range query is a candidate
                index.above.visitAll(visit);
                index.below.visitAll(visit);
            }
        }
    }

    /**
     * The candidates of one path read from the record's bytes, as {@link #candidates} would find them from the
     * decoded value: a string is looked up by its bytes, a number parsed in place. False when the bytes cannot tell
     * (the caller decodes the value then).
     */
    private boolean visitSpan(PathIndex<Q> index, LazyRecord record, long span, Consumer<Q> visit,
                              Consumer<Q> matched) {
        if (span == Span.UNSURE) {
            return false;
        }
        if (span == Span.MISSING) {
            ClauseIndex.visitAll(index.whenMissing, visit);
            return true;
        }
        byte[] data = record.bytes();
        int start = Span.start(span);
        int end = Span.end(span);
        boolean ranges = !index.above.isEmpty() || !index.below.isEmpty();
        byte first = data[start];
        if (first == '"') {
            boolean texts = !index.byText.isEmpty() || !index.byTextDecided.isEmpty();
            if (texts || index.typedNumbers > 0) {
                int from = start + 1;
                int to = end - 1;
                if (!record.plainAscii()) { // are the bytes the text? (no escape, well-formed UTF-8)
                    boolean ascii = true;
                    for (int i = from; i < to; i++) {
                        byte b = data[i];
                        if (b == '\\') {
                            return false;
                        }
                        ascii &= b >= 0;
                    }
                    if (!ascii && !RawBytes.wellFormedUtf8(data, from, to)) {
                        return false;
                    }
                }
                if (texts) {
                    int hash = TextKey.hash(data, from, to);
                    if (!index.byText.isEmpty()) {
                        ClauseIndex.visitAll(index.byText.get(data, from, to, hash, probe), visit);
                    }
                    if (!index.byTextDecided.isEmpty()) {
                        ClauseIndex.visitAll(index.byTextDecided.get(data, from, to, hash, probe), matched);
                    }
                }
                if (index.typedNumbers > 0) { // typed numbers equal to the string's number reading
                    double d = ClauseIndex.textNumber(data, from, to);
                    if (!Double.isNaN(d)) {
                        ClauseIndex.visitAll(index.byNumber.get(d), visit);
                    }
                }
            }
        } else if (first == '-' || first >= '0' && first <= '9') {
            double d = RawBytes.toDouble(data, start, end);
            ClauseIndex.visitAll(index.byNumber.get(d), visit);
            if (ranges) {
                // a short plain integer is the long the filter reads, and this double exactly (other numbers: tested)
                boolean exact = end - start <= EXACT_INTEGER_CHARS && RawBytes.plainInteger(data, start, end);
                index.above.visit(d, exact, visit, matched);
                index.below.visit(d, exact, visit, matched);
            }
            return true;
        } else if (first == 't' || first == 'f') {
            ClauseIndex.visitAll(index.byBoolean.get(first == 't'), visit);
        }
        if (ranges) { // strings, booleans, maps and lists compare by their own rules: every range query is a candidate
            index.above.visitAll(visit);
            index.below.visitAll(visit);
        }
        return true;
    }

    /**
     * How the range index decides a range that is the whole filter (or branch): a plain range, or an interval whose
     * filter is its two bounds and nothing else, is decided by the value at its threshold (and limit); a negated
     * range, which a missing value or a string also matches, and a range beside other conjuncts are tested.
     */
    private static byte rangeDecision(Clause clause, RangeSpec range) {
        if (range.whenMissing()) {
            return RangeList.UNDECIDED;
        }
        byte atThreshold = range.strict() ? RangeList.STRICT : RangeList.INCLUSIVE;
        if (Double.isInfinite(range.limit())) {
            return singleRelational(clause) != null ? atThreshold : RangeList.UNDECIDED;
        }
        if (!(clause instanceof Clause.Logical) || clause.operation() != Operation.AND
            || ((Clause.Logical) clause).clauses().size() != 2) {
            return RangeList.UNDECIDED;
        }
        List<Clause> bounds = ((Clause.Logical) clause).clauses();
        RangeSpec a = bounds.get(0) instanceof Clause.Relational ? RangeSpec.of(bounds.get(0)) : null;
        RangeSpec b = bounds.get(1) instanceof Clause.Relational ? RangeSpec.of(bounds.get(1)) : null;
        if (a == null || b == null || a.above() == b.above()) {
            return RangeList.UNDECIDED;
        }
        RangeSpec lower = a.above() ? a : b;
        RangeSpec upper = a.above() ? b : a;
        if (lower.threshold() != range.threshold() || upper.threshold() != range.limit()) {
            return RangeList.UNDECIDED;
        }
        return (byte) ((lower.strict() ? RangeList.STRICT : RangeList.INCLUSIVE)
                       | (upper.strict() ? RangeList.LIMIT_STRICT : 0));
    }

    /** The clause itself when relational, or the only clause of a one-clause AND; else null. */
    private static Clause.Relational singleRelational(Clause clause) {
        if (clause instanceof Clause.Relational) {
            return (Clause.Relational) clause;
        }
        if (clause instanceof Clause.Logical && clause.operation() == Operation.AND
            && ((Clause.Logical) clause).clauses().size() == 1
            && ((Clause.Logical) clause).clauses().get(0) instanceof Clause.Relational) {
            return (Clause.Relational) ((Clause.Logical) clause).clauses().get(0);
        }
        return null;
    }

    /** Integers of at most this many characters (sign included) are read exactly as doubles: below 2^53. */
    static final int EXACT_INTEGER_CHARS = 15;

    /**
     * Whether a range query's filter compares the very number {@code d} is when it meets a decoded value: a long
     * below 2^53 in magnitude (the double is the long; a literal past 2^53 compares the same way with it, ties
     * aside), or a double (compared as a double).
     */
    private static boolean exactNumber(Object value) {
        if (value instanceof Long) {
            long v = (Long) value;
            return v > -(1L << 53) && v < 1L << 53;
        }
        return value instanceof Double;
    }

    /** Number of RLIKE queries whose pattern requires no literal, evaluated on every record (a metric). */
    public int unfilteredRegexQueries() {
        return regex == null ? 0 : regex.unfiltered();
    }

    /**
     * The equalities a filter can only match through, if the index can use them: {@code ==} with plain literal
     * values or typed numbers (no null, no FIELD, no BOOLEAN type) — the filter itself, a conjunct of a top-level AND, or an OR whose
     * every branch is such (then one per branch). {@code null} when there are none.
     */
    static List<Clause.Relational> equalities(Clause filter) {
        if (filter instanceof Clause.Relational) {
            return usable((Clause.Relational) filter) ? List.of((Clause.Relational) filter) : null;
        }
        if (filter instanceof Clause.Logical && filter.operation() == Operation.AND) {
            for (Clause c : ((Clause.Logical) filter).clauses()) {
                List<Clause.Relational> r = equalities(c);
                if (r != null) {
                    return r;
                }
            }
            return null;
        }
        if (filter instanceof Clause.Logical && filter.operation() == Operation.OR) {
            List<Clause.Relational> all = new ArrayList<>();
            for (Clause c : ((Clause.Logical) filter).clauses()) {
                List<Clause.Relational> r = equalities(c);
                if (r == null) {
                    return null;
                }
                all.addAll(r);
            }
            return all;
        }
        return null;
    }

    private static boolean usable(Clause.Relational r) {
        return r.operation() == Operation.EQUALS && ClauseIndex.plainOrNumeric(r);
    }

    private PathIndex<Q> pathIndex(FieldPath path) {
        for (PathIndex<Q> index : paths) {
            if (index.path.equals(path)) {
                return index;
            }
        }
        PathIndex<Q> index = new PathIndex<>(path);
        index.span = spans.acquire(path);
        paths.add(index);
        return index;
    }
}

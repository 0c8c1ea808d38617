package dev.bullet.index;

import dev.bullet.query.Clause;
import dev.bullet.query.FilterValue;
import dev.bullet.query.Operation;
import dev.bullet.record.FieldPath;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.RawBytes;
import dev.bullet.record.Span;
import dev.bullet.regex.AsciiText;
import dev.bullet.regex.LiteralMatcher;
import dev.bullet.regex.MatchShape;
import dev.bullet.regex.RegexDfa;
import dev.bullet.regex.RegexLiterals;
import dev.bullet.regex.RegexLiterals.And;
import dev.bullet.regex.RegexLiterals.Literal;
import dev.bullet.regex.RegexLiterals.Or;
import dev.bullet.regex.RegexLiterals.Requirement;
import dev.bullet.regex.WholeLiteral;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The regex prefilter of a Filter task (SPEC §10): queries whose filter requires {@code field RLIKE pattern} (the
 * filter itself or a conjunct of a top-level AND) meet a record only when the record's value holds the literals
 * their pattern requires ({@link RegexLiterals}). The required literals of all queries on a field are found in one
 * pass over the value ({@link LiteralMatcher}); the queries whose formula holds are candidates and run their regex.
 * As RLIKE matches the whole value, a candidate must also start and end with a character its pattern can start and
 * end with, and its first characters must be in the sets every match has at those positions
 * ({@link MatchShape#startsRight}); patterns that require no literal (or only one-character literals, which
 * nearly every value holds) are found by the value's first character and those sets alone, and must find a
 * character of the set every match holds one of ({@link MatchShape#holdsNeed}: a digit for
 * {@code .*[0-9]{2}.*}); they are counted ({@link #unfiltered()}). A record whose field is missing, null, a map or a list meets none of these queries: no
 * RLIKE matches such a value. Candidates are still tested with their full filter by the caller.
 *
 * <p>Literals stay in the automaton after their queries leave, so a query that ends and is submitted again does not
 * rebuild it; the automaton is rebuilt only when a new literal arrives or when most of its literals are unused. A
 * path whose last query leaves keeps its automata too, among the {@link #RETIRED} paths left most recently: a RAW
 * query alone on its path, started again each time it fills up, finds them as they were, its DFA's states
 * already learnt. Not thread-safe.
 *
 * @param <Q> the per-query object the index hands out
 */
final class RegexPrefilter<Q> implements ClauseIndex<Q> {

    /** How a query is found: by the path's DFA, under its literals, or under its first characters. */
    private enum Kind { DECIDED, FILTERED, UNFILTERED }

    /** Where a query was put. */
    private record Placement<Q>(RegexPathFilter<Q> path, RegexEntry<Q> entry, Kind kind) {
    }

    private final PathSpans spans;

    RegexPrefilter(PathSpans spans) {
        this.spans = spans;
    }

    private final List<RegexPathFilter<Q>> paths = new ArrayList<>();
    /** How many path DFAs were built (a test reads it). */
    private long dfaBuilds;
    /** How many paths without queries keep their automata. */
    static final int RETIRED = 256;
    /** Paths whose queries all left, by path, least recently left first: reused when a query comes back. */
    private final Map<FieldPath, RegexPathFilter<Q>> retired = new LinkedHashMap<>(16, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<FieldPath, RegexPathFilter<Q>> eldest) {
            return size() > RETIRED;
        }
    };
    /** Where each query waits: once per clause it was added with (the branches of an OR, see {@link QueryIndex}). */
    private final Map<Q, List<Placement<Q>>> placements = new IdentityHashMap<>();
    private long stamp;
    /** Counts the values read (one per path and record): a negated entry notes the one it was found for. */
    private long values;
    private final AsciiText ascii = new AsciiText();

    @Override
    public boolean add(Q query, Clause filter, boolean mayDecide) {
        Clause.Relational rlike = required(filter);
        boolean negated = false;
        boolean entire = rlike == filter;
        if (rlike == null) {
            rlike = requiredNegated(filter);
            if (rlike == null) {
                return false;
            }
            negated = true;
            entire = filter instanceof Clause.Logical && filter.operation() == Operation.NOT
                && ((Clause.Logical) filter).clauses().get(0) == rlike;
        }
        RegexPathFilter<Q> path = pathFilter(rlike.field());
        RegexEntry<Q> entry = entry(query, path, rlike, entire && mayDecide);
        if (negated) {
            entry.negated = true;
            path.negated.add(entry);
        }
        return true;
    }

    /** Places the entry of a query's RLIKE (or of its negation) on the path: decided, unfiltered or filtered. */
    private RegexEntry<Q> entry(Q query, RegexPathFilter<Q> path, Clause.Relational rlike, boolean entire) {
        List<String> patterns = new ArrayList<>();
        boolean decidable = true;
        MatchShape shape = null;
        for (FilterValue v : rlike.values()) {
            patterns.add(v.value());
            Analysis a = analysis(v.value());
            decidable &= a.decidable();
            shape = shape == null ? a.shape() : shape.or(a.shape());
        }
        if (decidable) {
            RegexEntry<Q> entry = new RegexEntry<>(query, null, MatchShape.UNKNOWN, null, entire, patterns);
            entry.literalFree = selective(shape.requirement()) == null;
            path.placeDecided(entry);
            place(query, new Placement<>(path, entry, Kind.DECIDED));
            return entry;
        }
        WholeLiteral whole = rlike.values().size() == 1 ? analysis(rlike.values().get(0).value()).whole() : null;
        Requirement requirement = selective(shape.requirement());
        if (requirement == null) {
            RegexEntry<Q> entry = new RegexEntry<>(query, null, shape, whole, entire);
            placeUnfiltered(path, entry);
            place(query, new Placement<>(path, entry, Kind.UNFILTERED));
            return entry;
        }
        LiteralFormula formula = compile(path, requirement);
        RegexEntry<Q> entry = new RegexEntry<>(query, formula, shape, whole, entire);
        List<Integer> ids = new ArrayList<>();
        formula.literals(ids);
        for (int id : ids.stream().distinct().toList()) {
            path.byLiteral.get(id).add(entry);
        }
        path.entries++;
        place(query, new Placement<>(path, entry, Kind.FILTERED));
        return entry;
    }

    private void place(Q query, Placement<Q> placement) {
        placements.computeIfAbsent(query, q -> new ArrayList<>(1)).add(placement);
    }

    /** Literals shorter than this occur in most values: looking for them costs more than it turns away. */
    static final int MIN_LITERAL = 2;

    /**
     * The part of a requirement worth looking for: literals shorter than {@link #MIN_LITERAL} are dropped from an
     * AND, and an OR with such a branch is dropped whole (null: nothing worth it). Only ever weaker than the
     * requirement, so still sound; such a pattern is then found by its first characters like one without literals
     * ({@code [0-9]{2}[a-f]+} requires one of a..f, found in nearly every value, and starts with two digits).
     */
    static Requirement selective(Requirement r) {
        if (r == null) {
            return null;
        }
        if (r instanceof Literal) {
            return ((Literal) r).text().length() >= MIN_LITERAL ? r : null;
        }
        if (r instanceof Or) {
            List<Requirement> parts = new ArrayList<>();
            for (Requirement part : ((Or) r).parts()) {
                Requirement kept = selective(part);
                if (kept == null) {
                    return null;
                }
                parts.add(kept);
            }
            return new Or(parts);
        }
        List<Requirement> parts = new ArrayList<>();
        for (Requirement part : ((And) r).parts()) {
            Requirement kept = selective(part);
            if (kept != null) {
                parts.add(kept);
            }
        }
        return parts.isEmpty() ? null : parts.size() == 1 ? parts.get(0) : new And(parts);
    }

    /**
     * What a pattern requires, whether it is a whole literal, and whether a {@link RegexDfa} decides it: immutable,
     * worked out once per pattern.
     */
    private record Analysis(MatchShape shape, WholeLiteral whole, boolean decidable) {
    }

    /** Patterns analysed lately: a RAW query restarted many times a second, or a dashboard, brings the same back. */
    private static final int ANALYSED = 4096;
    private final Map<String, Analysis> analysed = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Analysis> eldest) {
            return size() > ANALYSED;
        }
    };

    private Analysis analysis(String pattern) {
        Analysis a = analysed.get(pattern);
        if (a == null) {
            a = new Analysis(MatchShape.of(pattern), WholeLiteral.of(pattern), RegexDfa.supports(pattern));
            analysed.put(pattern, a);
        }
        return a;
    }

    private static <Q> void placeUnfiltered(RegexPathFilter<Q> path, RegexEntry<Q> entry) {
        path.unfiltered.add(entry);
        if (entry.shape.startsWithAny()) {
            path.anyFirst.add(entry);
            return;
        }
        for (int c = 0; c <= 128; c++) {
            if (entry.shape.mayStartWith(c)) {
                if (path.byFirst[c] == null) {
                    path.byFirst[c] = new ArrayList<>(2);
                }
                path.byFirst[c].add(entry);
            }
        }
    }

    private static <Q> void unplaceUnfiltered(RegexPathFilter<Q> path, RegexEntry<Q> entry) {
        path.unfiltered.remove(entry);
        path.anyFirst.remove(entry);
        for (int c = 0; c <= 128; c++) {
            if (path.byFirst[c] != null) {
                path.byFirst[c].remove(entry);
            }
        }
    }

    private LiteralFormula compile(RegexPathFilter<Q> path, Requirement r) {
        if (r instanceof Literal) {
            return new LiteralFormula(path.literalId(((Literal) r).text()));
        }
        List<Requirement> parts = r instanceof And ? ((And) r).parts() : ((Or) r).parts();
        LiteralFormula[] children = new LiteralFormula[parts.size()];
        for (int i = 0; i < children.length; i++) {
            children[i] = compile(path, parts.get(i));
        }
        return new LiteralFormula(r instanceof And, children);
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
        for (int i = 0; i < all.size(); i++) { // each path once, after all its placements left
            RegexPathFilter<Q> path = all.get(i).path();
            boolean seen = false;
            for (int j = 0; j < i && !seen; j++) {
                seen = all.get(j).path() == path;
            }
            if (!seen) {
                tidy(path);
            }
        }
        return true;
    }

    private void unplace(Placement<Q> placement) {
        RegexPathFilter<Q> path = placement.path();
        if (placement.entry().negated) {
            path.negated.remove(placement.entry());
        }
        if (placement.kind() == Kind.DECIDED) {
            path.unplaceDecided(placement.entry());
        } else if (placement.kind() == Kind.UNFILTERED) {
            unplaceUnfiltered(path, placement.entry());
        } else {
            List<Integer> ids = new ArrayList<>();
            placement.entry().formula.literals(ids);
            for (int id : ids) {
                path.byLiteral.get(id).remove(placement.entry());
            }
            path.entries--;
        }
    }

    /** Retires a path without queries, or renumbers its literals when most are unused. */
    private void tidy(RegexPathFilter<Q> path) {
        if (path.isEmpty()) {
            paths.remove(path);
            spans.release(path.span);
            retired.put(path.path, path);
        } else if (path.literals.size() > 64 && unusedLiterals(path) * 2 > path.literals.size()) {
            compact(path);
        }
    }

    private static <Q> int unusedLiterals(RegexPathFilter<Q> path) {
        int unused = 0;
        for (List<RegexEntry<Q>> list : path.byLiteral) {
            if (list.isEmpty()) {
                unused++;
            }
        }
        return unused;
    }

    /** Renumbers the literals still in use: a path whose queries changed a lot gets a smaller automaton. */
    private void compact(RegexPathFilter<Q> old) {
        RegexPathFilter<Q> fresh = new RegexPathFilter<>(old.path);
        fresh.span = old.span;
        paths.set(paths.indexOf(old), fresh);
        for (List<Placement<Q>> list : placements.values()) {
            for (int i = 0; i < list.size(); i++) {
                list.set(i, moved(list.get(i), old, fresh));
            }
        }
    }

    /** A placement on the compacted path {@code old} placed again on {@code fresh}; any other unchanged. */
    private Placement<Q> moved(Placement<Q> p, RegexPathFilter<Q> old, RegexPathFilter<Q> fresh) {
        if (p.path() != old) {
            return p;
        }
        if (p.entry().negated && p.kind() != Kind.FILTERED) {
            fresh.negated.add(p.entry());
        }
        if (p.kind() == Kind.DECIDED) {
            fresh.placeDecided(p.entry());
            return new Placement<>(fresh, p.entry(), Kind.DECIDED);
        }
        if (p.kind() == Kind.UNFILTERED) {
            placeUnfiltered(fresh, p.entry());
            return new Placement<>(fresh, p.entry(), Kind.UNFILTERED);
        }
        RegexEntry<Q> entry = new RegexEntry<>(p.entry().query, remap(old, fresh, p.entry().formula), p.entry().shape,
                                     p.entry().whole, p.entry().entire);
        if (p.entry().negated) {
            entry.negated = true;
            fresh.negated.add(entry);
        }
        List<Integer> ids = new ArrayList<>();
        entry.formula.literals(ids);
        for (int id : ids.stream().distinct().toList()) {
            fresh.byLiteral.get(id).add(entry);
        }
        fresh.entries++;
        return new Placement<>(fresh, entry, Kind.FILTERED);
    }

    private static <Q> LiteralFormula remap(RegexPathFilter<Q> old, RegexPathFilter<Q> fresh, LiteralFormula node) {
        if (node.id >= 0) {
            return new LiteralFormula(fresh.literalId(old.literals.get(node.id)));
        }
        LiteralFormula[] children = new LiteralFormula[node.children.length];
        for (int i = 0; i < children.length; i++) {
            children[i] = remap(old, fresh, node.children[i]);
        }
        return new LiteralFormula(node.and, children);
    }

    /**
     * Number of RLIKE queries whose pattern requires no literal worth looking for ({@link #selective}): they meet
     * every record whose value there starts with characters they can start with.
     */
    int unfiltered() {
        int n = 0;
        for (RegexPathFilter<Q> path : paths) {
            n += path.unfiltered.size() + path.dfaLiteralFree;
        }
        return n;
    }

    @Override
    public void candidates(PathSpans batch, Candidates<Q> out) {
        for (int p = 0, np = paths.size(); p < np; p++) {
            RegexPathFilter<Q> path = paths.get(p);
            long[] column = batch.column(path.span);
            if (path.dfaEntries > 0 && path.entries == 0 && path.unfiltered.isEmpty() && path.negated.isEmpty()) {
                visitDecidedOnly(path, batch, column, out);
                continue;
            }
            for (int r = 0, n = batch.count(); r < n; r++) {
                out.record = r;
                visitPath(path, batch, r, column[r], out.visit, out.matched);
            }
        }
    }

    /**
     * {@link #visitPath} over a batch for a path whose every pattern the DFA decides (no literal to look for, no
     * pattern without one, no NOT): a plain ASCII string runs the DFA in the record's bytes, a missing value or a
     * container finds nothing, anything else takes the general way.
     */
    private void visitDecidedOnly(RegexPathFilter<Q> path, PathSpans batch, long[] column, Candidates<Q> out) {
        Consumer<Q> visit = out.visit;
        Consumer<Q> matched = out.matched;
        for (int r = 0, n = batch.count(); r < n; r++) {
            long span = column[r];
            if (span == Span.MISSING) {
                values++;
                continue;
            }
            byte[] data = batch.bytes(r);
            int start = Span.start(span);
            if (span == Span.UNSURE || data == null || !batch.plainAscii(r) || data[start] != '"') {
                out.record = r;
                visitPath(path, batch, r, span, visit, matched);
                continue;
            }
            values++;
            RegexDfa dfa = path.dfa;
            if (dfa == null) {
                dfa = dfa(path);
            }
            int state = dfa.run(data, start + 1, Span.end(span) - 1);
            int[] accepted = dfa.accepts(state);
            if (accepted.length > 0) {
                out.record = r;
                accept(path, accepted, visit, matched);
            }
        }
    }

    /** The candidates of one path in the record at position {@code r} of the batch, whose span there is given. */
    private void visitPath(RegexPathFilter<Q> path, PathSpans batch, int r, long span, Consumer<Q> visit,
                           Consumer<Q> matched) {
        values++;
        visitValue(path, batch, r, span, visit, matched);
        if (!path.negated.isEmpty()) {
            visitNegated(path, visit, matched);
        }
    }

    /**
     * The negated entries of a path after its value was read: an entry not found for the value surely fails its
     * RLIKE, so its NOT holds (a match when that is the whole filter); one found as a candidate is tested; one found
     * as a sure match of the RLIKE fails and is left out.
     */
    private void visitNegated(RegexPathFilter<Q> path, Consumer<Q> visit, Consumer<Q> matched) {
        List<RegexEntry<Q>> negated = path.negated;
        for (int i = 0, n = negated.size(); i < n; i++) {
            RegexEntry<Q> entry = negated.get(i);
            if (entry.foundFor != values) {
                (entry.entire ? matched : visit).accept(entry.query);
            } else if (!entry.foundSure) {
                visit.accept(entry.query);
            }
        }
    }

    /**
     * An entry found for the current value: {@code sure} when the RLIKE surely matches it, else a candidate. A
     * negated entry notes it for {@link #visitNegated}; others are handed out (a sure one as a match when the RLIKE
     * is its whole filter).
     */
    private void found(RegexEntry<Q> entry, boolean sure, Consumer<Q> visit, Consumer<Q> matched) {
        if (entry.negated) {
            entry.foundFor = values;
            entry.foundSure = sure;
        } else {
            (sure && entry.entire ? matched : visit).accept(entry.query);
        }
    }

    private void visitValue(RegexPathFilter<Q> path, PathSpans batch, int r, long span, Consumer<Q> visit,
                            Consumer<Q> matched) {
        CharSequence text = null;
        LazyRecord lazy = batch.lazy(r);
        if (lazy != null) { // an ASCII string value is scanned in the record's bytes, not made a String
            if (span == Span.MISSING) {
                return;
            }
            if (span != Span.UNSURE) {
                byte[] data = lazy.bytes();
                int start = Span.start(span);
                int end = Span.end(span);
                if (data[start] == '{' || data[start] == '[') {
                    return;
                }
                if (data[start] == '"' && (lazy.plainAscii() || RawBytes.plainAscii(data, start + 1, end - 1))) {
                    text = ascii.set(data, start + 1, end - 1);
                }
            }
        }
        if (text == null) {
            Object value = batch.record(r).get(path.path);
            if (value == null || value instanceof Map || value instanceof List) {
                return;
            }
            text = value instanceof String ? (String) value : String.valueOf(value);
        }
        if (path.dfaEntries > 0) {
            visitDecided(path, text, visit, matched);
        }
        if (path.entries > 0) {
            visitMatching(path, text, text == ascii, visit, matched);
        }
        if (path.unfiltered.isEmpty()) {
            return;
        }
        if (text.length() == 0) {
            for (RegexEntry<Q> entry : path.unfiltered) {
                if (entry.shape.nullable()) {
                    found(entry, false, visit, matched);
                }
            }
            return;
        }
        int first = LiteralMatcher.fold(text.charAt(0));
        int last = LiteralMatcher.fold(text.charAt(text.length() - 1));
        List<RegexEntry<Q>> byFirst = path.byFirst[Math.min(first, 128)];
        boolean decidable = text == ascii;
        if (byFirst != null) {
            visitAdmitted(byFirst, text, first, last, decidable, visit, matched);
        }
        visitAdmitted(path.anyFirst, text, first, last, decidable, visit, matched);
    }

    private void visitAdmitted(List<RegexEntry<Q>> entries, CharSequence text, int first, int last,
                                          boolean decidable, Consumer<Q> visit, Consumer<Q> matched) {
        for (int i = 0, n = entries.size(); i < n; i++) {
            RegexEntry<Q> entry = entries.get(i);
            if (entry.shape.admits(first, last) && entry.shape.startsRight(text) && entry.shape.holdsNeed(text)) {
                decide(entry, text, decidable, visit, matched);
            }
        }
    }

    /** An admitted entry: decided here when its pattern is a whole literal read from ASCII bytes, else visited. */
    private void decide(RegexEntry<Q> entry, CharSequence text, boolean decidable, Consumer<Q> visit,
                        Consumer<Q> matched) {
        if (decidable && entry.whole != null) {
            if (entry.whole.matches(text)) {
                found(entry, true, visit, matched);
            }
        } else {
            found(entry, false, visit, matched);
        }
    }

    /**
     * The entries the path's DFA decides: those of the patterns that match the whole text are matches (or, with more
     * to their filter, candidates); on a text outside ASCII every one of them is a candidate, for RE2 to decide.
     */
    private void visitDecided(RegexPathFilter<Q> path, CharSequence text, Consumer<Q> visit, Consumer<Q> matched) {
        RegexDfa dfa = path.dfa;
        if (dfa == null) {
            dfa = dfa(path);
        }
        int state = text == ascii ? dfa.run(ascii.data(), ascii.from(), ascii.from() + ascii.length()) : dfa.run(text);
        if (state == RegexDfa.NOT_ASCII) {
            long current = ++stamp;
            for (List<RegexEntry<Q>> users : path.byPattern) {
                for (int i = 0, n = users.size(); i < n; i++) {
                    RegexEntry<Q> entry = users.get(i);
                    if (entry.stamp != current) {
                        entry.stamp = current;
                        found(entry, false, visit, matched);
                    }
                }
            }
            return;
        }
        accept(path, dfa.accepts(state), visit, matched);
    }

    /** The path's DFA, built the first time a value needs it. */
    private RegexDfa dfa(RegexPathFilter<Q> path) {
        RegexDfa dfa = RegexDfa.of(path.dfaPatterns); // never null: each of its patterns was compiled alone
        path.dfa = dfa;
        dfaBuilds++;
        return dfa;
    }

    /** The users of the patterns a DFA state accepts: each a sure match, once. */
    private void accept(RegexPathFilter<Q> path, int[] accepted, Consumer<Q> visit, Consumer<Q> matched) {
        long current = ++stamp;
        for (int id : accepted) {
            List<RegexEntry<Q>> users = path.byPattern.get(id);
            for (int i = 0, n = users.size(); i < n; i++) {
                RegexEntry<Q> entry = users.get(i);
                if (entry.stamp != current) {
                    entry.stamp = current;
                    found(entry, true, visit, matched);
                }
            }
        }
    }

    /** {@code decidable}: the text is ASCII read from the record's bytes, so whole-literal patterns are decided here. */
    private void visitMatching(RegexPathFilter<Q> path, CharSequence text, boolean decidable, Consumer<Q> visit,
                               Consumer<Q> matched) {
        if (path.matcher == null) {
            path.matcher = new LiteralMatcher(path.literals);
            path.found = new boolean[path.literals.size()];
            path.foundList = new int[path.literals.size()];
        }
        path.foundCount = path.matcher.collect(text, path.found, path.foundList);
        if (path.foundCount == 0) {
            return;
        }
        long current = ++stamp;
        boolean[] found = path.found;
        // a literal was found, so the text is not empty; its ends turn most entries away before their formula
        int first = LiteralMatcher.fold(text.charAt(0));
        int last = LiteralMatcher.fold(text.charAt(text.length() - 1));
        for (int f = 0; f < path.foundCount; f++) {
            List<RegexEntry<Q>> entries = path.byLiteral.get(path.foundList[f]);
            for (int i = 0, n = entries.size(); i < n; i++) {
                RegexEntry<Q> entry = entries.get(i);
                if (entry.stamp != current) {
                    entry.stamp = current;
                    // a formula of one literal holds: the entry is listed under that literal, found
                    if (!entry.shape.admits(first, last) || entry.formula.id < 0 && !entry.formula.holds(found)
                        || !entry.shape.startsRight(text)) {
                        continue;
                    }
                    decide(entry, text, decidable, visit, matched);
                }
            }
        }
        for (int f = 0; f < path.foundCount; f++) {
            found[path.foundList[f]] = false;
        }
    }

    /** An RLIKE with literal patterns that the filter requires: itself or a conjunct of a top-level AND. */
    static Clause.Relational required(Clause filter) {
        return ClauseIndex.required(filter, c -> {
            if (!(c instanceof Clause.Relational)) {
                return null;
            }
            Clause.Relational r = (Clause.Relational) c;
            if (r.operation() != Operation.REGEX_LIKE || r.values().isEmpty()) {
                return null;
            }
            for (FilterValue v : r.values()) {
                if (v.kind() != FilterValue.Kind.VALUE || v.value() == null) {
                    return null;
                }
            }
            return r;
        });
    }

    /** The RLIKE under a {@code NOT} that the filter requires (itself or a conjunct of a top-level AND), if any. */
    static Clause.Relational requiredNegated(Clause filter) {
        return ClauseIndex.required(filter, c -> {
            if (c instanceof Clause.Logical && c.operation() == Operation.NOT
                && ((Clause.Logical) c).clauses().size() == 1) {
                Clause inner = ((Clause.Logical) c).clauses().get(0);
                return inner instanceof Clause.Relational && required(inner) == inner ? (Clause.Relational) inner : null;
            }
            return null;
        });
    }

    long dfaBuilds() {
        return dfaBuilds;
    }

    private RegexPathFilter<Q> pathFilter(FieldPath path) {
        for (RegexPathFilter<Q> p : paths) {
            if (p.path.equals(path)) {
                return p;
            }
        }
        RegexPathFilter<Q> p = retired.remove(path);
        if (p == null) {
            p = new RegexPathFilter<>(path);
        }
        p.span = spans.acquire(path);
        paths.add(p);
        return p;
    }
}

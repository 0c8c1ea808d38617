package dev.bullet.index;

import dev.bullet.index.RegexLiterals.And;
import dev.bullet.index.RegexLiterals.Literal;
import dev.bullet.index.RegexLiterals.Or;
import dev.bullet.index.RegexLiterals.Requirement;
import dev.bullet.query.Clause;
import dev.bullet.query.FilterValue;
import dev.bullet.query.Operation;
import dev.bullet.record.FieldPath;
import dev.bullet.record.Record;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The regex prefilter of a Filter task (SPEC §10): queries whose filter requires {@code field RLIKE pattern} (the
 * filter itself or a conjunct of a top-level AND) meet a record only when the record's value holds the literals
 * their pattern requires ({@link RegexLiterals}). The required literals of all queries on a field are found in one
 * pass over the value ({@link LiteralMatcher}); the queries whose formula holds are candidates and run their regex.
 * Patterns that require no literal meet every record with a text value on the field, and are counted
 * ({@link #unfiltered()}). A record whose field is missing, null, a map or a list meets none of these queries: no
 * RLIKE matches such a value. Candidates are still tested with their full filter by the caller.
 *
 * <p>Literals stay in the automaton after their queries leave, so a query that ends and is submitted again does not
 * rebuild it; the automaton is rebuilt only when a new literal arrives or when most of its literals are unused.
 * Not thread-safe.
 *
 * @param <Q> the per-query object the index hands out
 */
final class RegexPrefilter<Q> implements ClauseIndex<Q> {
    /** One query's formula over its path's literal ids. */
    private static final class Entry<Q> {
        final Q query;
        final Node formula;
        long stamp = -1;

        Entry(Q query, Node formula) {
            this.query = query;
            this.formula = formula;
        }
    }

    /** A formula compiled to literal ids: a leaf ({@code id >= 0}) or an AND/OR of children. */
    private static final class Node {
        final int id;
        final boolean and;
        final Node[] children;

        Node(int id) {
            this.id = id;
            this.and = false;
            this.children = null;
        }

        Node(boolean and, Node[] children) {
            this.id = -1;
            this.and = and;
            this.children = children;
        }

        boolean holds(boolean[] found) {
            if (id >= 0) {
                return found[id];
            }
            for (Node child : children) {
                if (child.holds(found) != and) {
                    return !and;
                }
            }
            return and;
        }

        void literals(List<Integer> out) {
            if (id >= 0) {
                out.add(id);
            } else {
                for (Node child : children) {
                    child.literals(out);
                }
            }
        }
    }

    /** The RLIKE queries of one path. */
    private static final class PathFilter<Q> {
        final FieldPath path;
        final Map<String, Integer> literalIds = new HashMap<>();
        final List<String> literals = new ArrayList<>();
        /** Entries that mention each literal id (an entry is listed under each of its literals once). */
        final List<List<Entry<Q>>> byLiteral = new ArrayList<>();
        final List<Q> unfiltered = new ArrayList<>();
        int entries;
        LiteralMatcher matcher;
        boolean[] found = new boolean[0];
        int[] foundList = new int[0];
        int foundCount;

        PathFilter(FieldPath path) {
            this.path = path;
        }

        int literalId(String text) {
            Integer id = literalIds.get(text);
            if (id == null) {
                id = literals.size();
                literalIds.put(text, id);
                literals.add(text);
                byLiteral.add(new ArrayList<>(1));
                matcher = null;
            }
            return id;
        }

        boolean isEmpty() {
            return entries == 0 && unfiltered.isEmpty();
        }
    }

    /** Where a query was put. */
    private record Placement<Q>(PathFilter<Q> path, Entry<Q> entry) {
    }

    private final List<PathFilter<Q>> paths = new ArrayList<>();
    private final Map<Q, Placement<Q>> placements = new IdentityHashMap<>();
    private long stamp;
    private PathFilter<Q> scanning;
    private final LiteralMatcher.Found sink = this::found;

    @Override
    public boolean add(Q query, Clause filter) {
        Clause.Relational rlike = required(filter);
        if (rlike == null) {
            return false;
        }
        PathFilter<Q> path = pathFilter(rlike.field());
        List<Requirement> alternatives = new ArrayList<>();
        boolean always = false;
        for (FilterValue v : rlike.values()) {
            Requirement r = RegexLiterals.of(v.value());
            if (r == null) {
                always = true;
                break;
            }
            alternatives.add(r);
        }
        if (always) {
            path.unfiltered.add(query);
            placements.put(query, new Placement<>(path, null));
            return true;
        }
        Node formula = compile(path, alternatives.size() == 1 ? alternatives.get(0) : new Or(alternatives));
        Entry<Q> entry = new Entry<>(query, formula);
        List<Integer> ids = new ArrayList<>();
        formula.literals(ids);
        for (int id : ids.stream().distinct().toList()) {
            path.byLiteral.get(id).add(entry);
        }
        path.entries++;
        placements.put(query, new Placement<>(path, entry));
        return true;
    }

    private Node compile(PathFilter<Q> path, Requirement r) {
        if (r instanceof Literal) {
            return new Node(path.literalId(((Literal) r).text()));
        }
        List<Requirement> parts = r instanceof And ? ((And) r).parts() : ((Or) r).parts();
        Node[] children = new Node[parts.size()];
        for (int i = 0; i < children.length; i++) {
            children[i] = compile(path, parts.get(i));
        }
        return new Node(r instanceof And, children);
    }

    @Override
    public boolean remove(Q query) {
        Placement<Q> placement = placements.remove(query);
        if (placement == null) {
            return false;
        }
        PathFilter<Q> path = placement.path();
        if (placement.entry() == null) {
            path.unfiltered.remove(query);
        } else {
            List<Integer> ids = new ArrayList<>();
            placement.entry().formula.literals(ids);
            for (int id : ids) {
                path.byLiteral.get(id).remove(placement.entry());
            }
            path.entries--;
        }
        if (path.isEmpty()) {
            paths.remove(path);
        } else if (path.literals.size() > 64 && unusedLiterals(path) * 2 > path.literals.size()) {
            compact(path);
        }
        return true;
    }

    private static <Q> int unusedLiterals(PathFilter<Q> path) {
        int unused = 0;
        for (List<Entry<Q>> list : path.byLiteral) {
            if (list.isEmpty()) {
                unused++;
            }
        }
        return unused;
    }

    /** Renumbers the literals still in use: a path whose queries changed a lot gets a smaller automaton. */
    private void compact(PathFilter<Q> old) {
        PathFilter<Q> fresh = new PathFilter<>(old.path);
        fresh.unfiltered.addAll(old.unfiltered);
        paths.set(paths.indexOf(old), fresh);
        for (Map.Entry<Q, Placement<Q>> e : placements.entrySet()) {
            Placement<Q> p = e.getValue();
            if (p.path() != old) {
                continue;
            }
            if (p.entry() == null) {
                e.setValue(new Placement<>(fresh, null));
                continue;
            }
            Entry<Q> entry = new Entry<>(p.entry().query, remap(old, fresh, p.entry().formula));
            List<Integer> ids = new ArrayList<>();
            entry.formula.literals(ids);
            for (int id : ids.stream().distinct().toList()) {
                fresh.byLiteral.get(id).add(entry);
            }
            fresh.entries++;
            e.setValue(new Placement<>(fresh, entry));
        }
    }

    private static <Q> Node remap(PathFilter<Q> old, PathFilter<Q> fresh, Node node) {
        if (node.id >= 0) {
            return new Node(fresh.literalId(old.literals.get(node.id)));
        }
        Node[] children = new Node[node.children.length];
        for (int i = 0; i < children.length; i++) {
            children[i] = remap(old, fresh, node.children[i]);
        }
        return new Node(node.and, children);
    }

    /** Number of RLIKE queries whose pattern requires no literal: they meet every record with a value there. */
    int unfiltered() {
        int n = 0;
        for (PathFilter<Q> path : paths) {
            n += path.unfiltered.size();
        }
        return n;
    }

    @Override
    public void candidates(Record record, Consumer<Q> visit) {
        for (int p = 0, np = paths.size(); p < np; p++) {
            PathFilter<Q> path = paths.get(p);
            Object value = record.get(path.path);
            if (value == null || value instanceof Map || value instanceof List) {
                continue;
            }
            String text = value instanceof String ? (String) value : String.valueOf(value);
            if (path.entries > 0) {
                visitMatching(path, text, visit);
            }
            List<Q> unfiltered = path.unfiltered;
            for (int i = 0, n = unfiltered.size(); i < n; i++) {
                visit.accept(unfiltered.get(i));
            }
        }
    }

    private void visitMatching(PathFilter<Q> path, String text, Consumer<Q> visit) {
        if (path.matcher == null) {
            path.matcher = new LiteralMatcher(path.literals);
            path.found = new boolean[path.literals.size()];
            path.foundList = new int[path.literals.size()];
        }
        scanning = path;
        path.foundCount = 0;
        path.matcher.scan(text, sink);
        long current = ++stamp;
        boolean[] found = path.found;
        for (int f = 0; f < path.foundCount; f++) {
            List<Entry<Q>> entries = path.byLiteral.get(path.foundList[f]);
            for (int i = 0, n = entries.size(); i < n; i++) {
                Entry<Q> entry = entries.get(i);
                if (entry.stamp != current) {
                    entry.stamp = current;
                    if (entry.formula.holds(found)) {
                        visit.accept(entry.query);
                    }
                }
            }
        }
        for (int f = 0; f < path.foundCount; f++) {
            found[path.foundList[f]] = false;
        }
    }

    private void found(int id) {
        PathFilter<Q> path = scanning;
        if (!path.found[id]) {
            path.found[id] = true;
            path.foundList[path.foundCount++] = id;
        }
    }

    /** An RLIKE with literal patterns that the filter requires: itself or a conjunct of a top-level AND. */
    static Clause.Relational required(Clause filter) {
        if (filter instanceof Clause.Relational) {
            Clause.Relational r = (Clause.Relational) filter;
            if (r.operation() != Operation.REGEX_LIKE || r.values().isEmpty()) {
                return null;
            }
            for (FilterValue v : r.values()) {
                if (v.kind() != FilterValue.Kind.VALUE || v.value() == null) {
                    return null;
                }
            }
            return r;
        }
        if (filter instanceof Clause.Logical && filter.operation() == Operation.AND) {
            for (Clause c : ((Clause.Logical) filter).clauses()) {
                Clause.Relational r = required(c);
                if (r != null) {
                    return r;
                }
            }
        }
        return null;
    }

    private PathFilter<Q> pathFilter(FieldPath path) {
        for (PathFilter<Q> p : paths) {
            if (p.path.equals(path)) {
                return p;
            }
        }
        PathFilter<Q> p = new PathFilter<>(path);
        paths.add(p);
        return p;
    }
}

package dev.bullet.index;

import dev.bullet.query.Clause;
import dev.bullet.query.FilterValue;
import dev.bullet.query.Operation;
import dev.bullet.query.Values;
import dev.bullet.record.FieldPath;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.RawBytes;
import dev.bullet.record.Span;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * CONTAINSKEY, CONTAINSVALUE and SIZEIS indexed by what the record's value holds (SPEC §6.2, §10): queries wait under
 * the key, the value (by its text, number and boolean readings, as equalities do in {@link QueryIndex}) or the size
 * they look for, and a record's map (or the maps of its list) is walked once to look its keys, values or size up.
 * Taken: such a clause with plain literals, alone or as a conjunct of a top-level AND. Candidates are still tested
 * with their full filter by the caller, except where a CONTAINSKEY or SIZEIS is the whole filter (or a branch of a
 * top-level OR): then finding the key, or the size, is the whole test, and the query is handed out as matched. So is
 * a whole CONTAINSVALUE whose text a string value holds, in a map whose keys are all distinct (or a list): a
 * duplicate key could have overridden the value, and numbers and booleans compare by their own rules.
 * Not thread-safe.
 *
 * @param <Q> the per-query object the index hands out
 */
final class ContainsIndex<Q> implements ClauseIndex<Q> {
    private static final class PathContains<Q> {
        final FieldPath path;
        /** The path's id in {@link PathSpans}. */
        int span;
        final TextMap<Q> byKey = new TextMap<>();
        final TextMap<Q> byText = new TextMap<>();
        /**
         * As {@link #byText}, for CONTAINSVALUE queries whose whole filter it is: a string value of the map (or an
         * element of the list) equal to the literal's text is a match, once the map is known to hold no duplicate
         * key (a value a later duplicate overrode is no value of the map).
         */
        final TextMap<Q> byTextDecided = new TextMap<>();
        final NumberMap<List<Q>> byNumber = new NumberMap<>();
        final Map<Boolean, List<Q>> byBoolean = new HashMap<>();
        final NumberMap<List<Q>> bySize = new NumberMap<>();
        /** As {@link #byKey} and {@link #bySize}, for queries whose whole filter the key or the size decides. */
        final TextMap<Q> byKeyDecided = new TextMap<>();
        final NumberMap<List<Q>> bySizeDecided = new NumberMap<>();
        int size;
        /**
         * The texts of the text maps quoted, when they are all the path waits for (no number, boolean or size): a
         * container in which none occurs has no candidate, and is not walked. Null: walk always. Worked out again
         * after the path's queries change ({@link #needlesKnown}).
         */
        QuotedNeedles needles;
        boolean needlesKnown;
        /**
         * Whether anything but sizes is waited for: a walk then reads members and elements, else it only counts them.
         */
        boolean readsMembers;
        /**
         * Whether the path waits for one key text and nothing else: a walk stops once it found the key where it
         * hands out its strongest answer (outside a map's inner map), as what follows can only hand it out again.
         */
        boolean oneKeyOnly;

        /** Works out {@link #needles}, {@link #readsMembers} and {@link #oneKeyOnly} for the path's current queries. */
        void knowNeedles() {
            needlesKnown = true;
            needles = null;
            boolean values = !byText.isEmpty() || !byTextDecided.isEmpty() || !byNumber.isEmpty() || !byBoolean.isEmpty();
            readsMembers = values || hasKeys();
            Set<TextKey> keys = new HashSet<>(byKey.keys());
            keys.addAll(byKeyDecided.keys());
            oneKeyOnly = !values && !hasSizes() && byKey.isEmpty() != byKeyDecided.isEmpty() && keys.size() == 1;
            if (hasSizes() || !byNumber.isEmpty() || !byBoolean.isEmpty()) {
                return;
            }
            Set<String> texts = new LinkedHashSet<>();
            for (TextMap<Q> map : List.of(byKey, byKeyDecided, byText, byTextDecided)) {
                for (TextKey key : map.keys()) {
                    texts.add(key.toString());
                    if (texts.size() > QuotedNeedles.MAX_TEXTS) {
                        return;
                    }
                }
            }
            needles = QuotedNeedles.of(texts);
        }

        boolean hasKeys() {
            return !byKey.isEmpty() || !byKeyDecided.isEmpty();
        }

        boolean hasSizes() {
            return !bySize.isEmpty() || !bySizeDecided.isEmpty();
        }

        PathContains(FieldPath path) {
            this.path = path;
        }
    }

    /** Where a query waits: the maps (a {@code Map} or a {@link NumberMap}) and keys it was put under. */
    private record Placement<Q>(PathContains<Q> path, List<Object> maps, List<Object> keys) {
    }

    private final PathSpans spans;

    ContainsIndex(PathSpans spans) {
        this.spans = spans;
    }

    private final List<PathContains<Q>> paths = new ArrayList<>();
    private final TextKey probe = TextKey.probe();
    private final InBytes bytes = new InBytes();
    /** Where each query waits: once per clause it was added with (the branches of an OR, see {@link QueryIndex}). */
    private final Map<Q, List<Placement<Q>>> placements = new IdentityHashMap<>();

    @Override
    public boolean add(Q query, Clause filter, boolean mayDecide) {
        Clause.Relational clause = required(filter);
        if (clause == null) {
            return false;
        }
        boolean entire = ClauseIndex.isWhole(filter, clause);
        boolean decides = entire && mayDecide; // (a CONTAINSVALUE's text only, and only in a map without duplicate keys)
        PathContains<Q> path = pathContains(clause.field());
        Placement<Q> placement = new Placement<>(path, new ArrayList<>(), new ArrayList<>());
        for (FilterValue v : clause.values()) {
            String text = v.value();
            switch (clause.operation()) {
                case CONTAINS_KEY:
                    put(decides ? path.byKeyDecided : path.byKey, TextKey.of(text), query, placement);
                    break;
                case SIZE_IS: {
                    Object n = Values.asNumber(text);
                    if (n != null) {
                        put(decides ? path.bySizeDecided : path.bySize, ((Number) n).doubleValue(), query, placement);
                    }
                    break;
                }
                default: {
                    put(decides ? path.byTextDecided : path.byText, TextKey.of(text), query, placement);
                    Object n = Values.asNumber(text);
                    if (n != null) {
                        put(path.byNumber, ((Number) n).doubleValue(), query, placement);
                    }
                    String t = text.trim();
                    if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
                        put(path.byBoolean, Boolean.parseBoolean(t), query, placement);
                    }
                    break;
                }
            }
        }
        path.size++;
        path.needlesKnown = false;
        placements.computeIfAbsent(query, q -> new ArrayList<>(1)).add(placement);
        return true;
    }

    private static <Q> void put(TextMap<Q> map, TextKey key, Q query, Placement<Q> placement) {
        if (map.add(key, query)) {
            placement.maps().add(map);
            placement.keys().add(key);
        }
    }

    private static <K, Q> void put(Map<K, List<Q>> map, K key, Q query, Placement<Q> placement) {
        List<Q> list = map.computeIfAbsent(key, k -> new ArrayList<>(1));
        if (!list.contains(query)) {
            list.add(query);
            placement.maps().add(map);
            placement.keys().add(key);
        }
    }

    private static <Q> void put(NumberMap<List<Q>> map, double key, Q query, Placement<Q> placement) {
        List<Q> list = map.computeIfAbsent(key, () -> new ArrayList<>(1));
        if (!list.contains(query)) {
            list.add(query);
            placement.maps().add(map);
            placement.keys().add(key);
        }
    }

    @Override
    public boolean remove(Q query) {
        List<Placement<Q>> all = placements.remove(query);
        if (all == null) {
            return false;
        }
        for (Placement<Q> placement : all) {
            unplace(query, placement);
        }
        return true;
    }

    private void unplace(Q query, Placement<Q> placement) {
        for (int i = 0; i < placement.keys().size(); i++) {
            Object key = placement.keys().get(i);
            if (placement.maps().get(i) instanceof TextMap) {
                @SuppressWarnings("unchecked")
                TextMap<Q> map = (TextMap<Q>) placement.maps().get(i);
                map.remove((TextKey) key, query);
                continue;
            }
            if (placement.maps().get(i) instanceof NumberMap) {
                @SuppressWarnings("unchecked")
                NumberMap<List<Q>> map = (NumberMap<List<Q>>) placement.maps().get(i);
                List<Q> list = map.get((Double) key);
                if (list != null) {
                    list.remove(query);
                    if (list.isEmpty()) {
                        map.remove((Double) key);
                    }
                }
                continue;
            }
            @SuppressWarnings("unchecked")
            Map<Object, List<Q>> map = (Map<Object, List<Q>>) placement.maps().get(i);
            List<Q> list = map.get(key);
            if (list != null) {
                list.remove(query);
                if (list.isEmpty()) {
                    map.remove(key);
                }
            }
        }
        placement.path().needlesKnown = false;
        if (--placement.path().size == 0) {
            paths.remove(placement.path());
            spans.release(placement.path().span);
        }
    }

    @Override
    public void candidates(PathSpans batch, Candidates<Q> out) {
        for (int p = 0, np = paths.size(); p < np; p++) {
            PathContains<Q> path = paths.get(p);
            if (!path.needlesKnown) {
                path.knowNeedles();
            }
            long[] column = batch.column(path.span);
            for (int r = 0, n = batch.count(); r < n; r++) {
                out.record = r;
                LazyRecord lazy = batch.lazy(r);
                if (lazy == null || !bytes.visit(path, lazy, column[r], out.visit, out.matched)) {
                    visitValue(path, batch.record(r).get(path.path), out.visit, out.matched);
                }
            }
        }
    }

    /**
     * The candidates of one path from the record's decoded value there; the decoded value is what the filter reads,
     * so a key or size found there decides the queries waiting for it as their whole filter.
     */
    private void visitValue(PathContains<Q> path, Object value, Consumer<Q> visit, Consumer<Q> matched) {
        int size;
        if (value instanceof Map) {
            Map<?, ?> map = (Map<?, ?>) value;
            inMap(path, map, visit, matched);
            for (Object inner : map.values()) { // a map of maps is searched one level down (SPEC §6.2)
                if (inner instanceof Map) {
                    inMap(path, (Map<?, ?>) inner, visit, matched);
                }
            }
            size = map.size();
        } else if (value instanceof List) {
            List<?> list = (List<?>) value;
            for (Object element : list) {
                if (element instanceof Map) {
                    inMap(path, (Map<?, ?>) element, visit, matched);
                } else {
                    byValue(path, element, visit, matched);
                }
            }
            size = list.size();
        } else if (value instanceof String) {
            size = ((String) value).length();
        } else {
            return;
        }
        visitSize(path, size, visit, matched);
    }

    private static <Q> void visitSize(PathContains<Q> path, int size, Consumer<Q> visit, Consumer<Q> matched) {
        ClauseIndex.visitAll(path.bySize.get(size), visit);
        ClauseIndex.visitAll(path.bySizeDecided.get(size), matched);
    }

    private void inMap(PathContains<Q> path, Map<?, ?> map, Consumer<Q> visit, Consumer<Q> matched) {
        if (path.hasKeys()) {
            for (Object key : map.keySet()) {
                ClauseIndex.visitAll(path.byKey.get(probe.set((String) key)), visit);
                ClauseIndex.visitAll(path.byKeyDecided.get(probe), matched);
            }
        }
        for (Object v : map.values()) {
            byValue(path, v, visit, matched);
        }
    }

    private void byValue(PathContains<Q> path, Object v, Consumer<Q> visit) {
        byValue(path, v, visit, visit);
    }

    /** {@code matched}: where a decided text's queries go (the decoded value holds no overridden value). */
    private void byValue(PathContains<Q> path, Object v, Consumer<Q> visit, Consumer<Q> matched) {
        if (v instanceof String) {
            ClauseIndex.visitAll(path.byText.get(probe.set((String) v)), visit);
            ClauseIndex.visitAll(path.byTextDecided.get(probe), matched);
        } else if (v instanceof Number) {
            ClauseIndex.visitAll(path.byNumber.get(((Number) v).doubleValue()), visit);
        } else if (v instanceof Boolean) {
            ClauseIndex.visitAll(path.byBoolean.get(v), visit);
        }
    }

    /**
     * The candidates of one path read from the record's bytes, as {@link #candidates} finds them from the decoded
     * value (an ASCII container without escapes: keys and strings are their bytes); false when the caller must decode.
     * Duplicate keys are walked too: an overridden value can only add a candidate, and sizes count distinct keys.
     * A key found in a map of a map is not a decision: a duplicate key may have overridden that inner map.
     */
    private final class InBytes implements RawBytes.Members, RawBytes.Elements {
        private static final int PAIRWISE = 32;
        private final int[] keys = new int[PAIRWISE * 2];
        private byte[] data;
        private PathContains<Q> path;
        private Consumer<Q> visit;
        private Consumer<Q> matched;
        private boolean inner;
        /** Inside the inner map of a map's member (not of a list's element). */
        private boolean innerOfMap;
        private int members;
        /** The walk found all it can hand out ({@link PathContains#oneKeyOnly}): the rest is not walked. */
        private boolean done;
        /**
         * Decided CONTAINSVALUE queries whose text a value of the top map holds: matched once the walk shows the map
         * has no duplicate key, tested otherwise.
         */
        private final List<Q> pending = new ArrayList<>();

        boolean visit(PathContains<Q> path, LazyRecord record, long span, Consumer<Q> visit, Consumer<Q> matched) {
            if (span == Span.UNSURE) {
                return false;
            }
            if (span == Span.MISSING) {
                return true;
            }
            byte[] data = record.bytes();
            int start = Span.start(span);
            int end = Span.end(span);
            byte first = data[start];
            if (first == '"') {
                if (path.hasSizes()) {
                    if (!record.plainAscii() && !RawBytes.plainAscii(data, start + 1, end - 1)) {
                        return false;
                    }
                    visitSize(path, end - start - 2, visit, matched);
                }
                return true;
            }
            if (first != '{' && first != '[') {
                return true;
            }
            if (!record.plainAscii() && !RawBytes.plainAscii(data, start, end)) {
                return false;
            }
            if (path.needles != null && !path.needles.occursIn(data, start, end)) {
                return true; // no key or string in it is a text the path waits for: no candidate
            }
            this.data = data;
            this.path = path;
            this.visit = visit;
            this.matched = matched;
            this.inner = false;
            this.innerOfMap = false;
            this.members = 0;
            this.done = false;
            int size;
            if (first == '{') {
                RawBytes.members(data, start, this);
                boolean counts = path.hasSizes() || !pending.isEmpty();
                size = !counts ? 0 : members <= PAIRWISE ? distinct() : -1;
                if (!pending.isEmpty()) { // every key distinct: the values walked are the map's values
                    ClauseIndex.visitAll(pending, size == members ? matched : visit);
                    pending.clear();
                }
            } else {
                size = RawBytes.elements(data, start, this);
            }
            this.data = null;
            this.visit = null;
            this.matched = null;
            if (path.hasSizes()) {
                if (size < 0) {
                    return false; // a large map: its decode counts its distinct keys (what was handed out holds)
                }
                visitSize(path, size, visit, matched);
            }
            return true;
        }

        @Override
        public boolean member(int keyStart, int keyEnd, int valueStart, int valueEnd) {
            if (!inner) {
                if (members < PAIRWISE) {
                    keys[members * 2] = keyStart;
                    keys[members * 2 + 1] = keyEnd;
                }
                members++;
            }
            if (!path.readsMembers) {
                return true; // sizes only: the top map's keys are counted, nothing is looked up
            }
            if (path.oneKeyOnly) {
                TextMap<Q> map = path.byKey.isEmpty() ? path.byKeyDecided : path.byKey;
                int found = visitText(map, keyStart, keyEnd, map == path.byKey || innerOfMap ? visit : matched);
                if (found > 0 && !innerOfMap) {
                    done = true; // found where its answer is final: later members can only repeat it
                    return false;
                }
            } else {
                if (!path.byKey.isEmpty()) {
                    visitText(path.byKey, keyStart, keyEnd, visit);
                }
                if (!path.byKeyDecided.isEmpty()) {
                    visitText(path.byKeyDecided, keyStart, keyEnd, innerOfMap ? visit : matched);
                }
            }
            if (!inner && data[valueStart] == '{') { // a map of maps is searched one level down (SPEC §6.2)
                inner = true;
                innerOfMap = true;
                RawBytes.members(data, valueStart, this);
                inner = false;
                innerOfMap = false;
            } else {
                value(valueStart, valueEnd, inner ? visit : null);
            }
            return !done;
        }

        @Override
        public boolean element(int start, int end) {
            if (!path.readsMembers) {
                return true; // sizes only: the elements are counted
            }
            if (data[start] == '{') {
                inner = true; // a list's maps are searched, not their inner maps
                RawBytes.members(data, start, this);
                inner = false;
            } else {
                value(start, end, matched); // an element of the list: no key can have overridden it
            }
            return !done;
        }

        /**
         * Looks a value up; {@code decided} is where a decided text's queries go: null for a value of the top map
         * (they wait in {@link #pending} for the walk's end), {@code visit} inside an inner map (whose duplicate keys
         * are not counted), {@code matched} for an element of a list.
         */
        private void value(int start, int end, Consumer<Q> decided) {
            byte first = data[start];
            if (first == '"') {
                if (!path.byText.isEmpty()) {
                    visitText(path.byText, start + 1, end - 1, visit);
                }
                if (!path.byTextDecided.isEmpty()) {
                    List<Q> hits = path.byTextDecided.get(data, start + 1, end - 1,
                                                          TextKey.hash(data, start + 1, end - 1), probe);
                    if (decided != null) {
                        ClauseIndex.visitAll(hits, decided);
                    } else if (hits != null) {
                        pending.addAll(hits);
                    }
                }
            } else if (first == '-' || first >= '0' && first <= '9') {
                if (!path.byNumber.isEmpty()) {
                    ClauseIndex.visitAll(path.byNumber.get(RawBytes.toDouble(data, start, end)), visit);
                }
            } else if (first == 't' || first == 'f') {
                ClauseIndex.visitAll(path.byBoolean.get(first == 't'), visit);
            }
        }

        /** Hands out the queries of a text map waiting for the (plain ASCII) text at {@code [from, to)}; their number. */
        private int visitText(TextMap<Q> map, int from, int to, Consumer<Q> out) {
            List<Q> hits = map.get(data, from, to, TextKey.hash(data, from, to), probe);
            ClauseIndex.visitAll(hits, out);
            return hits == null ? 0 : hits.size();
        }

        /** The number of distinct keys among the first members (at most {@link #PAIRWISE}). */
        private int distinct() {
            int n = members;
            int distinct = 0;
            for (int a = 0; a < n; a++) {
                boolean seen = false;
                for (int b = 0; b < a && !seen; b++) {
                    seen = Arrays.equals(data, keys[a * 2], keys[a * 2 + 1], data, keys[b * 2], keys[b * 2 + 1]);
                }
                if (!seen) {
                    distinct++;
                }
            }
            return distinct;
        }
    }

    /** A CONTAINSKEY, CONTAINSVALUE or SIZEIS with plain literals the filter requires, if any. */
    static Clause.Relational required(Clause filter) {
        return ClauseIndex.required(filter, c -> {
            if (!(c instanceof Clause.Relational)) {
                return null;
            }
            Clause.Relational r = (Clause.Relational) c;
            Operation op = r.operation();
            boolean contains = op == Operation.CONTAINS_KEY || op == Operation.CONTAINS_VALUE || op == Operation.SIZE_IS;
            return contains && ClauseIndex.plainLiterals(r) ? r : null;
        });
    }

    private PathContains<Q> pathContains(FieldPath path) {
        for (PathContains<Q> p : paths) {
            if (p.path.equals(path)) {
                return p;
            }
        }
        PathContains<Q> p = new PathContains<>(path);
        p.span = spans.acquire(path);
        paths.add(p);
        return p;
    }
}

package dev.bullet.querying;

import dev.bullet.index.IndexFeature;
import dev.bullet.index.QueryIndex;
import dev.bullet.query.Aggregation;
import dev.bullet.query.Clause;
import dev.bullet.query.MemoryBounds;
import dev.bullet.query.ComputedField;
import dev.bullet.query.NamedField;
import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.query.TableFunction;
import dev.bullet.query.expr.Expr;
import dev.bullet.record.Record;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Everything one Filter task does (SPEC §3.4), without Storm: holds every active query of the topology, runs each
 * record batch through them, and hands out partials — RAW partials right after the batch that produced them,
 * others on every tick (or right after a batch that left one holding more than {@code bullet.query.max.bytes}, see
 * {@link #flushDue()}), and a last partial when a query's duration is over there (then it forgets the query).
 * Queries that fail validation never enter the working set. Not thread-safe: one task, one thread.
 */
public final class FilterEngine {
    /**
     * A partial for the query's Join task: its {@code payload} as a tuple carries it (a {@link RawPartial} or a
     * {@code byte[]}), null for a bare "last" marker; {@code filled}: a RAW query without a window that has found all
     * its records with this one ({@link #isSatisfied}, without a lookup).
     */
    public record Partial(String id, Object payload, boolean last, boolean filled) {
        /** A partial of a query that may want more records. */
        public Partial(String id, Object payload, boolean last) {
            this(id, payload, last, false);
        }

        /**
         * The payload as bytes: a RAW partial's JSON array, any other partial as it is; null for none and for a
         * {@link FilterFailure}.
         */
        public byte[] data() {
            return payload instanceof RawPartial ? ((RawPartial) payload).bytes()
                   : payload instanceof byte[] ? (byte[]) payload : null;
        }
    }

    /**
     * The filter, projection (fields and computed columns), aggregation and table function of a query: queries equal
     * in these share their evaluation.
     */
    private record SharedKey(Clause filter, List<Expr> where, List<NamedField> projection, List<ComputedField> computed,
                             Aggregation aggregation, TableFunction tableFunction) {
    }

    /** Queries evaluated as one: the evaluator meets the records, the members get its partials. */
    private static final class Shared {
        final SharedKey key;
        final FilterQuerier evaluator;
        final Set<FilterQuerier> members = new LinkedHashSet<>();

        Shared(SharedKey key, FilterQuerier evaluator) {
            this.key = key;
            this.evaluator = evaluator;
        }
    }

    private final QuerySettings settings;
    private final QueryParser parser;
    private final Map<String, FilterQuerier> queries = new HashMap<>();
    private final Map<String, RunningQuery> running = new HashMap<>();
    /**
     * The RAW queries, each its own evaluator, in the order they came (a set: thousands run at once and restart as
     * they fill, and each removal from a list was a walk over it).
     */
    private final Set<FilterQuerier> active = new LinkedHashSet<>();
    private final QueryIndex<FilterQuerier> index;
    private final boolean sharing;
    private final Map<SharedKey, Shared> shared = new LinkedHashMap<>();
    private final Map<FilterQuerier, Shared> memberOf = new IdentityHashMap<>();
    /** Partials made between calls (a member joining), handed out by the next consume or tick. */
    private final List<Partial> pending = new ArrayList<>();
    /** The batch's partials of queries that cannot go on ({@link FilterFailure}), sent at its end. */
    private final List<Partial> failures = new ArrayList<>();
    private final List<FilterQuerier> touchedRaw = new ArrayList<>();
    /** Non-RAW evaluators that consumed records in the current batch: their bytes are looked at after it. */
    private final List<FilterQuerier> touchedOther = new ArrayList<>();
    /** The bounds on what a query holds and how many run. */
    private final MemoryBounds bounds;
    /** Whether an evaluator holds more than {@code bullet.query.max.bytes}: its partial should leave now. */
    private boolean flushDue;
    private long refused;
    /**
     * RAW queries that found all their records in the current index batch: taken out of the index after it, so the
     * records after it no longer hand them out (each would be a candidate turned away by {@code isSatisfied} until the
     * query is removed, a round trip to the Join away in the topology, a batch away offline).
     */
    private final List<FilterQuerier> filled = new ArrayList<>();
    /** The index's candidates for the records of one index batch. */
    private final AgreeingFilters agreeing;
    private final BatchedMatches batchedMatches;
    private final CandidateBuffer candidates;
    /** Whether batchable queriers are fed a batch at a time ({@link IndexFeature#BATCH}). */
    private final boolean batching;
    /** Whether they ride on one aggregation while their filters agree ({@link IndexFeature#AGREEING}). */
    private final boolean pooling;
    private final Consumer<FilterQuerier> tookBatch = this::matched;
    private Record current;
    private long currentNow;
    /** When the records being consumed were read from the source. */
    private long currentRead;
    /** How long an ended query stays, taking records read before its end that arrive late (see {@link #tick}). */
    private long drainMs;
    /** Numbers the records of this engine, so a query met twice for one record (via two paths) consumes it once. */
    private long recordStamp;
    /** Records consumed so far; the adaptive placement's clock. */
    private long recordsSeen;
    private long nextAdapt = ADAPT_WINDOW / 4;
    /** Records per try of a placement ({@link #adapt}); a setting for tests. */
    private long adaptWindow = ADAPT_WINDOW;
    /** The evaluators still trying placements ({@link #adapt}); the settled ones are not looked at again. */
    private final Set<FilterQuerier> unsettled = new LinkedHashSet<>();
    /** The placement each filter settled on, so a query submitted again (a restarted RAW query) starts there. */
    private final Map<Clause, Integer> learned = new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Clause, Integer> eldest) {
            return size() > LEARNED;
        }
    };

    public FilterEngine(QuerySettings settings) {
        this(settings, IndexFeature.all());
    }

    /** An engine under {@code bounds}: see {@link #add(String, String, long, int)} and {@link #flushDue()}. */
    public FilterEngine(QuerySettings settings, MemoryBounds bounds) {
        this(settings, IndexFeature.all(), bounds);
    }

    /** An engine with only some of the optimisations (for measurements and equivalence tests). */
    public FilterEngine(QuerySettings settings, Set<IndexFeature> features) {
        this(settings, features, MemoryBounds.NONE);
    }

    private FilterEngine(QuerySettings settings, Set<IndexFeature> features, MemoryBounds bounds) {
        this.bounds = bounds;
        this.settings = settings;
        this.parser = new QueryParser(settings);
        this.index = new QueryIndex<>(features);
        this.sharing = features.contains(IndexFeature.SHARED);
        this.batching = features.contains(IndexFeature.BATCH);
        this.pooling = batching && features.contains(IndexFeature.AGREEING);
        this.agreeing = new AgreeingFilters(settings);
        this.batchedMatches = new BatchedMatches(agreeing);
        this.candidates = new CandidateBuffer(batchedMatches);
    }

    /** Adds a query; returns false (and keeps nothing) when the query is invalid or already known. */
    public boolean add(String id, String queryJson, long startTime) {
        return add(id, queryJson, startTime, -1);
    }

    /**
     * Adds a query and remembers how it was sent (so a restarted Join task can be given it again, see
     * {@link #running()}); returns false (and keeps nothing) when the query is invalid or already known, or when
     * this task holds twice {@code bullet.query.max.running} queries already. The Join refuses a query past its share
     * of the setting with an error result, whose COMPLETE makes this task drop it; this task's own bound, with room
     * for queries whose COMPLETE is on its way, only guards its memory from a Join task that is away.
     */
    public boolean add(String id, String queryJson, long startTime, int replyPartition) {
        if (queries.containsKey(id)) {
            return false;
        }
        if (queries.size() >= 2L * bounds.running()) {
            refused++;
            return false;
        }
        QueryParser.Result parsed = parser.parse(queryJson);
        if (!parsed.isValid()) {
            return false;
        }
        add(id, parsed.query(), startTime);
        running.put(id, new RunningQuery(id, queryJson, startTime, replyPartition));
        return true;
    }

    /** Adds an already parsed and validated query; returns false when the id is already known. */
    public boolean add(String id, Query query, long startTime) {
        if (queries.containsKey(id)) {
            return false;
        }
        FilterQuerier querier = new FilterQuerier(id, query, startTime, settings);
        queries.put(id, querier);
        if (sharing && !query.isRaw()) {
            join(querier, query, startTime);
            return true;
        }
        active.add(querier);
        place(querier, query.filter());
        return true;
    }

    /**
     * Makes a non-RAW query a member of the group of queries with its filter, projection and aggregation: the group's
     * one evaluator meets each record and updates its sketch once, and every member gets the same partial. What the
     * evaluator holds when a member joins belongs to the members before it, so it is handed to them first.
     */
    private void join(FilterQuerier member, Query query, long startTime) {
        SharedKey key = sharedKey(query);
        Shared group = shared.get(key);
        if (group == null) {
            group = new Shared(key, new FilterQuerier(member.id(), query, startTime, settings));
            shared.put(key, group);
            place(group.evaluator, query.filter());
        } else if (group.evaluator.failure() != null) {
            pending.add(new Partial(member.id(), group.evaluator.failure(), false)); // the group cannot go on
        } else {
            byte[] data = group.evaluator.takePartial();
            if (data != null) {
                for (FilterQuerier m : group.members) {
                    pending.add(new Partial(m.id(), data, false));
                }
            }
        }
        group.members.add(member);
        group.evaluator.readUntil = Long.MAX_VALUE; // a running member takes every record again
        memberOf.put(member, group);
    }

    private static SharedKey sharedKey(Query query) {
        return new SharedKey(query.filter(), query.where(), query.projection(), query.computed(), query.aggregation(),
                             query.tableFunction());
    }

    /** Drops a member from its group, and the group when it was the last. */
    private void leave(FilterQuerier member, Shared group) {
        memberOf.remove(member);
        group.members.remove(member);
        if (group.members.isEmpty()) {
            shared.remove(group.key);
            unindex(group.evaluator);
        }
    }

    /** Whether the query is known here and is a RAW query without a window that has found all its records. */
    public boolean isSatisfied(String id) {
        FilterQuerier querier = queries.get(id);
        return querier != null && querier.isSatisfied();
    }

    /** Forgets a query (COMPLETE or KILL); returns whether it was known. */
    public boolean remove(String id) {
        FilterQuerier querier = queries.remove(id);
        if (querier == null) {
            return false;
        }
        running.remove(id);  // known only for queries added as JSON
        Shared group = memberOf.get(querier);
        if (group != null) {
            leave(querier, group);
            return true;
        }
        active.remove(querier);
        unindex(querier);
        return true;
    }

    public int size() {
        return queries.size();
    }

    /** Queries this task refused for holding twice {@code bullet.query.max.running} already. */
    public long refusedQueries() {
        return refused;
    }

    /**
     * Whether a query (not RAW) held more than {@code bullet.query.max.bytes} after the last batch: the caller should
     * hand out the partials now ({@link #tick}) rather than at the next tick, so this task never holds much more than
     * the bound for a query; the Join, which merges the partials, ends the query if it crosses the bound there. A RAW
     * query's rows leave after every batch (they are the batch's own records or projections of them). Clears the flag.
     */
    public boolean flushDue() {
        boolean due = flushDue;
        flushDue = false;
        return due;
    }

    /** How many evaluators the index holds (a RAW query that found all its records has left it). For tests. */
    int indexed() {
        return index.size();
    }

    /**
     * How many evaluators meet the records: each RAW query, and one per group of non-RAW queries with the same
     * filter, projection and aggregation (so 100 people on one dashboard count once).
     */
    public int evaluators() {
        return active.size() + shared.size();
    }

    /** RLIKE queries (shared ones once) whose pattern requires no literal: they meet every record (a metric). */
    public int unfilteredRegexQueries() {
        return index.unfilteredRegexQueries();
    }

    /** Evaluators (shared ones once) that no index serves: they meet every record. */
    public int unindexed() {
        return index.scanned();
    }

    public boolean isEmpty() {
        return queries.isEmpty();
    }

    /** The queries this task holds, as they were sent. */
    public Collection<RunningQuery> running() {
        return running.values();
    }

    /**
     * How many records the index reads at once, path by path: enough that each path's structures serve many records
     * while near, few enough that the records' bytes stay near too (64 records of a few KB each).
     */
    static final int INDEX_BATCH = 64;

    /**
     * {@link #consume(List, long, long, List)} of a batch sent again after a failure, which this task may have
     * consumed before: see {@link Again}.
     */
    public void consumeAgain(List<? extends Record> records, long now, long readTime, List<Partial> out) {
        try (Again again = again(readTime)) {
            again.consume(records, now, out);
        }
    }

    /** Starts taking the records of a batch sent again, read at {@code readTime}: see {@link Again}. */
    public Again again(long readTime) {
        return new Again(readTime);
    }

    /**
     * The records of a batch sent again after a failure, which this task may have consumed before, in one or more
     * parts (a batch sent record by record): RAW queries take up to their size of them without counting them toward
     * their size ({@link FilterQuerier#consumingAgain}), and a RAW query that found its records here takes them too
     * (it left the index, so it is tested on each): the Join may have refused the partial that held them (a restarted
     * Join task that did not have the query back yet), and it drops the rows it merged already. Closing it ends that.
     */
    public final class Again implements AutoCloseable {
        private final long readTime;
        private final List<FilterQuerier> marked = new ArrayList<>();
        private final List<FilterQuerier> filled = new ArrayList<>();

        private Again(long readTime) {
            this.readTime = readTime;
            for (FilterQuerier querier : active) {
                if (querier.isRaw()) {
                    querier.consumingAgain(true);
                    marked.add(querier);
                    if (querier.isSatisfied() && readTime < querier.readUntil) {
                        filled.add(querier);
                    }
                }
            }
        }

        /** Consumes a part of the batch; RAW partials produced go to {@code out}. */
        public void consume(List<? extends Record> records, long now, List<Partial> out) {
            FilterEngine.this.consume(records, now, readTime, out);
            for (FilterQuerier querier : filled) {
                for (Record record : records) {
                    querier.consume(record, now);
                }
                Object data = querier.takePayload();
                if (data != null) {
                    out.add(new Partial(querier.id(), data, false, true));
                }
            }
        }

        @Override
        public void close() {
            for (FilterQuerier querier : marked) {
                querier.consumingAgain(false);
            }
        }
    }

    /** Runs a batch of records through every active query; RAW partials produced go to {@code out}. */
    public void consume(List<? extends Record> records, long now, List<Partial> out) {
        consume(records, now, now, out);
    }

    /**
     * As above, for records read from the source at {@code readTime}: a query that ended here takes them only if they
     * were read before its end.
     */
    public void consume(List<? extends Record> records, long now, long readTime, List<Partial> out) {
        out.addAll(pending);
        pending.clear();
        if (active.isEmpty() && shared.isEmpty()) {
            return;
        }
        currentNow = now;
        currentRead = readTime;
        for (int from = 0, size = records.size(); from < size; from += INDEX_BATCH) {
            int to = Math.min(size, from + INDEX_BATCH);
            index.candidates(records, from, to, candidates);
            candidates.group(to - from);
            for (int r = from; r < to; r++) {
                current = records.get(r);
                recordStamp++;
                for (int i = candidates.start(r - from), end = candidates.end(r - from); i < end; i++) {
                    if (candidates.decided(i)) {
                        visitMatched(candidates.query(i));
                    } else {
                        visit(candidates.query(i));
                    }
                }
            }
            candidates.clear();
            try {
                batchedMatches.flush(records, from, to, currentNow, currentRead, tookBatch);
            } finally {
                agreeing.endBatch(records, from, to);
            }
            for (int i = 0, n = filled.size(); i < n; i++) {
                index.remove(filled.get(i));
            }
            filled.clear();
        }
        current = null;
        recordsSeen += records.size();
        if (recordsSeen >= nextAdapt) {
            nextAdapt = recordsSeen + adaptWindow / 4;
            adapt();
        }
        for (FilterQuerier querier : touchedRaw) {
            querier.markPendingFlush(false);
            Object data = querier.takePayload();
            if (data != null) {
                out.add(new Partial(querier.id(), data, false, querier.isSatisfied()));
            }
        }
        touchedRaw.clear();
        for (int i = 0, n = touchedOther.size(); i < n; i++) {
            FilterQuerier querier = touchedOther.get(i);
            querier.markPendingFlush(false);
            if (querier.heldBytes() > bounds.queryBytes()) {
                flushDue = true;
            }
        }
        touchedOther.clear();
        out.addAll(failures);
        failures.clear();
    }

    /** {@link FilterQuerier#placement}: where {@link QueryIndex#add} puts the filter. */
    static final int DEFAULT_PLACEMENT = -1;
    /** Records each placement is tried for (the evaluators' counts are looked at four times a window). */
    static final long ADAPT_WINDOW = 4096;
    /** A placement that has its query tested on at most this share of the records is kept as it is. */
    static final double NARROW = 0.02;
    /** Filters whose placement is remembered. */
    static final int LEARNED = 4096;

    /** Puts an evaluator in the index where its filter learned to be, or where the index chooses. */
    private void place(FilterQuerier querier, Clause filter) {
        querier.batched = batching && querier.batchable();
        if (pooling && querier.batched) {
            agreeing.add(querier);
        }
        if (querier.query().tableFunction() != null) {
            // its clauses may name an alias the record does not have: met by every record, the querier tests them
            querier.settled = true;
            index.add(querier, null);
            return;
        }
        Integer known = learned.get(filter);
        querier.placedAt = recordsSeen;
        querier.tested = 0;
        querier.passed = 0;
        if (known != null) {
            querier.settled = true;
            querier.placement = known;
            if (known != DEFAULT_PLACEMENT && index.addUnder(querier, filter, known)) {
                return;
            }
            querier.placement = DEFAULT_PLACEMENT;
        } else {
            unsettled.add(querier);
        }
        index.add(querier, filter, querier.folded, querier.computedEquality);
    }

    /** Takes an evaluator that leaves for good out of the index. */
    private void unindex(FilterQuerier querier) {
        index.remove(querier);
        agreeing.remove(querier);
        unsettled.remove(querier);
    }

    /**
     * Moves broad placements (SPEC §10). The index puts an AND under the first conjunct it can serve (an equality
     * before a range before a regex), not knowing how often each value comes: {@code kind == "alpha" AND msg RLIKE
     * ".*timeout.*"} waits under "alpha", a third of the records, and is tested on each. An evaluator tested on more
     * than {@link #NARROW} of the records of a window, failing most tests, is tried under each of its conjuncts in
     * turn for a window each, then placed for good under the one it was tested least under, the index's own choice
     * included (and its filter remembered). Every placement hands out a superset of the matches: results never
     * change, only the work.
     */
    private void adapt() {
        Iterator<FilterQuerier> it = unsettled.iterator();
        while (it.hasNext()) {
            FilterQuerier querier = it.next();
            if (!querier.isSatisfied()) { // a RAW query that found its records has left the index (filled)
                adapt(querier);
            }
            if (querier.settled || querier.isSatisfied()) {
                it.remove();
            }
        }
    }

    private void adapt(FilterQuerier querier) {
        long window = recordsSeen - querier.placedAt;
        if (window < adaptWindow) {
            return;
        }
        Clause filter = querier.query().filter();
        int conjuncts = QueryIndex.conjuncts(filter);
        double rate = querier.tested / (double) window;
        if (querier.placement == DEFAULT_PLACEMENT) {
            if (conjuncts < 2 || rate <= NARROW || querier.passed * 2 >= querier.tested) {
                querier.settled = true; // narrow already, or its tests mostly pass: no conjunct can do much better
                learned.put(filter, DEFAULT_PLACEMENT);
                return;
            }
            querier.bestPlacement = DEFAULT_PLACEMENT;
            querier.bestRate = rate;
        } else if (rate < querier.bestRate) {
            querier.bestPlacement = querier.placement;
            querier.bestRate = rate;
        }
        index.remove(querier);
        int next = querier.placement + 1;
        while (next < conjuncts && !index.addUnder(querier, filter, next)) {
            next++;
        }
        querier.placedAt = recordsSeen;
        querier.tested = 0;
        querier.passed = 0;
        if (next < conjuncts) {
            querier.placement = next;
            return;
        }
        int best = querier.bestPlacement;
        querier.placement = best != DEFAULT_PLACEMENT && index.addUnder(querier, filter, best) ? best : DEFAULT_PLACEMENT;
        if (querier.placement == DEFAULT_PLACEMENT) {
            index.add(querier, filter, querier.folded, querier.computedEquality);
        }
        querier.settled = true;
        learned.put(filter, querier.placement);
    }

    /** Where the index holds a query's evaluator: an AND conjunct's position, or {@link #DEFAULT_PLACEMENT}. For tests. */
    int placement(String id) {
        FilterQuerier querier = queries.get(id);
        Shared group = memberOf.get(querier);
        return (group != null ? group.evaluator : querier).placement;
    }

    /** How many evaluators ride on their pool's aggregation now ({@link AgreeingFilters}). For tests. */
    int riders() {
        return agreeing.riders();
    }

    /** Sets the records held for the riders at most ({@link AgreeingFilters#MAX_HELD}). For tests. */
    void maxHeldForRiders(int records) {
        agreeing.maxHeld(records);
    }

    /** How many evaluators are still trying placements. For tests. */
    int adapting() {
        return unsettled.size();
    }

    /** Sets the records each placement is tried for (default {@link #ADAPT_WINDOW}); tests make it short. */
    public void adaptWindow(long records) {
        adaptWindow = records;
        nextAdapt = recordsSeen + records / 4;
    }

    private void visit(FilterQuerier querier) {
        if (!querier.markVisited(recordStamp) || currentRead >= querier.readUntil) {
            return;
        }
        if (!querier.isSatisfied()) {
            querier.tested++;
            if (querier.consume(current, currentNow)) {
                querier.passed++;
                matched(querier);
            } else if (querier.failure() != null) {
                failed(querier);
            }
        }
    }

    /**
     * An evaluator that cannot go on ({@link FilterQuerier#failure()}): out of the index after the batch, and each of
     * its queries (every member of a shared evaluator's group) is sent the failure, which ends it at the Join.
     */
    private void failed(FilterQuerier querier) {
        filled.add(querier);
        Shared group = querier.query().isRaw() ? null : shared.get(sharedKey(querier.query()));
        if (group != null && group.evaluator == querier) {
            for (FilterQuerier member : group.members) {
                failures.add(new Partial(member.id(), querier.failure(), false));
            }
        } else {
            failures.add(new Partial(querier.id(), querier.failure(), false));
        }
    }

    /** A query the index knows matches the record: no filter test. */
    private void visitMatched(FilterQuerier querier) {
        if (!querier.markVisited(recordStamp) || querier.isSatisfied() || currentRead >= querier.readUntil) {
            return;
        }
        if (querier.consumeDecided(current, currentNow)) {
            matched(querier);
        }
    }

    private void matched(FilterQuerier querier) {
        if (querier.isRaw()) {
            if (!querier.hasPendingFlush()) {
                querier.markPendingFlush(true);
                touchedRaw.add(querier);
            }
            if (querier.isSatisfied()) { // it just filled up: no record after this one can change it
                filled.add(querier);
            }
        } else if (!querier.hasPendingFlush()) {
            querier.markPendingFlush(true);
            touchedOther.add(querier);
        }
    }

    /** Moves time: flushes non-RAW partials, and sends the last partial of queries whose duration is over. */
    public void tick(long now, List<Partial> out) {
        out.addAll(pending);
        pending.clear();
        Iterator<Shared> groups = shared.values().iterator();
        while (groups.hasNext()) {
            Shared group = groups.next();
            byte[] data = group.evaluator.takePartial();
            Iterator<FilterQuerier> members = group.members.iterator();
            boolean allEnded = true;
            long lastEnd = Long.MIN_VALUE;
            while (members.hasNext()) {
                FilterQuerier member = members.next();
                boolean expired = member.isExpired(now);
                boolean first = expired && !member.lastSent;
                if (data != null || first) {
                    out.add(new Partial(member.id(), data, first));
                }
                member.lastSent |= expired;
                allEnded &= expired;
                lastEnd = Math.max(lastEnd, member.endTime());
                if (expired && drained(member, now)) {
                    members.remove();
                    queries.remove(member.id());
                    memberOf.remove(member);
                }
            }
            if (allEnded) {
                group.evaluator.readUntil = lastEnd;
            }
            if (group.members.isEmpty()) {
                groups.remove();
                unindex(group.evaluator);
            }
        }
        Iterator<FilterQuerier> it = active.iterator();
        while (it.hasNext()) {
            FilterQuerier querier = it.next();
            boolean expired = querier.isExpired(now);
            boolean first = expired && !querier.lastSent;
            Object data = querier.takePayload();
            if (data != null || first) {
                out.add(new Partial(querier.id(), data, first));
            }
            if (expired) {
                querier.lastSent = true;
                querier.readUntil = querier.endTime();
            }
            if (expired && drained(querier, now)) {
                it.remove();
                queries.remove(querier.id());
                running.remove(querier.id());
                unindex(querier);
            }
        }
        agreeing.partialsTaken();
    }

    /**
     * Whether an ended query has drained: it stays {@link #drainAfterEnd} past its end (unless the Join's COMPLETE
     * removes it first), taking records read before its end that come late (a batch sent again after a failure).
     */
    private boolean drained(FilterQuerier querier, long now) {
        return drainMs <= 0 || now >= FilterQuerier.saturatedAdd(querier.endTime(), drainMs);
    }

    /**
     * Keeps ended queries for {@code ms} after their end, or until removed: their last partial leaves at the first
     * tick after the end, and records read before the end that arrive later are still taken and reported. 0 (the
     * default): an ended query leaves at that tick.
     */
    public void drainAfterEnd(long ms) {
        this.drainMs = ms;
    }
}

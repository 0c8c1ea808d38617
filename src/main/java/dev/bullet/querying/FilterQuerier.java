package dev.bullet.querying;

import dev.bullet.common.Clock;
import dev.bullet.index.ComputedEquality;
import dev.bullet.index.FoldedEquality;
import dev.bullet.query.Clause;
import dev.bullet.query.FilterValue;
import dev.bullet.query.Operation;
import dev.bullet.query.Query;
import dev.bullet.query.QuerySettings;
import dev.bullet.query.ValueType;
import dev.bullet.query.Window;
import dev.bullet.query.expr.BinaryExpr;
import dev.bullet.query.expr.Expr;
import dev.bullet.query.expr.FieldExpr;
import dev.bullet.query.expr.ListExpr;
import dev.bullet.query.expr.NAryExpr;
import dev.bullet.query.expr.Op;
import dev.bullet.query.expr.UnaryExpr;
import dev.bullet.query.expr.ValueExpr;
import dev.bullet.querying.aggregations.Aggregator;
import dev.bullet.querying.aggregations.Aggregators;
import dev.bullet.querying.aggregations.RawAggregator;
import dev.bullet.querying.eval.Evaluator;
import dev.bullet.querying.eval.Evaluators;
import dev.bullet.record.JsonCodec;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.MapRecord;
import dev.bullet.record.Record;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-partition half of a query (the Filter side of the Filter/Join protocol, SPEC §3.4): filters, projects
 * and aggregates the records of one partition and hands out serialized partials. Partials are taken whenever the
 * caller likes: RAW partials as soon as there are records, others at least every tick and when the query expires.
 * The Join side ({@link JoinQuerier}) owns windows and the duration; this side only stops consuming once a RAW
 * query without a window has matched {@code size} records, and caps RAW records per time window.
 * Not thread-safe.
 */
public final class FilterQuerier {
    private final String id;
    private final Query query;
    private final long startTime;
    private final long endTime;
    private final RecordPredicate predicate;
    /** The query's expression filters ({@link Query#where()}), tested after {@link #predicate}; empty when none. */
    private final Evaluator[] where;
    /** A record the index decided passes {@link #where} too ({@link #whereFollowsDecision}): it is not tested again. */
    final boolean whereFollowsDecision;
    /** The computed columns' names and evaluators ({@link Query#computed()}), in order. */
    private final String[] computedNames;
    private final Evaluator[] computed;
    /** The time of the record being consumed: what UNIXTIMESTAMP() of an expression reads. */
    private long evaluationTime;
    /** The query's table function ({@link Query#tableFunction()}), run before everything else; null when none. */
    private final TableFunctor tableFunctor;
    private final Projector projector;
    /** What its expression filters require, for the index when its clauses have no place ({@link FoldedEqualities}). */
    final FoldedEquality folded;
    /** What its expression filters require otherwise, for the index ({@link ComputedEqualities}). */
    final ComputedEquality computedEquality;
    /** {@link #failure()}. */
    private FilterFailure failure;
    private final Aggregator aggregator;
    private final boolean raw;
    /** The query's window, and a RAW query's size, held here: they are read for every record the query meets. */
    private final Window window;
    private final int rawSize;
    /** A RAW query without a window: done once it matched {@link #rawSize} records. */
    private final boolean endsAtSize;
    private final boolean injectTimestamp;
    private final String timestampKey;
    /** {@code "key":} of the injected timestamp, as JSON bytes. */
    private final byte[] timestampMember;
    /** RAW with a projection written from a record's bytes: a matched record is kept as its projection's JSON. */
    private final boolean writesJson;
    /**
     * RAW with a projection written from a record's bytes and computed columns: a matched record is kept as its
     * projection's JSON with the columns after it; null otherwise.
     */
    private final ComputedJson computedJson;
    /** RAW without a projection: a matched record is kept as its bytes. */
    private final boolean keepsRecord;
    private long rawMatched;
    /**
     * Whether the records come in a batch sent again after a failure ({@link FilterEngine#consumeAgain}): its RAW
     * rows do not count toward {@link #rawMatched}, as this task may have counted them at their first attempt.
     */
    private boolean again;
    /** The RAW rows taken from the batch sent again: at most {@link #rawSize}. */
    private long takenAgain;
    private long rawWindow;
    private boolean pendingFlush;
    private long visitedStamp = -1;
    // ---- where the index holds this querier, learned by FilterEngine.adapt (the engine's thread only) ----
    /** Records tested (handed out undecided) and passed since {@link #placedAt}, the engine's record count then. */
    long tested;
    /** Whether the task's last partial was sent (the query ended here and drains, see {@code FilterEngine#tick}). */
    boolean lastSent;
    /** Records read at or after this are not the query's (set once it ended here; until then, none is refused). */
    long readUntil = Long.MAX_VALUE;
    long passed;
    long placedAt;
    /** The AND conjunct the index holds it under now ({@link FilterEngine#DEFAULT_PLACEMENT}: the index's own choice). */
    int placement = FilterEngine.DEFAULT_PLACEMENT;
    /** The placement with the fewest tests per record so far, and that rate. */
    int bestPlacement = FilterEngine.DEFAULT_PLACEMENT;
    double bestRate;
    /** Placed for good: nothing left to try. */
    boolean settled;
    // ---- the current index batch's matches, for a querier fed a batch at a time (BatchedMatches) ----
    /** Fed a batch at a time: set by the engine for a {@link #batchable()} querier when the feature is on. */
    boolean batched;
    /** The batch's records the index decided this querier matches, and those it must test (bit i: record i). */
    long decidedBits;
    long testBits;
    // ---- riding on its pool's aggregation (AgreeingFilters; the engine's thread only) ----
    /** The pool of evaluators with its aggregation; null when in none. */
    AgreeingFilters.Pool pool;
    /**
     * Whether its state is its pool's shared aggregation's: its filter took every record since its partial was last
     * taken, as every rider's did. Its own aggregation holds nothing meanwhile.
     */
    boolean riding;
    /** The last index batch it rode ({@link AgreeingFilters#startBatch}). */
    long rodeBatch;
    /**
     * Records it took since the last partial, partials in a row in which that was every record, and how many such
     * partials it needs before it rides ({@link AgreeingFilters#leave}).
     */
    long taken;
    int agreed;
    int proof = AgreeingFilters.MIN_PROOF;

    public FilterQuerier(String id, Query query, long startTime, QuerySettings settings) {
        this.id = id;
        this.query = query;
        this.startTime = startTime;
        this.endTime = saturatedAdd(startTime, query.durationMs());
        this.predicate = Predicates.compile(query.filter());
        Clock evaluationClock = () -> evaluationTime;
        this.where = new Evaluator[query.where().size()];
        for (int i = 0; i < where.length; i++) {
            where[i] = Evaluators.compile(query.where().get(i), evaluationClock, settings.limits());
        }
        this.whereFollowsDecision = whereFollowsDecision(query);
        this.computedNames = new String[query.computed().size()];
        this.computed = new Evaluator[computedNames.length];
        for (int i = 0; i < computed.length; i++) {
            computedNames[i] = query.computed().get(i).name();
            computed[i] = Evaluators.compile(query.computed().get(i).expression(), evaluationClock, settings.limits());
        }
        this.tableFunctor = query.tableFunction() == null ? null
                : new TableFunctor(query.tableFunction(), evaluationClock, settings.limits());
        this.projector = new Projector(query.projection());
        this.folded = query.tableFunction() == null ? FoldedEqualities.of(query.where()) : null;
        this.computedEquality = query.tableFunction() != null || folded != null ? null
                : ComputedEqualities.of(query.where(), e -> Evaluators.compile(e, evaluationClock, settings.limits()));
        this.raw = query.isRaw();
        this.window = query.window();
        this.rawSize = query.aggregation().size();
        this.endsAtSize = raw && window == null;
        // RAW: rawHasRoom() caps records per query or per time window; the partial itself must not, or records of a
        // new window (or of a sliding window) consumed before the previous partial was taken would be dropped
        this.aggregator = raw ? new RawAggregator(Integer.MAX_VALUE, rawSize) : Aggregators.create(query.aggregation(), settings);
        this.injectTimestamp = raw && settings.injectTimestamp();
        this.timestampKey = settings.timestampKey();
        this.timestampMember = injectTimestamp ? (JsonCodec.toJson(timestampKey) + ":").getBytes(StandardCharsets.UTF_8)
                                               : null;
        this.writesJson = raw && query.projection() != null && computed.length == 0 && projector.writesJson();
        this.keepsRecord = raw && query.projection() == null;
        this.computedJson = raw && query.projection() != null && computed.length > 0 && projector.writesJson()
                ? ComputedJson.of(query.projection(), List.of(computedNames)) : null;
    }

    static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }

    public String id() {
        return id;
    }

    public Query query() {
        return query;
    }

    public long startTime() {
        return startTime;
    }

    /**
     * Whether a batch's matches can reach the aggregation at once ({@link #consumeBatch}): not RAW (whose rows stop at
     * its size and its windows' caps), no table function, computed column or projection — the filter's clauses and
     * its expression filters ({@link #passing}) decide, and the aggregation reads the record as it is.
     */
    boolean batchable() {
        return !raw && tableFunctor == null && computed.length == 0 && query.projection() == null;
    }

    /**
     * Of the records at {@code from + i} for the bits {@code i} of {@code mask}, those every expression filter passes
     * at {@code now} (all of them when the query has none): what {@link #consumeMatched} tests before it aggregates.
     */
    long passing(List<? extends Record> records, int from, long mask, long now) {
        if (where.length == 0) {
            return mask;
        }
        evaluationTime = now;
        long passing = mask;
        for (long m = mask; m != 0; m &= m - 1) {
            int position = Long.numberOfTrailingZeros(m);
            if (!passes(records.get(from + position))) {
                passing &= ~(1L << position);
            }
        }
        return passing;
    }

    /**
     * Whether a record the index decides the query matches surely passes its expression filter: BQL's
     * {@code WHERE f > 5000} is the range clause {@code f > 5000} (typed LONG or INTEGER) with the same comparison
     * beside it as an expression, which only drops what bullet-core cannot compare (a string) or cannot know (a
     * missing value); {@code WHERE f BETWEEN (10, 20)} is the interval {@code f >= 10 AND f <= 20} with BETWEEN beside
     * it, which compares as doubles, the same answer for bounds below 2^53. The index decides such a range or interval
     * only on a number it reads exactly (never a string, never a missing value), where the two agree. Likewise a
     * negation of string literals ({@link #excludesTexts}).
     */
    static boolean whereFollowsDecision(Query query) {
        if (query.where().size() != 1) {
            return false;
        }
        Expr where = query.where().get(0);
        Clause filter = query.filter();
        if (where instanceof NAryExpr n && n.op() == Op.BETWEEN && n.operands().size() == 3
            && exactBound(n.operands().get(1)) && exactBound(n.operands().get(2))) {
            List<Clause> bounds = filter instanceof Clause.Logical l && l.operation() == Operation.AND
                                  ? l.clauses() : List.of();
            return bounds.size() == 2 && mirrors(bounds.get(0), Op.GREATER_THAN_OR_EQUALS, n.operands().get(0),
                                                 n.operands().get(1))
                   && mirrors(bounds.get(1), Op.LESS_THAN_OR_EQUALS, n.operands().get(0), n.operands().get(2));
        }
        if (filter instanceof Clause.Logical l && l.operation() == Operation.AND && l.clauses().size() == 1) {
            filter = l.clauses().get(0);
        }
        if (where instanceof UnaryExpr u && u.op() == Op.NOT && u.operand() instanceof BinaryExpr b
            && (b.op() == Op.EQUALS || b.op() == Op.IN)) {
            return excludesTexts(filter, b.left(), b.right());
        }
        if (where instanceof BinaryExpr b && (b.op() == Op.NOT_EQUALS || b.op() == Op.NOT_IN)) {
            return excludesTexts(filter, b.left(), b.right());
        }
        // not against zero: the index compares by value, bullet-core puts -0.0 below 0 (-0.0 >= 0 is false there)
        return where instanceof BinaryExpr b && mirrors(filter, b.op(), b.left(), b.right())
               && ((Number) ((ValueExpr) b.right()).value()).longValue() != 0;
    }

    /**
     * Whether the clause is {@code field != texts} for the expression's top-level field and string literals
     * ({@code f != 'x'}, {@code f NOT IN ['x', 'y']}, {@code NOT (f = 'x')}): the negation index decides such a
     * clause only on a string value that is none of the texts, where bullet-core's comparison of two strings agrees
     * (a number, a boolean, a map or a list is tested, and bullet-core drops it).
     */
    private static boolean excludesTexts(Clause clause, Expr left, Expr right) {
        if (!(left instanceof FieldExpr f) || f.key() != null || !(clause instanceof Clause.Relational r)
            || r.operation() != Operation.NOT_EQUALS || r.field().depth() != 1 || !r.field().text().equals(f.field())) {
            return false;
        }
        List<Expr> literals = right instanceof ListExpr l ? l.values() : List.of(right);
        if (literals.isEmpty() || literals.size() != r.values().size()) {
            return false;
        }
        for (int i = 0; i < literals.size(); i++) {
            FilterValue value = r.values().get(i);
            if (!(literals.get(i) instanceof ValueExpr v) || !(v.value() instanceof String text)
                || value.kind() != FilterValue.Kind.VALUE || !text.equals(value.value())
                || value.type() != null && value.type() != ValueType.STRING) {
                return false;
            }
        }
        return true;
    }

    /** A whole-number literal a double holds exactly (below 2^53 in magnitude). */
    private static boolean exactBound(Expr e) {
        if (!(e instanceof ValueExpr v) || !(v.value() instanceof Integer || v.value() instanceof Long)) {
            return false;
        }
        long bound = ((Number) v.value()).longValue();
        return bound > -(1L << 53) && bound < 1L << 53;
    }

    /**
     * Whether the clause is the comparison {@code field op literal} of a top-level field with a whole LONG or INTEGER
     * literal, as the expression operands {@code left} (the field) and {@code right} (the literal) are.
     */
    private static boolean mirrors(Clause clause, Op op, Expr left, Expr right) {
        if (!(left instanceof FieldExpr f) || f.key() != null || !(right instanceof ValueExpr v)
            || !(v.value() instanceof Integer || v.value() instanceof Long)) {
            return false;
        }
        if (!(clause instanceof Clause.Relational r) || r.values().size() != 1 || r.field().depth() != 1
            || !r.field().text().equals(f.field()) || mirror(r.operation()) != op) {
            return false;
        }
        FilterValue literal = r.values().get(0);
        if (literal.kind() != FilterValue.Kind.VALUE || literal.value() == null
            || literal.type() != ValueType.LONG && literal.type() != ValueType.INTEGER) {
            return false;
        }
        Object cast = literal.type().cast(literal.value());
        return cast instanceof Number n && n.longValue() == ((Number) v.value()).longValue();
    }

    /** The expression operator of a range operation; null for any other. */
    private static Op mirror(Operation operation) {
        switch (operation) {
            case GREATER_THAN:
                return Op.GREATER_THAN;
            case GREATER_EQUALS:
                return Op.GREATER_THAN_OR_EQUALS;
            case LESS_THAN:
                return Op.LESS_THAN;
            case LESS_EQUALS:
                return Op.LESS_THAN_OR_EQUALS;
            default:
                return null;
        }
    }

    /** The filter's clauses on one record (a {@link #batchable()} querier's filter but its expression filters). */
    boolean test(Record record) {
        return predicate.test(record);
    }

    /** Aggregates the records at {@code from + i} for the bits {@code i} of {@code mask}, in order. Batchable only. */
    void consumeBatch(List<? extends Record> records, int from, long mask) {
        aggregator.consumeBatch(records, from, mask);
    }

    /** Runs one record through the query; returns whether it matched. */
    public boolean consume(Record record, long now) {
        if (tableFunctor != null) {
            return consumeGenerated(record, now);
        }
        return predicate.test(record) && consumeMatched(record, now);
    }

    /**
     * Projects and aggregates a record already known to match the filter's clauses (e.g. found through an index);
     * returns false when an expression filter ({@link Query#where()}) rejects it. A query with a table function is
     * never decided by the index (its clauses may name an alias): this runs the table function and the whole filter.
     */
    public boolean consumeMatched(Record record, long now) {
        if (tableFunctor != null) {
            return consumeGenerated(record, now);
        }
        if (where.length > 0 || computed.length > 0) {
            evaluationTime = now;
            if (!passes(record)) {
                return false;
            }
        }
        accept(record, now);
        return true;
    }

    /**
     * As {@link #consumeMatched}, for a record the index decided the query's filter matches: its expression filter is
     * not tested again where it follows from the decision ({@link #whereFollowsDecision}), as in a batch's flush.
     */
    public boolean consumeDecided(Record record, long now) {
        if (whereFollowsDecision && tableFunctor == null) {
            evaluationTime = now;
            accept(record, now);
            return true;
        }
        return consumeMatched(record, now);
    }

    /** Runs the table function, then the filter, projection and aggregation on each record it generates. */
    private boolean consumeGenerated(Record record, long now) {
        evaluationTime = now;
        boolean matched = false;
        List<Record> records = tableFunctor.apply(record);
        if (records == null) {
            failure = FilterFailure.tooManyGenerated(TableFunctor.MAX_GENERATED);
            return false;
        }
        for (Record generated : records) {
            if (predicate.test(generated) && passes(generated)) {
                accept(generated, now);
                matched = true;
            }
        }
        return matched;
    }

    /** Whether every expression filter is TRUE of the record. */
    private boolean passes(Record record) {
        for (Evaluator filter : where) {
            if (!Evaluators.matches(filter.evaluate(record))) {
                return false;
            }
        }
        return true;
    }

    private void accept(Record record, long now) {
        if (raw) {
            if (again) {
                if (takenAgain >= rawSize) {
                    return;
                }
                takenAgain++;
            } else {
                if (!rawHasRoom(now)) {
                    return;
                }
                rawMatched++;
            }
        }
        if ((writesJson || computedJson != null || keepsRecord && injectTimestamp) && record instanceof LazyRecord) {
            // a projected RAW record goes straight to its JSON, computed columns and a timestamp are added to the
            // JSON: no map is built
            LazyRecord lazy = (LazyRecord) record;
            byte[] json = writesJson ? projector.json(lazy)
                    : computedJson != null ? computedJson.append(projector.json(lazy), computedValues(record))
                    : lazy.rawJson();
            ((RawAggregator) aggregator).addJson(injectTimestamp ? StampedRows.of(json, timestampMember, now) : json);
            return;
        }
        Record projected = projector.project(record);
        if (computed.length > 0) {
            projected = withComputed(record, projected);
        }
        if (injectTimestamp) {
            Map<String, Object> copy = new LinkedHashMap<>(projected.asMap());
            copy.put(timestampKey, now);
            projected = new MapRecord(copy);
        }
        aggregator.consume(projected);
    }

    /** The computed columns' values in the record, null where null or failed (the column is left out). */
    private Object[] computedValues(Record record) {
        Object[] values = new Object[computed.length];
        for (int i = 0; i < computed.length; i++) {
            values[i] = Evaluators.projected(computed[i].evaluate(record));
        }
        return values;
    }

    /** The projected record with the computed columns whose values are neither null nor failed. */
    private Record withComputed(Record record, Record projected) {
        Map<String, Object> row = new LinkedHashMap<>(projected.asMap());
        for (int i = 0; i < computed.length; i++) {
            Object value = Evaluators.projected(computed[i].evaluate(record));
            if (value != null) {
                row.put(computedNames[i], value);
            }
        }
        return new MapRecord(row);
    }

    private boolean rawHasRoom(long now) {
        int size = rawSize;
        if (window == null) {
            return rawMatched < size;
        }
        if (window.kind() == Window.Kind.TUMBLING) {
            long index = Math.max(0, now - startTime) / window.every();
            if (index != rawWindow) {
                rawWindow = index;
                rawMatched = 0;
            }
            return rawMatched < size;
        }
        return window.kind() != Window.Kind.ADDITIVE_TUMBLING || rawMatched < size;
    }

    /**
     * Marks the records to come as a batch sent again (or the end of one): a RAW query takes up to its size of them
     * without counting them toward its size. Counted, rows the Join merged already and drops would fill the query
     * here, and the records after them that it still needs would not be taken. Not counted, a batch this task never
     * saw before (another task's, sent here) at worst makes it take more than the Join keeps.
     */
    void consumingAgain(boolean again) {
        this.again = again;
        this.takenAgain = 0;
    }

    /** Whether a RAW query without a window has matched all it needs: nothing more to consume. */
    public boolean isSatisfied() {
        return failure != null || endsAtSize && rawMatched >= rawSize;
    }

    /** Why the query cannot go on here (its table function overflowed), or null; it takes no more records then. */
    public FilterFailure failure() {
        return failure;
    }

    public boolean hasPartial() {
        return riding ? !pool.isEmpty() : !aggregator.isEmpty();
    }

    /** What its own aggregation carries from partial to partial ({@link Aggregator#history}). */
    long history() {
        return aggregator.history();
    }

    /** Whether its own aggregation is as a reset leaves it ({@link Aggregator#isFresh}; a rider's is). */
    boolean hasFreshAggregation() {
        return aggregator.isFresh();
    }

    /**
     * The partial since the last call, or {@code null} when nothing was consumed since. A rider takes its pool's and
     * rides no more until every evaluator has taken its partial ({@link AgreeingFilters#partialsTaken}); when the
     * pool's aggregation has no partial, which leaves a query's own state as it is (a TOP K whose map a purge emptied),
     * the rider takes that state on its own ({@link AgreeingFilters#goAlone}).
     */
    public byte[] takePartial() {
        if (riding) {
            byte[] partial = pool.partial();
            if (partial == null) {
                pool.goAlone(this);
            } else {
                aggregator.history(pool.history()); // it made what the pool's aggregation made
                proof = Math.max(AgreeingFilters.MIN_PROOF, proof / 2); // it rode to the partial
            }
            riding = false;
            return partial;
        }
        if (aggregator.isEmpty()) {
            return null;
        }
        byte[] partial = aggregator.serialize();
        aggregator.reset();
        return partial;
    }

    /**
     * The partial since the last call as a tuple carries it, or {@code null}: a RAW query's rows as a
     * {@link RawPartial} (no copy of a matched record's bytes), any other query's serialized sketch.
     */
    public Object takePayload() {
        if (!raw) {
            return takePartial();
        }
        if (aggregator.isEmpty()) {
            return null;
        }
        RawPartial partial = RawPartial.ofOwned(((RawAggregator) aggregator).rowsJson()); // a fresh array
        aggregator.reset();
        return partial;
    }

    /** An estimate of the bytes this query holds here (what it consumed since its partial was last taken). */
    public long heldBytes() {
        return riding ? pool.heldBytes() : aggregator.heldBytes();
    }

    public boolean isExpired(long now) {
        return now >= endTime;
    }

    /** When the query's duration is over. */
    public long endTime() {
        return endTime;
    }

    public boolean isRaw() {
        return raw;
    }

    /** Marks this querier visited for the record numbered {@code stamp}; false when it already was. */
    boolean markVisited(long stamp) {
        if (visitedStamp == stamp) {
            return false;
        }
        visitedStamp = stamp;
        return true;
    }

    /** Bookkeeping for a caller that batches flushes: whether this querier is already queued for one. */
    boolean hasPendingFlush() {
        return pendingFlush;
    }

    void markPendingFlush(boolean pending) {
        pendingFlush = pending;
    }
}

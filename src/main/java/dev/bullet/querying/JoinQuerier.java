package dev.bullet.querying;

import dev.bullet.common.BulletError;
import dev.bullet.query.BoundErrors;
import dev.bullet.query.Query;
import dev.bullet.query.QuerySettings;
import dev.bullet.query.Window;
import dev.bullet.querying.aggregations.Aggregator;
import dev.bullet.querying.aggregations.Aggregators;
import dev.bullet.querying.aggregations.RawAggregator;
import dev.bullet.record.JsonCodec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The combining half of a query (the Join side of the Filter/Join protocol, SPEC §3.5): merges the partials of
 * every Filter task, closes windows, applies post-aggregations, enforces the duration, RAW size and rate limit,
 * and produces each window's result and the final one; a query with an outer query emits, for each of them, what
 * its outer query gives over it ({@link OuterQueryRunner}).
 *
 * <p>Time only moves through the {@code now} arguments (SPEC: inject the clock). The final result of a query that
 * ran its duration waits until every one of the {@code partitions} Filter tasks sent its last partial, or until
 * {@code finalGraceMs} passed, so late partials are not lost. Not thread-safe.
 */
public final class JoinQuerier {
    /** Result metadata key present when the result may miss data because the Join task restarted. */
    public static final String INCOMPLETE = "incomplete";
    /** In {@link #INCOMPLETE}: how many record batches read during the query its result is missing. */
    public static final String INCOMPLETE_BATCHES = "batches";
    /** Why a result may miss data after the Join task restarted ({@link #markRestored}). */
    static final String RESTARTED_REASON = "the Join task that held this query restarted; data merged before then, or"
                                           + " read before the task had the query again, is lost";
    private final String id;
    private final Query query;
    private final QuerySettings settings;
    private final long startTime;
    private final long endTime;
    private final int partitions;
    private final long finalGraceMs;
    private final Window window;
    private final Aggregator aggregator;
    private final PostAggregator postAggregator;
    private final ResultMeta meta;
    /** {@code bullet.query.max.bytes}: the most this query may hold here ({@link #heldBytes()}). */
    private final long maxBytes;

    private int windowNumber = 1;
    private long nextEmitTime;
    private int finalPartials;
    private final Set<Integer> lastFrom = new HashSet<>();
    /** The record batches merged so far, by their place in the source (to drop a batch read again, SPEC §3.1). */
    private MergedBatches mergedBatches = new MergedBatches();
    /** Batches sent again that overlapped what was merged only in part (dropped; the results say so). */
    private long partlyMerged;
    /** Batches read before the end that the final result misses (see {@link #tick(long, ReadProgress, long)}), and why. */
    private long unreadBatches = -1;
    private String unreadReason;
    /** When this task took the query up again after a restart (-1: never), and the last window that may miss data. */
    private long restoredAt = -1;
    private int incompleteUntilWindow;
    private boolean done;
    private long rateIntervalStart;
    private int rateCount;
    private boolean rateLimited;
    private boolean overBytes;
    /** Counts the changes of the state: a query unchanged since its last snapshot is not written again. */
    private long changes;
    /**
     * Counts the changes of the aggregation other than rows appended to a RAW one (a merge into any other
     * aggregation, a window's reset, a restore): while it stands, a snapshot may carry only the rows added since the
     * last one ({@link JoinSnapshot#delta}).
     */
    private long aggregationVersion;
    /** See {@link #keepPartials}: null while not kept. */
    private List<byte[]> partialsSince;
    private long partialsBytes;
    private long partialsLimit;

    public JoinQuerier(String id, Query query, long startTime, QuerySettings settings, int partitions, long finalGraceMs) {
        this(id, query, startTime, settings, partitions, finalGraceMs, Long.MAX_VALUE);
    }

    /** @param maxBytes the most the query may hold ({@code bullet.query.max.bytes}); crossing it ends the query */
    public JoinQuerier(String id, Query query, long startTime, QuerySettings settings, int partitions, long finalGraceMs,
                       long maxBytes) {
        this.id = id;
        this.maxBytes = maxBytes;
        this.query = query;
        this.settings = settings;
        this.startTime = startTime;
        this.endTime = FilterQuerier.saturatedAdd(startTime, query.durationMs());
        this.partitions = partitions;
        this.finalGraceMs = finalGraceMs;
        this.window = query.window();
        this.aggregator = window != null && window.kind() == Window.Kind.SLIDING
                ? new RawAggregator((int) Math.min(Integer.MAX_VALUE, window.every()))
                : Aggregators.create(query.aggregation(), settings);
        this.postAggregator = new PostAggregator(query.postAggregations(), settings.limits());
        this.meta = new ResultMeta(id, query, startTime, settings);
        this.nextEmitTime = window != null && window.isTimeBased() ? FilterQuerier.saturatedAdd(startTime, window.every()) : Long.MAX_VALUE;
        this.rateIntervalStart = startTime;
    }

    public String id() {
        return id;
    }

    public Query query() {
        return query;
    }

    public boolean isDone() {
        return done;
    }

    public long startTime() {
        return startTime;
    }

    /**
     * This task lost the query's state (it restarted) and took the query up again at {@code now}: the window open
     * now, and every later one of an additive window, may miss the partials merged before; their results say so.
     */
    public void markRestored(long now) {
        restoredAt = now;
        incompleteUntilWindow = window != null && window.kind() == Window.Kind.ADDITIVE_TUMBLING ? Integer.MAX_VALUE : windowNumber;
    }

    /** How many times the state changed so far: equal counts, equal state. */
    public long changes() {
        return changes;
    }

    /** See {@link #aggregationVersion}. */
    long aggregationVersion() {
        return aggregationVersion;
    }

    /**
     * Keeps, from now on, the partials merged into a non-RAW aggregation since the last snapshot, while they take at
     * most {@code limitBytes} (a delta of them is then smaller than the whole state): merged again in the same order
     * after the base, they give the same aggregation.
     */
    void keepPartials(long limitBytes) {
        partialsLimit = limitBytes;
        if (partialsSince == null) {
            partialsSince = new ArrayList<>();
        }
    }

    /** A snapshot holds the state as it is now: the partials kept so far are in it. */
    void snapshotTaken() {
        if (partialsSince != null) {
            partialsSince.clear();
            partialsBytes = 0;
        }
    }

    /** The partials merged since the last snapshot (see {@link #keepPartials}), to be merged in this order. */
    List<byte[]> partialsSince() {
        return partialsSince == null ? List.of() : partialsSince;
    }

    private void notePartial(byte[] partial) {
        if (partialsSince != null && partialsBytes + partial.length <= partialsLimit) {
            partialsSince.add(partial);
            partialsBytes += partial.length;
        } else {
            aggregationVersion++; // a base next
            if (partialsSince != null) {
                partialsSince.clear();
                partialsBytes = 0;
                partialsLimit = 0; // until the next base says how large the state is
            }
        }
    }

    /** The rows a RAW aggregation holds (rows are only ever appended to it between resets), or -1 for any other. */
    int appendableRows() {
        return aggregator instanceof RawAggregator ? ((RawAggregator) aggregator).size() : -1;
    }

    /** The RAW rows from the {@code from}-th on, as a RAW partial (a JSON array); empty when there are none. */
    byte[] rowsFrom(int from) {
        byte[][] rows = ((RawAggregator) aggregator).rowsJson();
        return from >= rows.length ? new byte[0] : JsonCodec.array(Arrays.asList(rows).subList(from, rows.length));
    }

    /** What {@link #tick} and {@link #combine} need to go on exactly as this querier would ({@link JoinSnapshot}). */
    JoinSnapshot.State state() {
        return state(true);
    }

    /** As {@link #state()}; without the aggregation's state ({@code aggregatorEmpty}) unless {@code withAggregation}. */
    JoinSnapshot.State state(boolean withAggregation) {
        int[] from = lastFrom.stream().mapToInt(Integer::intValue).sorted().toArray();
        boolean empty = !withAggregation || aggregator.isEmpty();
        return new JoinSnapshot.State(startTime, windowNumber, nextEmitTime, finalPartials, from, partlyMerged,
                                      restoredAt, incompleteUntilWindow, rateIntervalStart, rateCount, empty,
                                      empty ? new byte[0] : aggregator.serialize(), mergedBatches);
    }

    /** Takes up {@code state} (of this query, taken by {@link #state()} of a querier of a task that died). */
    void restore(JoinSnapshot.State state) {
        restore(state, true);
    }

    private void restore(JoinSnapshot.State state, boolean aggregation) {
        if (state.startTime() != startTime) {
            throw new IllegalArgumentException("the snapshot is of a query started at " + state.startTime()
                                               + ", this one started at " + startTime);
        }
        windowNumber = state.windowNumber();
        nextEmitTime = state.nextEmitTime();
        finalPartials = state.finalPartials();
        lastFrom.clear();
        for (int task : state.lastFrom()) {
            lastFrom.add(task);
        }
        partlyMerged = state.partlyMerged();
        restoredAt = state.restoredAt();
        incompleteUntilWindow = state.incompleteUntilWindow();
        rateIntervalStart = state.rateIntervalStart();
        rateCount = state.rateCount();
        mergedBatches = state.merged();
        changes++;
        if (aggregation) {
            aggregator.reset();
            if (!state.aggregatorEmpty()) {
                aggregator.combine(state.aggregator());
            }
            aggregationVersion++;
        }
    }

    /**
     * Takes up a delta after the state {@link #restore restored} (and the deltas before it): its counters, and the
     * partials to merge (RAW: the rows appended, as one partial).
     */
    void restoreDelta(JoinSnapshot.State state, List<byte[]> partials) {
        restore(state, false);
        for (byte[] partial : partials) {
            aggregator.combine(partial);
        }
    }

    /** Whether the aggregation is RAW: a delta carries its rows appended, else the partials merged. */
    boolean isRaw() {
        return aggregator instanceof RawAggregator;
    }

    /** Whether the query was ended for holding more than {@code bullet.query.max.bytes}. */
    public boolean wasOverBytes() {
        return overBytes;
    }

    /** Whether the query was stopped for emitting faster than the rate limit (SPEC §6.10). */
    public boolean wasRateLimited() {
        return rateLimited;
    }

    /**
     * Merges one Filter task's partial ({@code null} for none) and returns the results it completes: RAW windows
     * filled by record count, or the final result of a RAW query that found {@code size} records.
     *
     * @param last whether this is the Filter task's last partial for the query (it expired there)
     */
    public List<Result> combine(byte[] partial, boolean last, long now) {
        return combine(partial, last, -1, now);
    }

    /**
     * Notes the record batches a partial covers and tells whether it must be dropped. {@code spans} holds the batches
     * as triples (source, first offset, last offset). A first attempt covers new batches: they are noted. A
     * {@code retry} partial covers one batch (or one record of it) read or sent again after a failure: it is dropped
     * when its span was merged already, merged when none of it was, and dropped with a note in the results' {@code
     * meta} when only part of it was (batch boundaries are the same on every read, so this does not happen).
     */
    public boolean mergedBefore(long[] spans, boolean retry) {
        changes++;
        if (retry) {
            for (int i = 0; i + 2 < spans.length; i += 3) {
                MergedBatches.Overlap overlap = mergedBatches.overlap(spans[i], spans[i + 1], spans[i + 2]);
                if (overlap == MergedBatches.Overlap.ALL) {
                    return true;
                }
                if (overlap == MergedBatches.Overlap.PART) {
                    partlyMerged++;
                    return true;
                }
            }
        }
        for (int i = 0; i + 2 < spans.length; i += 3) {
            mergedBatches.add(spans[i], spans[i + 1], spans[i + 2]);
        }
        return false;
    }

    /** How many runs of merged offsets the query holds (bounded by how out of order partials arrive). */
    public int mergedRuns() {
        return mergedBatches.runs();
    }

    /** As {@link #combine(byte[], boolean, long)}, counting the last partial of Filter task {@code task} once. */
    public List<Result> combine(byte[] partial, boolean last, int task, long now) {
        return combine((Object) partial, last, task, now);
    }

    /**
     * As above, for a partial as a tuple carries it: a {@link RawPartial}, a {@code byte[]}, a {@link FilterFailure}
     * (the query ends with its error), or null.
     */
    public List<Result> combine(Object partial, boolean last, int task, long now) {
        List<Result> out = new ArrayList<>(1);
        if (done) {
            return out;
        }
        changes++;
        if (last && (task < 0 || lastFrom.add(task))) {
            finalPartials++;
        }
        if (partial == null) {
            return out;
        }
        if (partial instanceof FilterFailure failure) {
            out.add(endEarly(failure.toError(), now));
            return out;
        }
        if (!(aggregator instanceof RawAggregator)) {
            byte[] bytes = partial instanceof RawPartial ? ((RawPartial) partial).bytes() : (byte[]) partial;
            notePartial(bytes);
            aggregator.combine(bytes);
            if (aggregator.heldBytes() > maxBytes) {
                overBytes = true;
                out.add(endEarly(BoundErrors.overQueryBytes(maxBytes), now)); // with the partial that crossed
            }
            return out;
        }
        RawAggregator raw = (RawAggregator) aggregator;
        // rows are kept as their JSON (as the partial carries them, or cut from its bytes), decoded only when a
        // result is built
        List<byte[]> rows = partial instanceof RawPartial ? ((RawPartial) partial).rows()
                                                          : JsonCodec.objects((byte[]) partial, Integer.MAX_VALUE);
        for (byte[] record : rows) {
            if (!raw.isFull() && raw.heldBytes() + RawAggregator.rowBytes(record) > maxBytes) {
                overBytes = true;
                out.add(endEarly(BoundErrors.overQueryBytes(maxBytes), now)); // the rows that fit, not the one that crossed
                return out;
            }
            raw.addRow(record);
            if (window == null && raw.isFull()) {
                out.add(finish(now));
                return out;
            }
            if (window != null && window.kind() == Window.Kind.SLIDING && raw.isFull()) {
                emitWindow(now, now, out);
                if (done) {
                    return out;
                }
            }
        }
        return out;
    }

    /** Moves time: closes due time windows, and ends the query when its duration is over. */
    public List<Result> tick(long now) {
        return tick(now, ReadProgress.NONE, 0);
    }

    /**
     * As above; the final result of a query whose duration is over also waits until every record batch read before
     * its end was merged ({@code progress}), at most {@code readWaitMs} after the end; past that, or when batches were
     * lost for good, its {@code meta} says so, with how many batches.
     */
    public List<Result> tick(long now, ReadProgress progress, long readWaitMs) {
        List<Result> out = new ArrayList<>(1);
        if (done) {
            return out;
        }
        while (!done && now >= nextEmitTime && nextEmitTime < endTime) {
            long expected = nextEmitTime;
            nextEmitTime = FilterQuerier.saturatedAdd(nextEmitTime, window.every());
            emitWindow(now, expected, out);
        }
        if (!done && now >= endTime && (finalPartials >= partitions || now >= FilterQuerier.saturatedAdd(endTime, finalGraceMs))) {
            long lost = progress.lost(startTime, endTime);
            if (lost > 0) {
                unread(lost, "a DataSource spout task restarted after the query's end: batches it had read before the"
                             + " end and not yet reported were read again only after the end");
                out.add(finish(now));
            } else if (progress.settled(endTime)) {
                out.add(finish(now));
            } else if (now >= FilterQuerier.saturatedAdd(endTime, readWaitMs)) {
                unread(progress.unsettled(startTime, endTime), "record batches read before the query's end were not"
                       + " merged within " + readWaitMs + " ms of the end (a worker failed and they were not sent again in time)");
                out.add(finish(now));
            }
        }
        return out;
    }

    private void unread(long batches, String reason) {
        unreadBatches = batches;
        unreadReason = reason;
    }

    /** Whether a time window is due to close at {@code now}. */
    public boolean isWindowDue(long now) {
        return !done && now >= nextEmitTime && nextEmitTime < endTime;
    }

    /** Whether the query's duration is over (its final result may still wait for late partials). */
    public boolean isExpired(long now) {
        return now >= endTime;
    }

    /** Ends the query now: the open window (possibly partial) becomes the final result. */
    public Result finish(long now) {
        done = true;
        return build(now, window == null ? 0 : now >= nextEmitTime ? nextEmitTime : 0, true);
    }

    /**
     * Ends the query now for a bound it crossed (SPEC §6.8 {@code meta.errors}): the final result holds what the
     * query kept so far (the open window, possibly partial) and the error.
     */
    public Result endEarly(BulletError error, long now) {
        Result result = finish(now);
        Map<String, Object> m = new LinkedHashMap<>(result.meta());
        m.put("errors", List.of(error));
        return new Result(result.records(), m, true);
    }

    /** An estimate of the bytes this query holds here (its aggregation's or open window's state). */
    public long heldBytes() {
        return aggregator.heldBytes();
    }

    /** Ends the query with errors (e.g. killed, or refused downstream): a final result carrying them. */
    public Result fail(List<BulletError> errors, long now) {
        done = true;
        Result result = build(now, 0, true);
        Map<String, Object> m = new LinkedHashMap<>(result.meta());
        m.put("errors", errors);
        if (m.get(settings.metaName("window")) instanceof Map<?, ?> window) { // the window's size: this result's rows
            Map<Object, Object> w = new LinkedHashMap<>(window);
            w.put(settings.metaName("size"), 0);
            m.put(settings.metaName("window"), w);
        }
        return new Result(List.of(), m, true);
    }

    private void emitWindow(long now, long expected, List<Result> out) {
        changes++;
        if (rateLimited(now)) {
            rateLimited = true;
            out.add(fail(List.of(BulletError.of(
                    "The query was stopped: it emitted more than " + settings.rateLimitMaxEmitCount() + " results in "
                    + settings.rateLimitIntervalMs() + " ms",
                    "Use a larger window (emit every more records or milliseconds)")), now));
            return;
        }
        out.add(build(now, expected, false));
        windowNumber++;
        if (window.kind() != Window.Kind.ADDITIVE_TUMBLING) {
            aggregator.reset();
            aggregationVersion++;
        }
    }

    private boolean rateLimited(long now) {
        if (!settings.rateLimitEnabled()) {
            return false;
        }
        if (now - rateIntervalStart >= settings.rateLimitIntervalMs()) {
            rateIntervalStart = now;
            rateCount = 0;
        }
        rateCount++;
        return rateCount > settings.rateLimitMaxEmitCount();
    }

    private Result build(long now, long expectedEmitTime, boolean isFinal) {
        List<Map<String, Object>> rows = rawRows();
        List<BulletError> failures = List.of();
        if (rows == null) {
            try {
                rows = postAggregator.apply(aggregator.records(), now);
            } catch (PostAggregator.Failure failure) {
                // bullet-core's result when a post-aggregation throws: no records, the query goes on
                rows = List.of();
                failures = List.of(BulletError.of(failure.getMessage(), failure.resolution()));
            }
        }
        Map<String, Object> m = meta.build(rows.size(), windowNumber, now, expectedEmitTime, isFinal,
                                           aggregator.sketchMetadata(), failures);
        if (restoredAt >= 0 && (windowNumber <= incompleteUntilWindow || window == null)) {
            m = new LinkedHashMap<>(m);
            m.put(INCOMPLETE, Map.of("reason", RESTARTED_REASON, "restartedAt", restoredAt, "window", windowNumber));
        }
        if (isFinal && unreadReason != null) {
            m = new LinkedHashMap<>(m);
            m.put(INCOMPLETE, Map.of("reason", unreadReason, INCOMPLETE_BATCHES, unreadBatches, "window", windowNumber));
        }
        if (partlyMerged > 0) {
            m = new LinkedHashMap<>(m);
            m.put(INCOMPLETE, Map.of("reason", "record batches read again overlapped merged ones only in part and were left out",
                                     INCOMPLETE_BATCHES, partlyMerged, "window", windowNumber));
        }
        Result result = new Result(rows, m, isFinal);
        // the outer query (bullet-core: after the post-aggregations of every result, each window's and the final one)
        return query.outerQuery() == null ? result : OuterQueryRunner.run(id, query, settings, result, now);
    }

    /**
     * A RAW query's rows as the JSON they arrived in, when no post-aggregation changes them and each row is already
     * what writing it would give (the usual case: the Filter writes projections compactly, and producers mostly do
     * too); null otherwise. Parsing each row into a map and writing it again was half of the Join's time.
     */
    private List<Map<String, Object>> rawRows() {
        if (!(aggregator instanceof RawAggregator) || !query.postAggregations().isEmpty()) {
            return null;
        }
        RawAggregator raw = (RawAggregator) aggregator;
        byte[] json = raw.canonicalJson();
        return json == null ? null : new RawRows(json, raw.size());
    }

    /** Assembles {@code meta} (SPEC §6.8) under the configured concept names. */
    static final class ResultMeta {
        private final String id;
        private final Query query;
        private final long startTime;
        private final QuerySettings settings;

        ResultMeta(String id, Query query, long startTime, QuerySettings settings) {
            this.id = id;
            this.query = query;
            this.startTime = startTime;
            this.settings = settings;
        }

        Map<String, Object> build(int size, int number, long now, long expectedEmitTime, boolean isFinal,
                                  Map<String, Object> sketches) {
            return build(size, number, now, expectedEmitTime, isFinal, sketches, List.of());
        }

        /** The metadata, with {@code failures} (a post-aggregation that could not run) after the query's warnings. */
        Map<String, Object> build(int size, int number, long now, long expectedEmitTime, boolean isFinal,
                                  Map<String, Object> sketches, List<BulletError> failures) {
            Map<String, Object> m = new LinkedHashMap<>();
            if (settings.metadataEnabled()) {
                m.put(settings.metaName("query_id"), id);
                m.put(settings.metaName("query"), query.original());
                m.put(settings.metaName("query_receive_time"), startTime);
                if (isFinal) {
                    m.put(settings.metaName("query_finish_time"), now);
                }
                if (query.window() != null) {
                    Map<String, Object> w = new LinkedHashMap<>();
                    w.put(settings.metaName("name"), query.window().kind().displayName());
                    w.put(settings.metaName("number"), number);
                    w.put(settings.metaName("emit_time"), now);
                    if (query.window().isTimeBased() && expectedEmitTime > 0) {
                        w.put(settings.metaName("expected_emit_time"), expectedEmitTime);
                    }
                    w.put(settings.metaName("size"), size);
                    m.put(settings.metaName("window"), w);
                }
                if (!sketches.isEmpty()) {
                    Map<String, Object> s = new LinkedHashMap<>();
                    sketches.forEach((k, v) -> s.put(settings.metaName(k), v));
                    m.put(settings.metaName("sketches"), s);
                }
            }
            if (!query.warnings().isEmpty() || !failures.isEmpty()) {
                List<BulletError> warnings = new ArrayList<>(query.warnings());
                warnings.addAll(failures);
                m.put("warnings", warnings);
            }
            return m;
        }
    }
}

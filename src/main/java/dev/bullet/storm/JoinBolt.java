package dev.bullet.storm;

import dev.bullet.common.Clock;
import dev.bullet.pubsub.KafkaStateStore;
import dev.bullet.pubsub.PubSubFactory;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.UnconfirmedResults;
import dev.bullet.pubsub.UnconfirmedResults.Outgoing;
import dev.bullet.query.MemoryBounds;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.JoinEngine;
import dev.bullet.querying.JoinQuerier;
import dev.bullet.querying.JoinStateKeeper;
import dev.bullet.querying.ReadWatermarks;
import dev.bullet.querying.ReplayWait;
import dev.bullet.querying.RunningQuery;
import dev.bullet.querying.StoreReplayWait;
import dev.bullet.querying.WorkerMemory;
import dev.bullet.record.CanonicalJson;
import dev.bullet.storm.TopologyNames.Components;
import dev.bullet.storm.TopologyNames.Fields;
import dev.bullet.storm.TopologyNames.Streams;
import org.apache.storm.metric.api.CountMetric;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.TupleUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The Join bolt (SPEC §3.5): a thin adapter over {@link JoinEngine}. Owns queries by id; emits every result to
 * the Result bolt and, with each final result (or a KILL), a COMPLETE signal that every Filter task and the
 * decode bolt receive.
 *
 * <p>Restarts: a (re)started Filter or decode task says hello and gets every running query of this task replayed to
 * it directly; when this task (re)starts it says hello to the Filter tasks, which hand back the queries it owned,
 * taken up again with results that say which windows may be incomplete, or, when the Join keeps its state
 * ({@link #keepingState}), exactly where this task was: it keeps each query's state in a compacted Kafka topic
 * ({@link JoinStateKeeper}, {@link KafkaStateStore}) and acks a partial once a snapshot that holds it is in Kafka. A
 * (re)started task answers hellos only once it has its queries back: from the Filter tasks, and, when the query spout
 * restarted with it (a rebalance, a redeploy), from the query spout's replay of the query store
 * ({@link StoreReplayWait}); so a restarted Filter task takes no record batch before the queries it should run.
 *
 * <p>Results: every result is kept ({@link UnconfirmedResults}) until the Result bolt confirms Kafka has it, and sent
 * again on the tick if no confirmation came, so results survive the death of the Result bolt's worker.
 */
public class JoinBolt extends BaseRichBolt {
    /** How many times a (re)started Join task says hello, a second apart. */
    static final int HELLOS = 10;
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(JoinBolt.class);
    private static final long[] NO_SPANS = new long[0];
    /** How long, past its hellos, a (re)started task waits for the queries the Filter tasks hand back. */
    static final long RESTORE_GRACE_MS = 5_000;
    /** How long after Kafka could not be reached the state store is tried again; the longest wait between tries. */
    static final long STATE_RETRY_MS = 10_000;
    static final long STATE_RETRY_MAX_MS = 60_000;
    /**
     * How long a snapshot may wait for the state store's confirmation before it is warned of (then at most as often):
     * what it holds waits too, and past {@code topology.message.timeout.secs} the spout sends the batches again.
     */
    static final long SNAPSHOT_WAIT_WARN_MS = 5_000;
    /** The most a (re)started task waits to read the saved state of its queries. */
    private static final Duration STATE_READ_TIMEOUT = Duration.ofSeconds(30);
    private static final Set<String> WIRED = Set.of(Streams.HELLO, Streams.RESTORE, Streams.QUERY, Streams.SIGNAL,
                                                    Streams.PARTIAL, Streams.TICK, Streams.CONFIRM, Streams.READS,
                                                    Streams.STORE_REPLAY);
    private final QuerySettings settings;
    private final MemoryBounds bounds;
    private final long finalGraceMs;
    private final Clock clock;
    private final int helloCount;
    /** Whether the DataSource spout tasks report what they have in flight ({@link Streams#READS}). */
    private boolean awaitReads;
    private transient ReadWatermarks reads;
    private UnconfirmedResults.Policy keeping = UnconfirmedResults.Policy.DEFAULT;
    private transient OutputCollector collector;
    private transient JoinEngine engine;
    private transient List<JoinEngine.Emitted> out;
    private transient CountMetric created;
    private transient CountMetric improper;
    private transient CountMetric rateExceeded;
    private transient CountMetric overQueryBytes;
    private transient CountMetric overWorkerBytes;
    private transient CountMetric refused;
    private transient long[] counted;
    private transient int taskId;
    private transient List<Integer> queryTakers;
    private transient int hellos;
    private transient long lastHello;
    /**
     * Until when a partial of a query this task does not know is failed rather than dropped: after a (re)start the
     * Filter tasks hand back the queries this task owned, and partials sent again may come first.
     */
    private transient long restoringUntil;
    /** The Filter tasks that handed back all they had of this task's queries, and how many there are. */
    private transient Set<Integer> restoredFrom;
    private transient int filterTaskCount;
    /** This task's wait for the query spout's replay of the query store. */
    private transient StoreReplayWait storeReplay;
    /** Tasks that said hello while this task was restoring: answered once it is done. */
    private transient List<Integer> helloWhileRestoring;
    /** Whether the tuple being handled held a partial of a query this task does not know. */
    private transient boolean unknownPartial;
    private transient UnconfirmedResults unconfirmed;
    private transient List<Outgoing> outgoing;
    private transient CountMetric unconfirmedDropped;
    private transient long countedDropped;
    /** Where the Join's state is kept (null: it keeps none), and how often. */
    private PubSubFactory statePubSub;
    private long snapshotIntervalMs;
    private transient KafkaStateStore store;
    private transient JoinStateKeeper<Tuple> keeper;
    private transient JoinStateKeeper.Settle<Tuple> settle;
    private transient long loggedFailures;
    private transient TopologyContext context;
    /** When to try opening the state store again (after Kafka could not be reached), and the wait after that. */
    private transient long stateRetryAt;
    private transient long stateRetryMs;
    private transient int loggedTooLarge;
    /** When a snapshot's wait for the state store may be warned of again. */
    private transient long nextWaitWarnAt;

    public JoinBolt(QuerySettings settings, long finalGraceMs, Clock clock) {
        this(settings, finalGraceMs, 1, clock);
    }

    /** @param hellos how many times, a second apart, a (re)started task says hello to the Filter tasks */
    public JoinBolt(QuerySettings settings, long finalGraceMs, int hellos, Clock clock) {
        this(settings, MemoryBounds.NONE, finalGraceMs, hellos, clock);
    }

    /** @param bounds the bounds on what queries hold (per query and per worker) and how many run */
    public JoinBolt(QuerySettings settings, MemoryBounds bounds, long finalGraceMs, int hellos, Clock clock) {
        this.settings = settings;
        this.bounds = bounds;
        this.finalGraceMs = finalGraceMs;
        this.helloCount = hellos;
        this.clock = clock;
    }

    /**
     * Keeps the state of this task's queries in the PubSub's Join state store ({@link PubSubFactory#joinStateStore()})
     * at most every {@code intervalMs}: a restarted task takes them up exactly. Without a store it runs as without this.
     */
    public JoinBolt keepingState(PubSubFactory pubSub, long intervalMs) {
        this.statePubSub = pubSub;
        this.snapshotIntervalMs = intervalMs;
        return this;
    }

    /**
     * Makes final results wait for the record batches read before a query's end, as the DataSource spout tasks report
     * them on {@link Streams#READS} (the Kafka spout does; a plug-in spout does not).
     */
    public JoinBolt awaitingReads() {
        this.awaitReads = true;
        return this;
    }

    /** How long results are kept until the Result bolt confirms them, and how often they are sent again. */
    public JoinBolt keeping(UnconfirmedResults.Policy policy) {
        this.keeping = policy;
        return this;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = Wakeups.waking(collector);
        int filterTasks = Math.max(1, context.getComponentTasks(Components.FILTER_BOLT).size());
        int joinTasks = Math.max(1, context.getComponentTasks(Components.JOIN_BOLT).size());
        // every Join task of this worker (this JVM) shares one account of what its queries hold
        WorkerMemory memory = MemoryBounds.NONE.equals(bounds) ? WorkerMemory.unbounded()
                : WorkerMemory.of(context.getStormId(), bounds.workerBytes(Runtime.getRuntime().maxMemory()));
        this.engine = new JoinEngine(settings, filterTasks, finalGraceMs, bounds, joinTasks, memory);
        if (awaitReads) {
            this.reads = new ReadWatermarks(Math.max(1, context.getComponentTasks(Components.DATASOURCE_SPOUT).size()));
            engine.awaitReads(reads, BulletTopology.readWaitMs(conf));
        }
        this.out = new ArrayList<>();
        BulletMetrics metrics = BulletMetrics.register(conf, context);
        metrics.gauge(BulletMetrics.ACTIVE_QUERIES, engine::size);
        this.created = metrics.counter(BulletMetrics.CREATED_QUERIES);
        this.improper = metrics.counter(BulletMetrics.IMPROPER_QUERIES);
        this.rateExceeded = metrics.counter(BulletMetrics.RATE_EXCEEDED_QUERIES);
        this.overQueryBytes = metrics.counter(BulletMetrics.QUERY_BYTES_EXCEEDED_QUERIES);
        this.overWorkerBytes = metrics.counter(BulletMetrics.WORKER_BYTES_EXCEEDED_QUERIES);
        this.refused = metrics.counter(BulletMetrics.REFUSED_QUERIES);
        this.counted = new long[6];
        this.taskId = context.getThisTaskId();
        this.lastHello = Long.MIN_VALUE / 2;
        this.restoredFrom = new HashSet<>();
        this.filterTaskCount = context.getComponentTasks(Components.FILTER_BOLT).size();
        this.helloWhileRestoring = new ArrayList<>();
        this.restoringUntil = clock.now() + (long) helloCount * ReplayWait.HELLO_INTERVAL_MS + RESTORE_GRACE_MS;
        this.storeReplay = new StoreReplayWait(clock.now());
        this.queryTakers = new ArrayList<>(context.getComponentTasks(Components.FILTER_BOLT));
        queryTakers.addAll(context.getComponentTasks(Components.DATASOURCE_BOLT));
        this.unconfirmed = new UnconfirmedResults(Long.toHexString(ThreadLocalRandom.current().nextLong()) + "-"
                                                  + taskId + "-", keeping, clock);
        this.outgoing = new ArrayList<>();
        metrics.gauge(BulletMetrics.RESULTS_UNCONFIRMED, unconfirmed::size);
        this.unconfirmedDropped = metrics.counter(BulletMetrics.RESULTS_UNCONFIRMED_DROPPED);
        this.context = context;
        this.stateRetryMs = STATE_RETRY_MS;
        this.stateRetryAt = Long.MAX_VALUE;
        if (statePubSub != null) {
            openState();
        }
    }

    /**
     * The state store and what it holds of this task's queries (the ids fields grouping sends here). When Kafka could
     * not be reached (a busy cluster starting), it is tried again on the tick, {@link #STATE_RETRY_MS} later, then
     * twice as late each time, up to {@link #STATE_RETRY_MAX_MS}; a missing topic is not tried again.
     */
    private void openState() {
        try {
            Optional<KafkaStateStore> opened = statePubSub.joinStateStore();
            stateRetryAt = Long.MAX_VALUE;
            if (opened.isEmpty()) {
                return;
            }
            store = opened.get();
        } catch (RuntimeException e) {
            stateRetryAt = clock.now() + stateRetryMs;
            LOG.warn("Join task {} keeps no state for now ({}; tried again in {} s): if it restarts meanwhile, the open"
                     + " windows of its queries are lost and their results say so (meta.incomplete)", taskId,
                     e.getMessage(), stateRetryMs / 1000);
            stateRetryMs = Math.min(STATE_RETRY_MAX_MS, 2 * stateRetryMs);
            return;
        }
        int joinTasks = Math.max(1, context.getComponentTasks(Components.JOIN_BOLT).size());
        int taskIndex = context.getThisTaskIndex();
        keeper = new JoinStateKeeper<>(store::write, store.maxValueBytes(), snapshotIntervalMs);
        settle = new JoinStateKeeper.Settle<>() {
            @Override
            public void ack(Tuple held) {
                collector.ack(held);
            }

            @Override
            public void fail(Tuple held) {
                collector.fail(held);
            }

            @Override
            public void release(JoinEngine.Emitted result) {
                send(result);
                emitResults();
            }
        };
        try {
            Map<String, byte[]> mine = store.readAll(key -> TupleUtils.chooseTaskIndex(
                    List.of(JoinStateKeeper.queryId(key)), joinTasks) == taskIndex, STATE_READ_TIMEOUT);
            keeper.loaded(mine, clock.now());
            LOG.info("Join task {} keeps its state in {}; it read {} saved queries of its own", taskId, store, mine.size());
        } catch (RuntimeException e) {
            LOG.warn("Join task {} could not read the saved state of its queries from {} ({}): queries taken back after a"
                     + " restart are flagged incomplete", taskId, store, e.getMessage());
        }
    }

    private void countQueries() {
        long[] now = {engine.createdQueries(), engine.improperQueries(), engine.rateExceededQueries(),
                      engine.overQueryBytesQueries(), engine.overWorkerBytesQueries(), engine.refusedQueries()};
        CountMetric[] metrics = {created, improper, rateExceeded, overQueryBytes, overWorkerBytes, refused};
        for (int i = 0; i < now.length; i++) {
            if (now[i] != counted[i]) {
                metrics[i].incrBy(now[i] - counted[i]);
            }
        }
        counted = now;
    }

    @Override
    public void execute(Tuple tuple) {
        if (!WIRED.contains(tuple.getSourceStreamId())) { // a wiring bug, not user input: fail loudly
            throw new IllegalStateException("The Join bolt is not wired to stream " + tuple.getSourceStreamId()
                                            + " of " + tuple.getSourceComponent());
        }
        long now = clock.now();
        if (hellos < helloCount && now - lastHello >= ReplayWait.HELLO_INTERVAL_MS) {
            // said a few times: a hello sent while the workers reconnect can be lost, and restoring is idempotent
            hellos++;
            lastHello = now;
            collector.emit(Streams.HELLO, new Values(taskId));
        }
        unknownPartial = false;
        try {
            handle(tuple);
        } catch (RuntimeException | StackOverflowError e) {
            // contained to this tuple: a bug here must not kill the worker; logged, the tuple acked
            out.clear();
            outgoing.clear();
            LOG.error("Failed to handle a tuple of stream {} from {}; skipped", tuple.getSourceStreamId(),
                      tuple.getSourceComponent(), e);
            collector.ack(tuple);
        } finally {
            // the tuple's rows were checked once each for all the queries that keep them (an outer query's on a tick too)
            CanonicalJson.forgetRows();
        }
        if (keeper != null) {
            keeper.poll(settle);
            keeper.snapshot(engine, clock.now(), settle); // when due, or when results wait for one
            logStateIssues();
        }
    }

    private void logStateIssues() {
        long now = clock.now();
        long waited = keeper.unconfirmedForMs(now);
        if (waited >= SNAPSHOT_WAIT_WARN_MS && now >= nextWaitWarnAt) {
            nextWaitWarnAt = now + SNAPSHOT_WAIT_WARN_MS;
            LOG.warn("Join task {}: a snapshot of its queries' state has waited {} s for {} to confirm it; {} results and"
                     + " the acks of {} partials wait with it", taskId, waited / 1000, store, keeper.heldResults(),
                     keeper.held());
        }
        if (keeper.failures() != loggedFailures) {
            LOG.warn("Join task {}: {} writes to {} failed so far (the last: {}); the partials they held are failed, their"
                     + " batches sent again", taskId, keeper.failures(), store, String.valueOf(keeper.lastFailure()));
            loggedFailures = keeper.failures();
        }
        if (keeper.tooLarge().size() != loggedTooLarge) {
            LOG.warn("Join task {}: the state of {} queries is larger than a message of {} may be ({} bytes): not kept;"
                     + " after a restart of this task their results are flagged incomplete", taskId,
                     keeper.tooLarge().size(), store, store.maxValueBytes());
            loggedTooLarge = keeper.tooLarge().size();
        }
    }

    private void handle(Tuple tuple) {
        String id;
        switch (tuple.getSourceStreamId()) {
            case Streams.HELLO: {
                int task = tuple.getIntegerByField(Fields.TASK);
                if (restoring()) {
                    helloWhileRestoring.add(task); // answered once this task has its queries back
                } else {
                    answerHello(task);
                }
                break;
            }
            case Streams.RESTORE:
                restore(tuple);
                break;
            case Streams.STORE_REPLAY:
                storeReplayReport(tuple.getLongByField(Fields.INSTANCE), tuple.getBooleanByField(Fields.DONE));
                break;
            case Streams.QUERY:
                query(tuple);
                break;
            case Streams.SIGNAL:
                id = tuple.getStringByField(Fields.ID);
                if (Signal.KILL.name().equals(tuple.getStringByField(Fields.SIGNAL)) && engine.kill(id)) {
                    unconfirmed.forget(id);
                    collector.emit(Streams.SIGNAL, new Values(id, Signal.COMPLETE.name()));
                }
                break;
            case Streams.PARTIAL:
                combine(tuple);
                break;
            case Streams.TICK:
                if (keeper == null && clock.now() >= stateRetryAt) {
                    openState();
                }
                engine.tick(clock.now(), out);
                logUnread(out);
                unconfirmed.resend(outgoing);
                break;
            case Streams.CONFIRM:
                unconfirmed.confirm(tuple.getStringByField(Fields.DELIVERY), outgoing);
                break;
            case Streams.READS:
                if (reads != null) {
                    reads.report(tuple.getIntegerByField(Fields.TASK), tuple.getLongByField(Fields.INSTANCE),
                                 tuple.getLongByField(Fields.TIME), (long[]) tuple.getValueByField(Fields.PENDING));
                }
                break;
            default:
                throw new IllegalStateException("The Join bolt is not wired to stream " + tuple.getSourceStreamId()
                                                + " of " + tuple.getSourceComponent());
        }
        for (JoinEngine.Emitted e : out) {
            if (keeper != null) {
                keeper.holdResult(e); // sent once the state after it is in Kafka: a restart does not send it again
            } else {
                send(e);
            }
        }
        out.clear();
        emitResults();
        countQueries();
        if (!helloWhileRestoring.isEmpty() && !restoring()) {
            for (int task : helloWhileRestoring) {
                answerHello(task);
            }
            helloWhileRestoring.clear();
        }
        if (unknownPartial && clock.now() < restoringUntil) {
            // a query not handed back yet: its batches come again (the queries this task knows drop what they merged)
            unknownPartial = false;
            collector.fail(tuple);
        } else if (keeper != null && Streams.PARTIAL.equals(tuple.getSourceStreamId())) {
            keeper.hold(tuple); // acked once a snapshot that holds its partials is in Kafka
        } else {
            collector.ack(tuple);
        }
    }

    /**
     * A new query, or one the query spout takes up from the query store ({@link Fields#RESTARTED_AT} set): it goes on
     * from where the last Join task was; coming after this task let the Filter tasks take batches, it missed some.
     */
    private void query(Tuple tuple) {
        String id = tuple.getStringByField(Fields.ID);
        long restartedAt = tuple.contains(Fields.RESTARTED_AT) ? tuple.getLongByField(Fields.RESTARTED_AT) : -1;
        JoinEngine.Emitted error;
        if (restartedAt >= 0) {
            boolean late = !restoring();
            long lateBefore = engine.resumedLate();
            error = engine.resume(id, tuple.getStringByField(Fields.QUERY), tuple.getLongByField(Fields.START_TIME),
                                  tuple.getIntegerByField(Fields.REPLY_PARTITION), restartedAt,
                                  keeper == null ? null : keeper.take(id), late); // where the last Join task was
            if (engine.resumedLate() != lateBefore) {
                LOG.warn("Join task {} took up query {} from the query store after the records began to flow without"
                         + " it{}: its results say the window open now may be incomplete", taskId, id,
                         storeReplay.gaveUp() ? " (it stopped waiting for the query spout's replay after "
                                                + storeReplay.waitedMs() + " ms)" : "");
            }
        } else {
            error = engine.add(id, tuple.getStringByField(Fields.QUERY), tuple.getLongByField(Fields.START_TIME),
                               tuple.getIntegerByField(Fields.REPLY_PARTITION));
        }
        if (error != null) {
            out.add(error);
        }
    }

    /** The query spout's report of its replay of the query store. */
    private void storeReplayReport(long instance, boolean done) {
        if (storeReplay.report(instance, done, clock.now())) {
            LOG.info("Join task {}: the query spout task started at {} replayed the query store; this task waited {} ms for"
                     + " it", taskId, Instant.ofEpochMilli(instance), storeReplay.waitedMs());
        }
    }

    /** Sends a result (kept until the Result bolt confirms it) and, with a final one, the COMPLETE signal. */
    private void send(JoinEngine.Emitted e) {
        boolean last = e.result().isFinal();
        unconfirmed.add(e.id(), e.result().toJson(), e.replyPartition(), last, outgoing);
        emitResults();
        if (last) {
            collector.emit(Streams.SIGNAL, new Values(e.id(), Signal.COMPLETE.name()));
        }
    }

    /** A query a Filter task hands back to a (re)started Join task, or its marker that it handed back all it had. */
    private void restore(Tuple tuple) {
        String id = tuple.getStringByField(Fields.ID);
        if (tuple.getIntegerByField(Fields.TASK) != taskId) {
            return;
        }
        if (tuple.getValueByField(Fields.QUERY) == null) {
            restoredFrom.add(tuple.getSourceTask());
            return;
        }
        long exactBefore = engine.restoredExactly();
        if (engine.restore(id, tuple.getStringByField(Fields.QUERY), tuple.getLongByField(Fields.START_TIME),
                           tuple.getIntegerByField(Fields.REPLY_PARTITION), clock.now(),
                           keeper == null ? null : keeper.take(id))) {
            LOG.info("Join task {} took back query {} from Filter task {} after a restart, {}", taskId, id,
                     tuple.getSourceTask(), engine.restoredExactly() != exactBefore ? "with its saved state"
                             : "without its state (its results are flagged incomplete)");
            // Filter or decode tasks that restarted with this task have not had it yet
            replayTo(queryTakers, engine.running().stream().filter(q -> q.id().equals(id)).toList());
        }
    }

    /**
     * Whether this (re)started task may still get queries back: from the Filter tasks, until every Filter task said it
     * handed back all it had, at most until {@link #restoringUntil}; from the query spout's replay of the query store,
     * until it is reported done, at most {@link StoreReplayWait#MAX_WAIT_MS}. A restarted Filter or decode task is told
     * the running queries only after that, or it would take batches without the queries still to come back.
     */
    private boolean restoring() {
        long now = clock.now();
        boolean fromFilters = restoredFrom.size() < filterTaskCount && now < restoringUntil;
        boolean wasWaiting = !storeReplay.gaveUp();
        boolean fromStore = storeReplay.waiting(now);
        if (wasWaiting && storeReplay.gaveUp()) {
            LOG.warn("Join task {}: no report that the query spout replayed the query store within {} ms; it answers the"
                     + " restarted Filter tasks now: a query taken up from the store later says it may be incomplete",
                     taskId, StoreReplayWait.MAX_WAIT_MS);
        }
        return fromFilters || fromStore;
    }

    private void answerHello(int task) {
        replayTo(List.of(task), engine.running());
        collector.emitDirect(task, Streams.REPLAY, new Values(null, null, 0L, -1)); // the end of this replay
    }

    /** Emits the results to send (new, sent again, or no longer held back); unanchored: kept until confirmed. */
    private void emitResults() {
        for (Outgoing r : outgoing) {
            collector.emit(Streams.RESULT, new Values(r.queryId(), r.json(), r.replyPartition(), r.last(),
                                                      r.deliveryId()));
        }
        outgoing.clear();
        if (unconfirmed.dropped() != countedDropped) {
            unconfirmedDropped.incrBy(unconfirmed.dropped() - countedDropped);
            countedDropped = unconfirmed.dropped();
        }
    }

    /**
     * The partials of one Filter tuple, in order; one that cannot be merged is logged and skipped, not the rest. A
     * first attempt's batch spans cover every partial of the tuple; a retry's give each partial its own span.
     */
    @SuppressWarnings("unchecked")
    private void combine(Tuple tuple) {
        List<Object> flat = (List<Object>) tuple.getValueByField(Fields.PARTIALS);
        long[] spans = (long[]) tuple.getValueByField(Fields.BATCH_KEYS);
        boolean retry = tuple.getBooleanByField(Fields.RETRY);
        int source = tuple.getSourceTask();
        long now = clock.now();
        for (int i = 0; i + 2 < flat.size(); i += 3) {
            String id = (String) flat.get(i);
            long[] covered = spans;
            if (retry) { // the i-th triple of partials has the i-th triple of spans
                covered = i + 2 < spans.length ? Arrays.copyOfRange(spans, i, i + 3) : NO_SPANS;
            }
            unknownPartial |= !engine.knows(id);
            try {
                engine.combine(id, flat.get(i + 1), (Boolean) flat.get(i + 2), source, covered, retry, now, out);
            } catch (RuntimeException | StackOverflowError e) {
                LOG.error("Failed to merge a partial of query {} from Filter task {}; skipped", id, source, e);
            }
        }
    }

    /**
     * Sends running queries to (re)started Filter and decode tasks; they ignore the ones they hold. A replay in
     * answer to a hello ends with a tuple whose id is null.
     */
    private void replayTo(List<Integer> tasks, List<RunningQuery> queries) {
        for (int task : tasks) {
            for (RunningQuery q : queries) {
                collector.emitDirect(task, Streams.REPLAY, new Values(q.id(), q.json(), q.startTime(), q.replyPartition()));
            }
        }
    }

    @Override
    public void cleanup() {
        if (store != null) {
            store.close();
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declareStream(Streams.RESULT, StreamFields.of(Fields.ID, Fields.RESULT,
                                                                                 Fields.REPLY_PARTITION, Fields.FINAL,
                                                                                 Fields.DELIVERY));
        declarer.declareStream(Streams.SIGNAL, StreamFields.of(Fields.ID, Fields.SIGNAL));
        declarer.declareStream(Streams.HELLO, StreamFields.of(Fields.TASK));
        declarer.declareStream(Streams.REPLAY, true, StreamFields.of(Fields.ID, Fields.QUERY,
                                                                                     Fields.START_TIME, Fields.REPLY_PARTITION));
    }

    /** A final result missing record batches (not merged in time, or lost): what the spouts last said. */
    private void logUnread(List<JoinEngine.Emitted> emitted) {
        if (reads == null) {
            return;
        }
        for (JoinEngine.Emitted e : emitted) {
            Map<String, Object> meta = e.result().meta();
            if (e.result().isFinal() && meta != null && meta.get(JoinQuerier.INCOMPLETE) instanceof Map<?, ?> incomplete
                && incomplete.containsKey(JoinQuerier.INCOMPLETE_BATCHES)) {
                LOG.warn("Join task {}: query {} ended at {} incomplete ({}); the spout tasks last reported: {}", taskId,
                         e.id(), clock.now(), incomplete, reads.describe());
            }
        }
    }
}

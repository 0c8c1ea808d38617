package dev.bullet.storm;

import dev.bullet.common.Clock;
import dev.bullet.metrics.LatencyHistogram;
import dev.bullet.pubsub.Signal;
import dev.bullet.query.MemoryBounds;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.FilterEngine;
import dev.bullet.querying.ReplayWait;
import dev.bullet.querying.RunningQuery;
import dev.bullet.record.Record;
import dev.bullet.storm.TopologyNames.Components;
import dev.bullet.storm.TopologyNames.Fields;
import dev.bullet.storm.TopologyNames.Streams;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.TupleUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Filter bolt (SPEC §3.4): a thin adapter over {@link FilterEngine}. Queries arrive on every task (all
 * grouping), record batches are shuffled in, partials go to the query's Join task (fields grouping on id).
 * COMPLETE signals from the Join make every task drop the query.
 *
 * <p>Surviving a worker's death: a record batch is acked only once the partials that cover it are emitted, anchored
 * to it (RAW partials at once, the others on the next tick), and the Join acks a partial once merged; so a batch
 * whose task died before reporting it times out and is read again from Kafka, and a reported batch is never
 * re-read. A (re)started task says hello to the Join tasks (again every second until each answered), which replay
 * their running queries to it; meanwhile it fails the record batches it gets, so the spout sends them again (see
 * {@link ReplayWait}). When a Join task says hello, this task hands it back the queries it owned
 * ({@link Streams#RESTORE}).
 */
public class FilterBolt extends BaseRichBolt {
    private static final long serialVersionUID = 1L;
    private static final long[] NO_KEYS = new long[0];
    private static final Logger LOG = LoggerFactory.getLogger(FilterBolt.class);
    private static final Set<String> WIRED = Set.of(Streams.REPLAY, Streams.QUERY, Streams.SIGNAL,
                                                                        Streams.HELLO, Streams.TICK, Streams.RECORDS);

    private final QuerySettings settings;
    private final MemoryBounds bounds;
    private final Clock clock;
    private transient OutputCollector collector;
    private transient FilterEngine engine;
    private transient List<FilterEngine.Partial> out;
    /** With a retried batch: the span of each partial of {@link #out}, three longs each (source, first, last). */
    private transient List<Long> outSpans;
    private transient List<Tuple> unreported;
    private transient List<Long> unreportedKeys;
    private transient LatencyHistogram latency;
    private transient int taskId;
    private transient ReplayWait replays;
    /** The number of Join tasks. */
    private transient int joinTasks;
    private transient List<Integer> joinTaskIds;

    public FilterBolt(QuerySettings settings, Clock clock) {
        this(settings, MemoryBounds.NONE, clock);
    }

    /** @param bounds the bounds on what a query holds and how many run */
    public FilterBolt(QuerySettings settings, MemoryBounds bounds, Clock clock) {
        this.settings = settings;
        this.bounds = bounds;
        this.clock = clock;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = Wakeups.waking(collector);
        this.engine = new FilterEngine(settings, bounds);
        // an ended query stays while batches read before its end may still come (sent again after a failure)
        engine.drainAfterEnd(BulletTopology.readWaitMs(conf));
        this.out = new ArrayList<>();
        this.outSpans = new ArrayList<>();
        this.unreported = new ArrayList<>();
        this.unreportedKeys = new ArrayList<>();
        this.taskId = context.getThisTaskId();
        this.joinTasks = Math.max(1, context.getComponentTasks(Components.JOIN_BOLT).size());
        this.joinTaskIds = new ArrayList<>(context.getComponentTasks(Components.JOIN_BOLT));
        Collections.sort(joinTaskIds); // Storm's fields grouping indexes the target tasks in this order
        this.replays = new ReplayWait(context.getComponentTasks(Components.JOIN_BOLT).size());
        BulletMetrics metrics = BulletMetrics.register(conf, context);
        metrics.gauge(BulletMetrics.ACTIVE_QUERIES, engine::size);
        metrics.gauge(BulletMetrics.UNFILTERED_REGEX_QUERIES, engine::unfilteredRegexQueries);
        metrics.gauge(BulletMetrics.FILTER_REFUSED_QUERIES, engine::refusedQueries);
        this.latency = metrics.latency(BulletMetrics.FILTER_LATENCY);
    }

    @Override
    public void execute(Tuple tuple) {
        String stream = tuple.getSourceStreamId();
        if (!WIRED.contains(stream)) { // a wiring bug, not user input: fail loudly
            throw new IllegalStateException("The Filter bolt is not wired to stream " + stream + " of "
                                            + tuple.getSourceComponent());
        }
        if (replays.helloDue(clock.now())) {
            collector.emit(Streams.HELLO, new Values(taskId));
        }
        if (replays.waiting() && Streams.RECORDS.equals(stream)) {
            collector.fail(tuple); // sent again by the spout soon: this task does not have every running query yet
            return;
        }
        try {
            handle(tuple);
        } catch (RuntimeException | StackOverflowError e) {
            // contained to this tuple: a bug here must not kill the worker nor make Kafka re-read the
            // batch forever; it is logged and the tuple acked
            out.clear();
            outSpans.clear();
            LOG.error("Failed to handle a tuple of stream {} from {}; skipped", tuple.getSourceStreamId(),
                      tuple.getSourceComponent(), e);
            collector.ack(tuple);
        }
    }

    @SuppressWarnings("unchecked")
    private void handle(Tuple tuple) {
        switch (tuple.getSourceStreamId()) {
            case Streams.REPLAY:
                if (tuple.getValueByField(Fields.ID) == null) {
                    replays.ended(tuple.getSourceTask());
                    break;
                }
                engine.add(tuple.getStringByField(Fields.ID), tuple.getStringByField(Fields.QUERY),
                           tuple.getLongByField(Fields.START_TIME), tuple.getIntegerByField(Fields.REPLY_PARTITION));
                break;
            case Streams.QUERY:
                long refusedBefore = engine.refusedQueries();
                engine.add(tuple.getStringByField(Fields.ID), tuple.getStringByField(Fields.QUERY),
                           tuple.getLongByField(Fields.START_TIME), tuple.getIntegerByField(Fields.REPLY_PARTITION));
                if (engine.refusedQueries() != refusedBefore) {
                    LOG.warn("Filter task {} refused query {}: it holds {} queries, twice bullet.query.max.running"
                             + " ({} refused so far, in {})", taskId, tuple.getStringByField(Fields.ID), engine.size(),
                             engine.refusedQueries(), BulletMetrics.FILTER_REFUSED_QUERIES);
                }
                break;
            case Streams.SIGNAL:
                if (Signal.COMPLETE.name().equals(tuple.getStringByField(Fields.SIGNAL))) {
                    engine.remove(tuple.getStringByField(Fields.ID));
                }
                break;
            case Streams.HELLO:
                restoreTo(tuple.getIntegerByField(Fields.TASK));
                break;
            case Streams.TICK:
                flush();
                break;
            case Streams.RECORDS:
                consume(tuple);
                return;
            default:
                throw new IllegalStateException("The Filter bolt is not wired to stream " + tuple.getSourceStreamId()
                                                + " of " + tuple.getSourceComponent());
        }
        emit(List.of(), NO_KEYS, false);
        collector.ack(tuple);
    }

    /**
     * A record batch. A first attempt is held (unacked) until the next tick's partials cover it. A batch read or sent
     * again after a failure is reported alone, at once, flagged: the Join merges it only if it never merged the batch
     * (its first attempt may have been reported before the failure, e.g. when only the ack was lost). A batch read
     * again by a spout that took a partition over from a dead or revoked reader carries the offset of each record
     * (its first read may have had other boundaries): it is reported record by record, each partial with its record's
     * offset, so the Join drops exactly the records it merged before.
     */
    @SuppressWarnings("unchecked")
    private void consume(Tuple tuple) {
        long[] span = DecodeBolt.span(tuple);
        boolean retry = tuple.getBooleanByField(Fields.RETRY);
        List<Record> records = (List<Record>) tuple.getValueByField(Fields.RECORDS);
        long readTime = tuple.getLongByField(Fields.READ_TIME);
        if (latency != null) {
            latency.record(clock.now() - readTime, records.size());
        }
        if (retry) {
            flush(); // the partials so far must not include the retried batch
            if (span.length > 3) {
                try (FilterEngine.Again again = engine.again(readTime)) {
                    for (int i = 0; i < records.size() && i + 3 < span.length; i++) {
                        int before = out.size();
                        again.consume(List.of(records.get(i)), clock.now(), out);
                        engine.tick(clock.now(), out);
                        spanEach(before, span[0], span[i + 3], span[i + 3]);
                    }
                }
            } else {
                engine.consumeAgain(records, clock.now(), readTime, out);
                engine.tick(clock.now(), out);
                if (span.length == 3) {
                    spanEach(0, span[0], span[1], span[2]);
                }
            }
            emit(List.of(tuple), NO_KEYS, true);
            collector.ack(tuple);
            return;
        }
        engine.consume(records, clock.now(), readTime, out);
        emit(List.of(tuple), span.length > 3 ? Arrays.copyOf(span, 3) : span, false); // RAW partials of this batch
        if (engine.isEmpty()) {
            collector.ack(tuple);
        } else {
            unreported.add(tuple); // acked once the next tick's partials, which cover it, are emitted
            for (int i = 0; i < 3 && i < span.length; i++) {
                unreportedKeys.add(span[i]);
            }
            if (engine.flushDue()) {
                flush(); // a query holds more than bullet.query.max.bytes here: its partial leaves now, as on a tick
            }
        }
    }

    /** Gives every partial of {@code out} from index {@code from} on the span {@code first..last} of {@code source}. */
    private void spanEach(int from, long source, long first, long last) {
        for (int i = from; i < out.size(); i++) {
            outSpans.add(source);
            outSpans.add(first);
            outSpans.add(last);
        }
    }

    /** Emits every pending partial, covering the batches not reported yet, and acks those batches. */
    private void flush() {
        engine.tick(clock.now(), out);
        long[] keys = new long[unreportedKeys.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = unreportedKeys.get(i);
        }
        emit(unreported, keys, false);
        for (Tuple t : unreported) {
            collector.ack(t);
        }
        unreported.clear();
        unreportedKeys.clear();
    }

    /**
     * Sends the partials in {@code out}: one tuple per Join task they go to, not one per partial. A tick of a
     * thousand dashboards was a thousand tuples, each anchored to every batch it covers (a message to the acker per
     * batch, per partial) and each a wake-up of the Join; now it is one. Partials of one query keep their order.
     */
    private void emit(List<Tuple> anchors, long[] keys, boolean retry) {
        if (out.isEmpty()) {
            outSpans.clear();
            return;
        }
        // a retry's partials each have their span (three longs each in outSpans); a first attempt's share keys
        boolean ownSpans = retry && outSpans.size() == out.size() * 3;
        if (joinTasks == 1) {
            List<Object> flat = new ArrayList<>(out.size() * 3);
            for (FilterEngine.Partial p : out) {
                add(flat, p);
            }
            collector.emit(Streams.PARTIAL, anchors, new Values(out.get(0).id(), flat, ownSpans ? spansOf(outSpans) : keys, retry));
        } else {
            Map<Integer, List<Object>> byTask = new TreeMap<>();
            Map<Integer, List<Long>> spansByTask = new TreeMap<>();
            for (int i = 0; i < out.size(); i++) {
                FilterEngine.Partial p = out.get(i);
                // the task index Storm's fields grouping gives the id: each list goes where each of its ids would
                int task = TupleUtils.chooseTaskIndex(List.of(p.id()), joinTasks);
                add(byTask.computeIfAbsent(task, t -> new ArrayList<>()), p);
                if (ownSpans) {
                    spansByTask.computeIfAbsent(task, t -> new ArrayList<>()).addAll(outSpans.subList(i * 3, i * 3 + 3));
                }
            }
            for (Map.Entry<Integer, List<Object>> e : byTask.entrySet()) {
                List<Object> flat = e.getValue();
                long[] spans = ownSpans ? spansOf(spansByTask.get(e.getKey())) : keys;
                collector.emit(Streams.PARTIAL, anchors, new Values(flat.get(0), flat, spans, retry));
            }
        }
        out.clear();
        outSpans.clear();
    }

    private static long[] spansOf(List<Long> spans) {
        long[] a = new long[spans.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = spans.get(i);
        }
        return a;
    }

    private static void add(List<Object> flat, FilterEngine.Partial p) {
        flat.add(p.id());
        flat.add(p.payload());
        flat.add(p.last());
    }

    /**
     * Hands a (re)started Join task back the queries it owned, then a marker (no query) saying this task is done, under
     * an id that fields grouping sends to that task.
     */
    private void restoreTo(int joinTask) {
        for (RunningQuery q : engine.running()) {
            collector.emit(Streams.RESTORE, new Values(q.id(), q.json(), q.startTime(), q.replyPartition(), joinTask));
        }
        int index = joinTaskIds.indexOf(joinTask);
        if (index >= 0) {
            collector.emit(Streams.RESTORE, new Values(routedTo(index, joinTasks), null, 0L, -1, joinTask));
        }
    }

    /** An id Storm's fields grouping sends to the Join task of index {@code index} of {@code tasks}. */
    static String routedTo(int index, int tasks) {
        for (int n = 0; ; n++) {
            String id = "restored-" + n;
            if (TupleUtils.chooseTaskIndex(List.of(id), tasks) == index) {
                return id;
            }
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declareStream(Streams.PARTIAL, StreamFields.of(Fields.ID, Fields.PARTIALS,
                                                                                  Fields.BATCH_KEYS, Fields.RETRY));
        declarer.declareStream(Streams.HELLO, StreamFields.of(Fields.TASK));
        declarer.declareStream(Streams.RESTORE, StreamFields.of(Fields.ID, Fields.QUERY, Fields.START_TIME,
                                                                                  Fields.REPLY_PARTITION, Fields.TASK));
    }
}

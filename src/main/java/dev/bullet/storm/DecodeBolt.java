package dev.bullet.storm;

import dev.bullet.common.Clock;
import dev.bullet.common.Limits;
import dev.bullet.pubsub.Signal;
import dev.bullet.querying.ReplayWait;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The DataSource bolt (SPEC §3.2): decodes each raw message of a batch into a record and forwards the batch
 * (shuffled) to the Filter bolts with its read time. With no query running it decodes nothing: batches are acked
 * and dropped (queries only look forward). A message that is not a JSON object, or is over a record bound
 * ({@link Limits}), is counted, logged once and skipped; the batch is acked all the same, so it is never re-read.
 *
 * <p>A (re)started task says hello to the Join tasks and fails raw batches (the spout sends them again) until each
 * Join task has replayed its running queries, so no batch is dropped for lack of a query it did not know yet.
 */
public class DecodeBolt extends BaseRichBolt {
    private static final Logger LOG = LoggerFactory.getLogger(DecodeBolt.class);

    private static final long serialVersionUID = 1L;
    private static final long[] NO_SPAN = new long[0];
    private final long maxQueryLifetimeMs;
    private final Limits limits;
    private final Clock clock;
    private transient OutputCollector collector;
    private transient RecordDecoder decoder;
    private transient Map<String, Long> activeUntil;
    private transient CountMetric decoded;
    private transient CountMetric malformedCount;
    private transient long lastPurge;
    private transient int taskId;
    private transient ReplayWait replays;

    /** With the default record bounds. */
    public DecodeBolt(long maxQueryLifetimeMs, Clock clock) {
        this(maxQueryLifetimeMs, Limits.defaults(), clock);
    }

    /**
     * @param maxQueryLifetimeMs how long a query is considered running at most, should its COMPLETE get lost
     * @param limits             the record bounds (bytes, depth): a message over one is counted as malformed and skipped
     * @param clock              the time of query lifetimes and of the hello protocol
     */
    public DecodeBolt(long maxQueryLifetimeMs, Limits limits, Clock clock) {
        this.maxQueryLifetimeMs = maxQueryLifetimeMs;
        this.limits = limits;
        this.clock = clock;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = Wakeups.waking(collector);
        this.decoder = new RecordDecoder(limits);
        this.activeUntil = new HashMap<>();
        this.taskId = context.getThisTaskId();
        this.replays = new ReplayWait(context.getComponentTasks(Components.JOIN_BOLT).size());
        BulletMetrics metrics = BulletMetrics.register(conf, context);
        this.decoded = metrics.counter(BulletMetrics.RECORDS_DECODED);
        this.malformedCount = metrics.counter(BulletMetrics.RECORDS_MALFORMED);
    }

    @Override
    public void execute(Tuple tuple) {
        if (replays.helloDue(clock.now())) { // a (re)started task: the Join tasks replay their running queries to it
            collector.emit(Streams.HELLO, new Values(taskId));
        }
        String stream = tuple.getSourceStreamId();
        if (replays.waiting() && Streams.RAW_BATCH.equals(stream)) {
            collector.fail(tuple); // sent again by the spout soon: this task does not know every running query yet
            return;
        }
        if (Streams.REPLAY.equals(stream) && tuple.getValueByField(Fields.ID) == null) {
            replays.ended(tuple.getSourceTask());
        } else if (Streams.QUERY.equals(stream) || Streams.REPLAY.equals(stream)) {
            activeUntil.put(tuple.getStringByField(Fields.ID), clock.now() + maxQueryLifetimeMs);
        } else if (Streams.SIGNAL.equals(stream)) {
            if (Signal.COMPLETE.name().equals(tuple.getStringByField(Fields.SIGNAL))) {
                activeUntil.remove(tuple.getStringByField(Fields.ID));
            }
        } else if (Streams.RAW_BATCH.equals(stream)) {
            decode(tuple);
        } else {
            throw new IllegalStateException("The decode bolt is not wired to stream " + stream + " of "
                                            + tuple.getSourceComponent());
        }
        collector.ack(tuple);
    }

    @SuppressWarnings("unchecked")
    private void decode(Tuple tuple) {
        purgeExpired();
        if (activeUntil.isEmpty()) {
            return;
        }
        List<byte[]> batch = (List<byte[]>) tuple.getValueByField(Fields.BATCH);
        long readTime = tuple.getLongByField(Fields.READ_TIME);
        long[] span = span(tuple);
        boolean retry = tuple.contains(Fields.RETRY) && tuple.getBooleanByField(Fields.RETRY);
        // a batch read again record by record carries each message's offset: kept for the records decoded
        long[] offsets = span.length == 3 + batch.size() ? span : null;
        int kept = 3;
        List<Record> records = new ArrayList<>(batch.size());
        long malformed = 0;
        for (int i = 0, n = batch.size(); i < n; i++) {
            byte[] message = batch.get(i);
            Record record;
            try {
                record = decoder.decode(message);
                if (record == null) {
                    LOG.warn("Skipped message {} of the batch read at {}: {}", i, readTime, decoder.rejection(message));
                }
            } catch (RuntimeException | StackOverflowError e) {
                // a decoder bug must not take the worker down or make the batch be re-read forever: contained
                record = null;
                LOG.error("Skipped message {} of the batch read at {} ({} bytes): decoding failed", i, readTime,
                          message.length, e);
            }
            if (record == null) {
                malformed++;
            } else {
                records.add(record);
                if (offsets != null) {
                    offsets[kept++] = offsets[3 + i];
                }
            }
        }
        decoded.incrBy(records.size());
        if (malformed > 0) {
            malformedCount.incrBy(malformed);
        }
        if (!records.isEmpty()) {
            long[] out = offsets != null ? (kept == offsets.length ? offsets : Arrays.copyOf(offsets, kept))
                    : span.length > 3 ? Arrays.copyOf(span, 3) : span;
            collector.emit(Streams.RECORDS, tuple, new Values(records, readTime, out, retry));
        }
    }

    /**
     * The batch's span as the Filter and Join read it: (source, first offset, last offset), then, for a batch read
     * again record by record, each message's offset. The Kafka spout sends it as a {@code long[]} (the source is the
     * partition); a plug-in spout may send a {@code long} key, whose high half becomes the source (above every
     * partition number) and low half the offset, or nothing (an empty span: such batches cannot be told apart when
     * sent again).
     */
    static long[] span(Tuple tuple) {
        if (!tuple.contains(Fields.BATCH_KEY)) {
            return NO_SPAN;
        }
        Object key = tuple.getValueByField(Fields.BATCH_KEY);
        if (key instanceof long[] span) {
            return span.length > 3 ? span.clone() : span;
        }
        if (key instanceof Long k && k != 0) {
            long low = k & 0xFFFF_FFFFL;
            return new long[] {(1L << 40) | (k >>> 32), low, low};
        }
        return NO_SPAN;
    }

    private void purgeExpired() {
        long now = clock.now();
        if (now - lastPurge < 1000) {
            return;
        }
        lastPurge = now;
        activeUntil.values().removeIf(until -> until < now);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declareStream(Streams.RECORDS, StreamFields.of(Fields.RECORDS, Fields.READ_TIME,
                                                                                  Fields.BATCH_KEY, Fields.RETRY));
        declarer.declareStream(Streams.HELLO, StreamFields.of(Fields.TASK));
    }
}

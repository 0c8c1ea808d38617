package dev.bullet.storm;

import dev.bullet.ingest.KafkaBatchReader;
import dev.bullet.ingest.KafkaSpoutConfig;
import dev.bullet.storm.TopologyNames.Fields;
import dev.bullet.storm.TopologyNames.Streams;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.storm.Config;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DataSource spout (SPEC §3.1), head of the topology: reads the Kafka firehose topic and emits, per
 * {@code nextTuple}, at most one tuple on {@link Streams#RAW_BATCH} with {@link Fields#BATCH} (a
 * {@code List<byte[]>} of at most the batch size raw message values, never empty) and {@link Fields#READ_TIME}
 * (ms when the oldest of them was polled). Every tuple is anchored with the batch's id, so
 * {@code topology.max.spout.pending} counts batches.
 *
 * <p>Exactly once at the Join: a batch is one partition's records, and its key ({@link Fields#BATCH_KEY}) is its
 * place in Kafka, (partition, first offset, last offset), the same whichever spout instance reads it, so the Join
 * recognises a batch it merged already. A batch's offsets are committed only after Storm acks it; a failed or
 * timed-out batch is emitted again, the same records with the same key, from memory (the batches in flight are at
 * most {@code topology.max.spout.pending}), flagged {@link Fields#RETRY}. A spout task that restarts, or takes a
 * partition over in a rebalance, reads again from the last committed offset; the records up to where the previous
 * reader may have handed records out (recorded in the commit, see {@code KafkaBatchReader}) are sent flagged, with
 * each record's offset, and the Join drops those it merged already. All spout tasks share one consumer group, which
 * spreads the partitions over them; on a rebalance, the acked offsets of revoked partitions are committed and their
 * in-flight batches forgotten. See {@link KafkaBatchReader}, which holds the Kafka logic, and
 * {@code dev.bullet.ingest.OffsetTracker}.
 *
 * <p>Kafka errors never kill the worker: they are logged with context (at most every
 * {@value #ERROR_LOG_INTERVAL_MS} ms) and the read is retried on the next {@code nextTuple}.
 */
public final class KafkaBatchSpout extends BaseRichSpout {
    private static final long serialVersionUID = 1L;
    static final long ERROR_LOG_INTERVAL_MS = 10_000;
    /** How often the spout tells the Join tasks what it has in flight. */
    static final long REPORT_INTERVAL_MS = 100;
    private static final Logger LOG = LoggerFactory.getLogger(KafkaBatchSpout.class);

    private final KafkaSpoutConfig config;
    private transient SpoutOutputCollector collector;
    private transient KafkaBatchReader reader;
    private transient String clientId;
    private transient long lastErrorLogMs;
    private transient long suppressedErrors;
    /** Batch id → the tuple emitted for it, until acked. */
    private transient Map<Long, Values> inFlight;
    /** Batch id → when it was (last) emitted, until acked. */
    private transient Map<Long, Long> emittedAt;
    /** How long a short batch waits to fill, from the acks' latency. */
    private transient SpoutLinger linger;
    private transient ArrayDeque<Long> retries;
    private transient int taskId;
    /** Drawn at open: the Join tells a restarted task (whose batches in flight were lost) by it. */
    private transient long instance;
    private transient long lastReport;

    public KafkaBatchSpout(KafkaSpoutConfig config) {
        this.config = config;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = Wakeups.waking(collector);
        this.clientId = config.groupId() + "-" + context.getThisComponentId() + "-" + context.getThisTaskId();
        this.lastErrorLogMs = Long.MIN_VALUE;
        this.inFlight = new HashMap<>();
        this.retries = new ArrayDeque<>();
        this.taskId = context.getThisTaskId();
        this.instance = ThreadLocalRandom.current().nextLong();
        this.lastReport = Long.MIN_VALUE / 2;
        Object pending = conf.get(Config.TOPOLOGY_MAX_SPOUT_PENDING);
        this.emittedAt = new HashMap<>();
        this.linger = new SpoutLinger(pending instanceof Number n ? n.longValue() : 0); // 0: no bound
        openReader();
    }

    private boolean openReader() {
        try {
            reader = KafkaBatchReader.open(config, clientId, Time::currentTimeMillis);
            return true;
        } catch (InterruptException | WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            logError("cannot create the Kafka consumer", e);
            return false;
        }
    }

    @Override
    public void nextTuple() {
        report();
        if (reader == null && !openReader()) {
            return;
        }
        Long retry = retries.poll();
        if (retry != null) {
            Values values = inFlight.get(retry);
            if (values != null) {
                // the same records and key, flagged: the Join drops what it already merged of this batch
                collector.emit(Streams.RAW_BATCH, new Values(values.get(0), values.get(1), values.get(2), true), retry);
                emittedAt.put(retry, Time.currentTimeMillis());
                return;
            }
        }
        KafkaBatchReader.Batch batch;
        try {
            batch = reader.next(linger.lingerMs(inFlight.size()));
        } catch (InterruptException | WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            logError("cannot read", e);
            return;
        }
        if (batch != null) {
            Values values = new Values(batch.values(), batch.readTimeMs(), span(batch), batch.isReread());
            inFlight.put(batch.id(), values);
            collector.emit(Streams.RAW_BATCH, values, batch.id());
            emittedAt.put(batch.id(), Time.currentTimeMillis());
        }
    }

    /**
     * Tells the Join tasks, every {@value #REPORT_INTERVAL_MS} ms, the read times of the batches in flight: a query's
     * final result waits until none read before its end is (see {@code ReadWatermarks}).
     */
    private void report() {
        long now = Time.currentTimeMillis();
        if (now - lastReport < REPORT_INTERVAL_MS) {
            return;
        }
        lastReport = now;
        long[] pending = new long[inFlight.size()];
        int i = 0;
        for (Values values : inFlight.values()) {
            pending[i++] = (Long) values.get(1);
        }
        collector.emit(Streams.READS, new Values(taskId, instance, now, pending));
    }

    /**
     * A batch's place in Kafka, the same whichever reader reads it: (partition, first offset, last offset), then, for
     * a batch read again after its partition changed reader, each value's offset (see {@code KafkaBatchReader}).
     */
    static long[] span(KafkaBatchReader.Batch batch) {
        long[] offsets = batch.offsets();
        long[] span = new long[3 + (offsets == null ? 0 : offsets.length)];
        span[0] = batch.partition();
        span[1] = batch.firstOffset();
        span[2] = batch.lastOffset();
        if (offsets != null) {
            System.arraycopy(offsets, 0, span, 3, offsets.length);
        }
        return span;
    }

    @Override
    public void ack(Object msgId) {
        inFlight.remove(msgId);
        Long emitted = emittedAt.remove(msgId);
        if (emitted != null) {
            linger.acked(emitted, Time.currentTimeMillis());
        }
        report(); // also while max.spout.pending holds nextTuple back
        if (reader != null) {
            reader.ack((Long) msgId);
        }
    }

    @Override
    public void fail(Object msgId) {
        long id = (Long) msgId;
        if (reader != null && reader.isPending(id) && inFlight.containsKey(id)) {
            retries.add(id); // emitted again on the next nextTuple
        } else {
            inFlight.remove(id); // its partitions went to another reader, which reads them from the last commit
            emittedAt.remove(id);
        }
    }

    @Override
    public void deactivate() {
        if (reader == null) {
            return;
        }
        try {
            reader.commitSync();
        } catch (InterruptException | WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            logError("cannot commit acked offsets on deactivation", e);
        }
    }

    /** What a killed worker leaves: the consumer gone, nothing committed beyond what was (for tests). */
    void abandon() {
        if (reader != null) {
            reader.abandon();
            reader = null;
        }
    }

    @Override
    public void close() {
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declareStream(Streams.RAW_BATCH, StreamFields.of(Fields.BATCH, Fields.READ_TIME,
                                                                                    Fields.BATCH_KEY, Fields.RETRY));
        declarer.declareStream(Streams.READS, StreamFields.of(Fields.TASK, Fields.INSTANCE, Fields.TIME, Fields.PENDING));
    }

    private void logError(String what, KafkaException e) {
        long now = Time.currentTimeMillis();
        if (lastErrorLogMs != Long.MIN_VALUE && now - lastErrorLogMs < ERROR_LOG_INTERVAL_MS) {
            suppressedErrors++;
            return;
        }
        LOG.error("Kafka spout {} {} from topic {} at {} ({} similar errors not logged since the last one);"
            + " retrying", clientId, what, config.topic(), config.bootstrapServers(), suppressedErrors, e);
        lastErrorLogMs = now;
        suppressedErrors = 0;
    }
}

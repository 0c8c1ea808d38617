package dev.bullet.storm;

import dev.bullet.common.Clock;
import dev.bullet.common.Limits;
import dev.bullet.pubsub.Signal;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The DataSource bolt (SPEC §3.2): decodes each raw message of a batch into a record and forwards the batch
 * (shuffled) to the Filter bolts with its read time. With no query running it decodes nothing: batches are acked
 * and dropped (queries only look forward). A message that is not a JSON object, or is over a record bound
 * ({@link Limits}), is counted, logged once and skipped; the batch is acked all the same, so it is never re-read.
 */
public class DecodeBolt extends BaseRichBolt {
    private static final Logger LOG = LoggerFactory.getLogger(DecodeBolt.class);

    private final long maxQueryLifetimeMs;
    private transient OutputCollector collector;
    private transient RecordDecoder decoder;
    private transient Map<String, Long> activeUntil;
    private transient CountMetric decoded;
    private transient CountMetric malformedCount;
    private transient long lastPurge;
    private transient Clock clock;

    /** @param maxQueryLifetimeMs how long a query is considered running at most, should its COMPLETE get lost */
    private final Limits limits;

    public DecodeBolt(long maxQueryLifetimeMs) {
        this(maxQueryLifetimeMs, Limits.defaults());
    }

    /** @param limits the record bounds (bytes, depth): a message over one is counted as malformed and skipped */
    public DecodeBolt(long maxQueryLifetimeMs, Limits limits) {
        this.maxQueryLifetimeMs = maxQueryLifetimeMs;
        this.limits = limits;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.decoder = new RecordDecoder(limits);
        this.clock = Clock.SYSTEM;
        this.activeUntil = new HashMap<>();
        BulletMetrics metrics = BulletMetrics.register(conf, context);
        this.decoded = metrics.counter(BulletMetrics.RECORDS_DECODED);
        this.malformedCount = metrics.counter(BulletMetrics.RECORDS_MALFORMED);
    }

    @Override
    public void execute(Tuple tuple) {
        String stream = tuple.getSourceStreamId();
        if (Streams.QUERY.equals(stream)) {
            activeUntil.put(tuple.getStringByField(Fields.ID), clock.now() + maxQueryLifetimeMs);
        } else if (Streams.SIGNAL.equals(stream)) {
            if (Signal.COMPLETE.name().equals(tuple.getStringByField(Fields.SIGNAL))) {
                activeUntil.remove(tuple.getStringByField(Fields.ID));
            }
        } else {
            decode(tuple);
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
            }
        }
        decoded.incrBy(records.size());
        if (malformed > 0) {
            malformedCount.incrBy(malformed);
        }
        if (!records.isEmpty()) {
            collector.emit(Streams.RECORDS, tuple, new Values(records, readTime));
        }
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
        declarer.declareStream(Streams.RECORDS, new org.apache.storm.tuple.Fields(Fields.RECORDS, Fields.READ_TIME));
    }
}

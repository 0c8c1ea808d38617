package dev.bullet.storm;

import dev.bullet.common.Clock;
import dev.bullet.pubsub.Signal;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.JoinEngine;
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
import java.util.List;
import java.util.Map;

/**
 * The Join bolt (SPEC §3.5): a thin adapter over {@link JoinEngine}. Owns queries by id; emits every result to
 * the Result bolt and, with each final result (or a KILL), a COMPLETE signal that every Filter task and the
 * decode bolt receive.
 */
public class JoinBolt extends BaseRichBolt {
    private static final Logger LOG = LoggerFactory.getLogger(JoinBolt.class);

    private final QuerySettings settings;
    private final long finalGraceMs;
    private transient OutputCollector collector;
    private transient JoinEngine engine;
    private transient List<JoinEngine.Emitted> out;
    private transient Clock clock;
    private transient CountMetric created;
    private transient CountMetric improper;
    private transient CountMetric rateExceeded;
    private transient long[] counted;

    public JoinBolt(QuerySettings settings, long finalGraceMs) {
        this.settings = settings;
        this.finalGraceMs = finalGraceMs;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        int filterTasks = Math.max(1, context.getComponentTasks(Components.FILTER_BOLT).size());
        this.engine = new JoinEngine(settings, filterTasks, finalGraceMs);
        this.out = new ArrayList<>();
        this.clock = Clock.SYSTEM;
        BulletMetrics metrics = BulletMetrics.register(conf, context);
        metrics.gauge(BulletMetrics.ACTIVE_QUERIES, engine::size);
        this.created = metrics.counter(BulletMetrics.CREATED_QUERIES);
        this.improper = metrics.counter(BulletMetrics.IMPROPER_QUERIES);
        this.rateExceeded = metrics.counter(BulletMetrics.RATE_EXCEEDED_QUERIES);
        this.counted = new long[3];
    }

    private void countQueries() {
        long[] now = {engine.createdQueries(), engine.improperQueries(), engine.rateExceededQueries()};
        created.incrBy(now[0] - counted[0]);
        improper.incrBy(now[1] - counted[1]);
        rateExceeded.incrBy(now[2] - counted[2]);
        counted = now;
    }

    @Override
    public void execute(Tuple tuple) {
        try {
            handle(tuple);
        } catch (RuntimeException | StackOverflowError e) {
            // contained to this tuple (issue 11): a bug here must not kill the worker; logged, the tuple acked
            out.clear();
            LOG.error("Failed to handle a tuple of stream {} from {}; skipped", tuple.getSourceStreamId(),
                      tuple.getSourceComponent(), e);
            collector.ack(tuple);
        }
    }

    private void handle(Tuple tuple) {
        String id;
        switch (tuple.getSourceStreamId()) {
            case Streams.QUERY:
                id = tuple.getStringByField(Fields.ID);
                JoinEngine.Emitted error = engine.add(id, tuple.getStringByField(Fields.QUERY),
                                                      tuple.getLongByField(Fields.START_TIME),
                                                      tuple.getIntegerByField(Fields.REPLY_PARTITION));
                if (error != null) {
                    out.add(error);
                }
                break;
            case Streams.SIGNAL:
                id = tuple.getStringByField(Fields.ID);
                if (Signal.KILL.name().equals(tuple.getStringByField(Fields.SIGNAL)) && engine.kill(id)) {
                    collector.emit(Streams.SIGNAL, new Values(id, Signal.COMPLETE.name()));
                }
                break;
            case Streams.PARTIAL:
                engine.combine(tuple.getStringByField(Fields.ID), tuple.getBinaryByField(Fields.PARTIAL),
                               tuple.getBooleanByField(Fields.LAST), clock.now(), out);
                break;
            default:
                engine.tick(clock.now(), out);
                break;
        }
        for (JoinEngine.Emitted e : out) {
            boolean last = e.result().isFinal();
            collector.emit(Streams.RESULT, new Values(e.id(), e.result().toJson(), e.replyPartition(), last));
            if (last) {
                collector.emit(Streams.SIGNAL, new Values(e.id(), Signal.COMPLETE.name()));
            }
        }
        out.clear();
        countQueries();
        collector.ack(tuple);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declareStream(Streams.RESULT, new org.apache.storm.tuple.Fields(Fields.ID, Fields.RESULT,
                                                                                 Fields.REPLY_PARTITION, Fields.FINAL));
        declarer.declareStream(Streams.SIGNAL, new org.apache.storm.tuple.Fields(Fields.ID, Fields.SIGNAL));
    }
}

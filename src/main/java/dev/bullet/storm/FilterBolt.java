package dev.bullet.storm;

import dev.bullet.common.Clock;
import dev.bullet.metrics.LatencyHistogram;
import dev.bullet.pubsub.Signal;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.FilterEngine;
import dev.bullet.record.Record;
import dev.bullet.storm.TopologyNames.Fields;
import dev.bullet.storm.TopologyNames.Streams;
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
 * The Filter bolt (SPEC §3.4): a thin adapter over {@link FilterEngine}. Queries arrive on every task (all
 * grouping), record batches are shuffled in, partials go to the query's Join task (fields grouping on id).
 * COMPLETE signals from the Join make every task drop the query.
 */
public class FilterBolt extends BaseRichBolt {
    private static final Logger LOG = LoggerFactory.getLogger(FilterBolt.class);

    private final QuerySettings settings;
    private transient OutputCollector collector;
    private transient FilterEngine engine;
    private transient List<FilterEngine.Partial> out;
    private transient Clock clock;
    private transient LatencyHistogram latency;

    public FilterBolt(QuerySettings settings) {
        this.settings = settings;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.engine = new FilterEngine(settings);
        this.out = new ArrayList<>();
        this.clock = Clock.SYSTEM;
        BulletMetrics metrics = BulletMetrics.register(conf, context);
        metrics.gauge(BulletMetrics.ACTIVE_QUERIES, engine::size);
        this.latency = metrics.latency(BulletMetrics.FILTER_LATENCY);
    }

    @Override
    public void execute(Tuple tuple) {
        try {
            handle(tuple);
        } catch (RuntimeException | StackOverflowError e) {
            // contained to this tuple (issue 11): a bug here must not kill the worker nor make Kafka re-read the
            // batch forever; it is logged and the tuple acked
            out.clear();
            LOG.error("Failed to handle a tuple of stream {} from {}; skipped", tuple.getSourceStreamId(),
                      tuple.getSourceComponent(), e);
            collector.ack(tuple);
        }
    }

    @SuppressWarnings("unchecked")
    private void handle(Tuple tuple) {
        switch (tuple.getSourceStreamId()) {
            case Streams.QUERY:
                engine.add(tuple.getStringByField(Fields.ID), tuple.getStringByField(Fields.QUERY),
                           tuple.getLongByField(Fields.START_TIME));
                break;
            case Streams.SIGNAL:
                if (Signal.COMPLETE.name().equals(tuple.getStringByField(Fields.SIGNAL))) {
                    engine.remove(tuple.getStringByField(Fields.ID));
                }
                break;
            case Streams.TICK:
                engine.tick(clock.now(), out);
                break;
            default: {
                List<Record> records = (List<Record>) tuple.getValueByField(Fields.RECORDS);
                engine.consume(records, clock.now(), out);
                if (latency != null) {
                    latency.record(clock.now() - tuple.getLongByField(Fields.READ_TIME), records.size());
                }
                break;
            }
        }
        for (FilterEngine.Partial p : out) {
            collector.emit(Streams.PARTIAL, new Values(p.id(), p.data(), p.last()));
        }
        out.clear();
        collector.ack(tuple);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declareStream(Streams.PARTIAL, new org.apache.storm.tuple.Fields(Fields.ID, Fields.PARTIAL, Fields.LAST));
    }
}

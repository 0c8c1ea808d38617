package dev.bullet.storm;

import dev.bullet.pubsub.PubSubFactory;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.Signal;
import dev.bullet.storm.TopologyNames.Fields;
import org.apache.storm.metric.api.CountMetric;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/** The Result bolt (SPEC §3.6): publishes each result to the PubSub, COMPLETE on a query's final result. */
public class ResultBolt extends BaseRichBolt {
    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(ResultBolt.class);

    private final PubSubFactory pubSub;
    private transient OutputCollector collector;
    private transient Publisher publisher;
    private transient CountMetric dropped;

    public ResultBolt(PubSubFactory pubSub) {
        this.pubSub = pubSub;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = Wakeups.waking(collector);
        this.publisher = pubSub.responsePublisher();
        this.dropped = BulletMetrics.register(conf, context).counter(BulletMetrics.RESULTS_DROPPED);
    }

    @Override
    public void execute(Tuple tuple) {
        String id = tuple.getStringByField(Fields.ID);
        boolean last = tuple.getBooleanByField(Fields.FINAL);
        try {
            publisher.send(new PubSubMessage(id, tuple.getStringByField(Fields.RESULT), last ? Signal.COMPLETE : null,
                                             tuple.getIntegerByField(Fields.REPLY_PARTITION)));
        } catch (RuntimeException e) {
            dropped.incr();
            LOG.error("Could not publish a result of query {} (dropped; counted in {})", id, BulletMetrics.RESULTS_DROPPED, e);
        }
        collector.ack(tuple);
    }

    @Override
    public void cleanup() {
        if (publisher != null) {
            publisher.close();
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
    }
}

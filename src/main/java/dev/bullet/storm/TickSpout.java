package dev.bullet.storm;

import dev.bullet.common.Clock;
import dev.bullet.storm.TopologyNames.Fields;
import dev.bullet.storm.TopologyNames.Streams;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Values;

import java.util.Map;

/**
 * The tick source (SPEC §3.6): a clock tuple every {@code intervalMs} (≤ 100 ms by default) that reaches every
 * Filter and Join task, so windows and durations close on time even when no data flows. Storm's own tick tuples
 * are whole seconds, hence a spout.
 */
public class TickSpout extends BaseRichSpout {
    private static final long serialVersionUID = 1L;

    private final long intervalMs;
    private final Clock clock;
    private transient SpoutOutputCollector collector;
    private transient long next;

    public TickSpout(long intervalMs, Clock clock) {
        this.intervalMs = intervalMs;
        this.clock = clock;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
    }

    @Override
    public void nextTuple() {
        long now = clock.now();
        if (now >= next) {
            collector.emit(Streams.TICK, new Values(now));
            next = now + intervalMs;
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declareStream(Streams.TICK, new org.apache.storm.tuple.Fields(Fields.TIME));
    }
}

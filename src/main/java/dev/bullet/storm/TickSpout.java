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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

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
        this.collector = Wakeups.waking(collector);
    }

    /**
     * Emits a tick when one is due; otherwise waits here until it is (at most one interval), so an idle spout wakes
     * about once per tick rather than at every short park of Storm's spout wait strategy. Ticks are not anchored:
     * the spout has no acks to take while it waits.
     */
    @Override
    public void nextTuple() {
        long now = clock.now();
        if (now < next) {
            waitNanos(TimeUnit.MILLISECONDS.toNanos(Math.min(next - now, intervalMs)));
            now = clock.now();
        }
        if (now >= next) {
            collector.emit(Streams.TICK, new Values(now));
            next = now + intervalMs;
        }
    }

    /** Parks this long (through spurious wake-ups), or until interrupted: Storm interrupts an executor to stop it. */
    private static void waitNanos(long nanos) {
        long until = System.nanoTime() + nanos;
        for (long left = nanos; left > 0 && !Thread.currentThread().isInterrupted(); left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declareStream(Streams.TICK, StreamFields.of(Fields.TIME));
    }
}

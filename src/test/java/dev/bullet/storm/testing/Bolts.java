package dev.bullet.storm.testing;

import com.codahale.metrics.Counter;
import dev.bullet.storm.DecodeBolt;
import dev.bullet.storm.FilterBolt;
import dev.bullet.storm.JoinBolt;
import dev.bullet.storm.TopologyNames.Components;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.metric.api.IMetric;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.task.IBolt;
import org.apache.storm.task.TopologyContext;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Prepares a bolt for a test that drives it directly: a {@link TopologyContext} that knows the tasks of every
 * component (so {@code getComponentTasks} works), the output fields of every stream, and accepts metric
 * counter registrations the test can read back through {@link Prepared#counter}.
 */
public final class Bolts {
    /** The task id the prepared bolt runs as. */
    public static final int TASK = 7;

    private Bolts() {
    }

    /** What a prepared bolt got: its context, which keeps every metric the bolt registered by plain name. */
    public record Prepared(RecordingContext context) {
        /** Whether the bolt registered a metric (or counter) under {@code name}. */
        public boolean registered(String name) {
            return context.metrics.containsKey(name) || context.counters.containsKey(name);
        }

        /**
         * The total of the counter the bolt registered under {@code name} (a v1 {@code CountMetric} or a
         * metrics-core {@code Counter}); fails when it registered none.
         */
        public long count(String name) {
            Counter counter = context.counters.get(name);
            if (counter != null) {
                return counter.getCount();
            }
            IMetric metric = context.metrics.get(name);
            if (metric == null) {
                throw new AssertionError("no metric " + name + " registered; have " + context.metrics.keySet()
                                         + " " + context.counters.keySet());
            }
            Object delta = metric.getValueAndReset(); // v1 metrics reset on read: keep the running total here
            return context.totals.merge(name, delta == null ? 0L : ((Number) delta).longValue(), Long::sum);
        }
    }

    /**
     * A {@link TopologyContext} that keeps the metrics a bolt registers ({@code registerMetric} and
     * {@code registerCounter}) by their plain names instead of reporting them (which needs a running worker).
     */
    public static final class RecordingContext extends TopologyContext {
        private final Map<String, IMetric> metrics = new ConcurrentHashMap<>();
        private final Map<String, Counter> counters = new ConcurrentHashMap<>();
        private final Map<String, Long> totals = new ConcurrentHashMap<>();

        RecordingContext(Map<String, Object> topoConf, Map<Integer, String> taskToComponent,
                         Map<String, List<Integer>> componentToTasks) {
            super(new StormTopology(), topoConf, taskToComponent, componentToTasks, Tuples.componentToStreamToFields(),
                  new HashMap<>(), "test-topology", null, null, TASK, 6700, List.of(TASK), new HashMap<>(),
                  new HashMap<>(), new HashMap<>(), new HashMap<>(), new AtomicBoolean(false), new StormMetricRegistry());
        }

        @Override
        @SuppressWarnings("deprecation") // the bolts use the v1 API on purpose (see BulletMetrics)
        public <T extends IMetric> T registerMetric(String name, T metric, int timeBucketSizeInSecs) {
            if (metrics.putIfAbsent(name, metric) != null) {
                throw new IllegalStateException("metric " + name + " registered twice");
            }
            return metric;
        }

        @Override
        public Counter registerCounter(String name) {
            return counters.computeIfAbsent(name, n -> new Counter());
        }
    }

    /** Prepares {@code bolt} as task {@link #TASK} of its own component, with one task for every topology component. */
    public static Prepared prepare(IBolt bolt, RecordingOutputCollector collector, Map<String, Object> conf) {
        return prepare(bolt, collector, conf, 1);
    }

    /** Same, with {@code filterTasks} Filter bolt tasks (what the Join bolt counts its partitions by). */
    public static Prepared prepare(IBolt bolt, RecordingOutputCollector collector, Map<String, Object> conf,
                                   int filterTasks) {
        return prepare(bolt, collector, conf, filterTasks, 1, true);
    }

    /** Same, with {@code joinTasks} Join bolt tasks (what the Filter bolt splits its partials by). */
    public static Prepared prepareWithJoinTasks(IBolt bolt, RecordingOutputCollector collector, Map<String, Object> conf,
                                                int joinTasks) {
        return prepare(bolt, collector, conf, 1, joinTasks, true);
    }

    /**
     * A task as it (re)starts on a worker: prepared, nothing executed yet (so its hello and its wait for the Join
     * tasks' replays are still ahead).
     */
    public static Prepared prepareRestarted(IBolt bolt, RecordingOutputCollector collector, Map<String, Object> conf) {
        return prepare(bolt, collector, conf, 1, 1, false);
    }

    private static Prepared prepare(IBolt bolt, RecordingOutputCollector collector, Map<String, Object> conf,
                                    int filterTasks, int joinTasks, boolean started) {
        Map<Integer, String> taskToComponent = new HashMap<>();
        Map<String, List<Integer>> componentToTasks = new HashMap<>();
        int next = 1000;
        for (String component : Tuples.componentToStreamToFields().keySet()) {
            int count = component.equals(Components.FILTER_BOLT) ? filterTasks
                : component.equals(Components.JOIN_BOLT) ? joinTasks : 1;
            List<Integer> tasks = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                tasks.add(next);
                taskToComponent.put(next++, component);
            }
            componentToTasks.put(component, tasks);
        }
        String self = "bolt-under-test";
        taskToComponent.put(TASK, self);
        componentToTasks.put(self, List.of(TASK));
        Map<String, Object> topoConf = new HashMap<>(conf);
        RecordingContext context = new RecordingContext(topoConf, taskToComponent, componentToTasks);
        bolt.prepare(topoConf, context, collector.collector());
        if (!started) {
            return new Prepared(context);
        }
        if (bolt instanceof FilterBolt || bolt instanceof DecodeBolt) {
            // a started task says hello and waits for the Join tasks' replays of running queries: none are running
            for (int i = 0; i < componentToTasks.get(Components.JOIN_BOLT).size(); i++) {
                bolt.execute(Tuples.replayEndFrom(i));
            }
            collector.reset();
        } else if (bolt instanceof JoinBolt) {
            bolt.execute(Tuples.tick(0)); // its hello to the Filter tasks, on its first tuple
            bolt.execute(Tuples.storeReplay(1L, true)); // the query spout replayed the query store before
            collector.reset();
        }
        return new Prepared(context);
    }
}

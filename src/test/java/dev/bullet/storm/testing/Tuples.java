package dev.bullet.storm.testing;

import dev.bullet.common.Clock;
import dev.bullet.pubsub.Signal;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.storm.DecodeBolt;
import dev.bullet.storm.FilterBolt;
import dev.bullet.storm.JoinBolt;
import dev.bullet.storm.KafkaBatchSpout;
import dev.bullet.storm.QuerySpout;
import dev.bullet.storm.ResultBolt;
import dev.bullet.storm.TickSpout;
import dev.bullet.storm.TopologyNames.Components;
import dev.bullet.storm.TopologyNames.Streams;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.StreamInfo;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.topology.IComponent;
import org.apache.storm.topology.OutputFieldsGetter;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Real {@link TupleImpl}s as the topology's components emit them, for tests that call a bolt's {@code execute}.
 * The output fields of every (component, stream) are taken from the real components' {@code declareOutputFields},
 * so a tuple built here has exactly the fields the bolt reads by name; a wrong value count fails at once.
 */
public final class Tuples {
    /** Filter tasks that tuples can come from ({@link #partialFrom}). */
    public static final int FILTER_TASKS = 4;
    /** Join tasks that tuples can come from ({@link #replayEndFrom}). */
    public static final int JOIN_TASKS = 4;
    private static final Map<String, Map<String, Fields>> FIELDS = declaredFields();
    private static final GeneralTopologyContext CONTEXT = context();

    private Tuples() {
    }

    /** A tuple from {@code component} on {@code stream} with {@code values} in declared field order. */
    public static Tuple of(String component, String stream, Object... values) {
        // TupleImpl finds the fields through the source task's component, so each component has its own task
        List<Integer> tasks = CONTEXT.getComponentTasks(component);
        if (tasks.isEmpty()) {
            throw new IllegalArgumentException("no component " + component);
        }
        return new TupleImpl(CONTEXT, new ArrayList<>(Arrays.asList(values)), component, tasks.get(0), stream);
    }

    /** Output fields of every component and stream of the topology (what {@link Bolts} puts in its contexts). */
    public static Map<String, Map<String, Fields>> componentToStreamToFields() {
        Map<String, Map<String, Fields>> copy = new HashMap<>();
        FIELDS.forEach((c, s) -> copy.put(c, new HashMap<>(s)));
        return copy;
    }

    // ------------------------------------------------------------------ the topology's tuples, by name

    /** A raw batch from the DataSource spout: each message as UTF-8 bytes. */
    public static Tuple rawBatch(long readTime, String... messages) {
        List<byte[]> batch = new ArrayList<>();
        for (String m : messages) {
            batch.add(m.getBytes(StandardCharsets.UTF_8));
        }
        return of(Components.DATASOURCE_SPOUT, Streams.RAW_BATCH, batch, readTime, 1L + readTime, false);
    }

    /** A batch of decoded records from the decode bolt. */
    public static Tuple records(long readTime, Record... records) {
        return of(Components.DATASOURCE_BOLT, Streams.RECORDS, new ArrayList<>(Arrays.asList(records)), readTime,
                  1L + readTime, false);
    }

    /** A batch of records sent again after a failure, with its batch key. */
    public static Tuple retriedRecords(long key, Record... records) {
        return of(Components.DATASOURCE_BOLT, Streams.RECORDS, new ArrayList<>(Arrays.asList(records)), 0L, key, true);
    }

    /** A new query from the query spout. */
    public static Tuple query(String id, String json, long startTime, int replyPartition) {
        return of(Components.QUERY_SPOUT, Streams.QUERY, id, json, startTime, replyPartition, -1L);
    }

    /** A query the query spout of a new topology took up from the query store at {@code restartedAt}. */
    public static Tuple resumedQuery(String id, String json, long startTime, int replyPartition, long restartedAt) {
        return of(Components.QUERY_SPOUT, Streams.QUERY, id, json, startTime, replyPartition, restartedAt);
    }

    /** A signal (KILL) from the query spout. */
    public static Tuple querySignal(String id, Signal signal) {
        return of(Components.QUERY_SPOUT, Streams.SIGNAL, id, signal.name());
    }

    /** A signal (COMPLETE) from the Join bolt. */
    public static Tuple joinSignal(String id, Signal signal) {
        return of(Components.JOIN_BOLT, Streams.SIGNAL, id, signal.name());
    }

    /** A partial from a Filter task. */
    public static Tuple partial(String id, byte[] data, boolean last) {
        return of(Components.FILTER_BOLT, Streams.PARTIAL, id, partials(id, data, last), new long[0], false);
    }

    /** A partial covering the batches {@code keys}; {@code retry}: one batch sent again after a failure. */
    public static Tuple partial(String id, byte[] data, long[] keys, boolean retry) {
        return of(Components.FILTER_BOLT, Streams.PARTIAL, id, partials(id, data, false), keys, retry);
    }

    /** A partial from Filter task number {@code filterTask} (0 to {@value #FILTER_TASKS} - 1). */
    public static Tuple partialFrom(int filterTask, String id, byte[] data, boolean last) {
        int task = CONTEXT.getComponentTasks(Components.FILTER_BOLT).get(filterTask);
        return new TupleImpl(CONTEXT, new ArrayList<>(Arrays.asList(id, partials(id, data, last), new long[0], false)),
                             Components.FILTER_BOLT, task, Streams.PARTIAL);
    }

    /**
     * Several partials in one tuple, as a Filter task sends those of one emit: {@code (id, data, last)} triples,
     * flat ({@code Fields.PARTIALS}).
     */
    public static Tuple partials(long[] keys, boolean retry, Object... triples) {
        return of(Components.FILTER_BOLT, Streams.PARTIAL, triples[0], new ArrayList<>(Arrays.asList(triples)), keys, retry);
    }

    private static List<Object> partials(String id, byte[] data, boolean last) {
        return new ArrayList<>(Arrays.asList(id, data, last));
    }

    /** The end of the replay of Join task number {@code joinTask} (0 to {@value #JOIN_TASKS} - 1). */
    public static Tuple replayEndFrom(int joinTask) {
        int task = CONTEXT.getComponentTasks(Components.JOIN_BOLT).get(joinTask);
        return new TupleImpl(CONTEXT, new ArrayList<>(Arrays.asList(null, null, 0L, -1)), Components.JOIN_BOLT, task,
                             Streams.REPLAY);
    }

    /** The end of a Join task's replay of running queries (an answer to a task's hello). */
    public static Tuple replayEnd() {
        return of(Components.JOIN_BOLT, Streams.REPLAY, null, null, 0L, -1);
    }

    /** A running query replayed by the Join to a (re)started task. */
    public static Tuple replay(String id, String json, long startTime, int replyPartition) {
        return of(Components.JOIN_BOLT, Streams.REPLAY, id, json, startTime, replyPartition);
    }

    /** A hello from a (re)started task of {@code component} (Filter or decode → Join, Join → Filter). */
    public static Tuple hello(String component, int task) {
        return of(component, Streams.HELLO, task);
    }

    /** A running query a Filter task hands back to the restarted Join task {@code joinTask}. */
    public static Tuple restore(String id, String json, long startTime, int replyPartition, int joinTask) {
        return of(Components.FILTER_BOLT, Streams.RESTORE, id, json, startTime, replyPartition, joinTask);
    }

    /** A result from the Join bolt, named by its delivery id. */
    public static Tuple result(String id, String json, int replyPartition, boolean last, String delivery) {
        return of(Components.JOIN_BOLT, Streams.RESULT, id, json, replyPartition, last, delivery);
    }

    /** The Result bolt's confirmation that Kafka has a result. */
    public static Tuple confirm(String id, String delivery) {
        return of(Components.RESULT_BOLT, Streams.CONFIRM, id, delivery);
    }

    /** The query spout's report of its replay of the query store (its task started at {@code instance}). */
    public static Tuple storeReplay(long instance, boolean done) {
        return of(Components.QUERY_SPOUT, Streams.STORE_REPLAY, instance, done);
    }

        /** A tick from the tick spout. */
    public static Tuple tick(long time) {
        return of(Components.TICK_SPOUT, Streams.TICK, time);
    }

    private static Map<String, Map<String, Fields>> declaredFields() {
        QuerySettings settings = QuerySettings.defaults();
        Map<String, IComponent> components = new LinkedHashMap<>();
        components.put(Components.DATASOURCE_SPOUT, new KafkaBatchSpout(null));
        components.put(Components.QUERY_SPOUT, new QuerySpout(null, Clock.SYSTEM));
        components.put(Components.TICK_SPOUT, new TickSpout(100, Clock.SYSTEM));
        components.put(Components.DATASOURCE_BOLT, new DecodeBolt(60_000, Clock.SYSTEM));
        components.put(Components.FILTER_BOLT, new FilterBolt(settings, Clock.SYSTEM));
        components.put(Components.JOIN_BOLT, new JoinBolt(settings, 0, Clock.SYSTEM));
        components.put(Components.RESULT_BOLT, new ResultBolt(null));
        Map<String, Map<String, Fields>> out = new HashMap<>();
        components.forEach((id, component) -> {
            OutputFieldsGetter getter = new OutputFieldsGetter();
            component.declareOutputFields(getter);
            Map<String, Fields> streams = new HashMap<>();
            for (Map.Entry<String, StreamInfo> e : getter.getFieldsDeclaration().entrySet()) {
                streams.put(e.getKey(), new Fields(e.getValue().get_output_fields()));
            }
            out.put(id, streams);
        });
        return out;
    }

    private static GeneralTopologyContext context() {
        Map<Integer, String> taskToComponent = new HashMap<>();
        Map<String, List<Integer>> componentToTasks = new HashMap<>();
        int task = 100;
        for (String component : FIELDS.keySet()) {
            taskToComponent.put(task, component);
            List<Integer> tasks = new ArrayList<>(List.of(task));
            if (component.equals(Components.FILTER_BOLT)) { // more Filter tasks, for partials from several
                for (int extra = 1; extra < FILTER_TASKS; extra++) {
                    taskToComponent.put(200 + extra, component);
                    tasks.add(200 + extra);
                }
            }
            if (component.equals(Components.JOIN_BOLT)) { // more Join tasks, for replays from several
                for (int extra = 1; extra < JOIN_TASKS; extra++) {
                    taskToComponent.put(300 + extra, component);
                    tasks.add(300 + extra);
                }
            }
            componentToTasks.put(component, tasks);
            task++;
        }
        return new GeneralTopologyContext(new StormTopology(), new HashMap<>(), taskToComponent, componentToTasks,
                                          componentToStreamToFields(), "test-topology");
    }
}

package dev.bullet.storm.serialization;

import dev.bullet.common.Clock;
import dev.bullet.config.BulletSettings;
import dev.bullet.metrics.JvmStats;
import dev.bullet.pubsub.PubSubFactory;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.FilterFailure;
import dev.bullet.querying.RawPartial;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.MapRecord;
import dev.bullet.record.Record;
import dev.bullet.storm.BulletTopology;
import dev.bullet.storm.DecodeBolt;
import dev.bullet.storm.FilterBolt;
import dev.bullet.storm.JoinBolt;
import dev.bullet.storm.ResultBolt;
import dev.bullet.storm.TopologyNames.Components;
import dev.bullet.storm.TopologyNames.Streams;
import dev.bullet.storm.testing.Bolts;
import dev.bullet.storm.testing.RecordingOutputCollector;
import dev.bullet.storm.testing.RecordingOutputCollector.Emission;
import dev.bullet.storm.testing.Tuples;
import org.apache.storm.Config;
import org.apache.storm.metric.api.IMetricsConsumer;
import org.apache.storm.serialization.KryoValuesDeserializer;
import org.apache.storm.serialization.KryoValuesSerializer;
import org.apache.storm.serialization.SerializationFactory;
import org.apache.storm.task.IBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Storm's own tuple serializer, built from the topology's real config (Kryo registrations, no Java fallback), carries
 * one tuple of every stream the real components emit across a worker boundary unchanged. A type that is not
 * registered fails here rather than killing a worker on a cluster.
 */
class KryoSerializationTest {
    private static final String COUNT = "{\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}}}";
    private static final String RAW = "{\"aggregation\":{\"type\":\"RAW\",\"size\":5}}";
    private static final String INVALID = "{\"aggregation\":{\"type\":\"NOPE\"}}";
    private static final String[] MESSAGES = {
        "{\"id\":\"a\",\"n\":1,\"x\":2.5,\"ok\":true,\"tags\":{\"k\":\"v\"},\"list\":[1,\"two\",null]}",
        "{\"id\":\"b\\u00e9\",\"n\":12345678901234}",
        "{\"id\":\"c\",\"deep\":{\"a\":{\"b\":[{\"c\":1}]}}}",
    };

    private final Map<String, Object> conf = stormConf();
    private final KryoValuesSerializer serializer = new KryoValuesSerializer(conf);
    private final KryoValuesDeserializer deserializer = new KryoValuesDeserializer(conf);

    private static Map<String, Object> stormConf() {
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        conf.putAll(BulletTopology.config(BulletSettings.load(null, Map.of())));
        return conf;
    }

    @Test
    void topologyConfigNeverFallsBackOnJavaSerialization() {
        assertEquals(false, conf.get(Config.TOPOLOGY_FALL_BACK_ON_JAVA_SERIALIZATION));
        assertEquals(false, conf.get(Config.TOPOLOGY_SKIP_MISSING_KRYO_REGISTRATIONS));
        // an unregistered type must fail, or this test would prove nothing
        assertThrows(RuntimeException.class, () -> serializer.serialize(List.of(new StringBuilder("x"))));
    }

    @Test
    void everyStreamOfTheRealComponentsSurvivesTheWorkerBoundary() {
        Map<String, List<Object>> byStream = new LinkedHashMap<>();
        // spouts: the tuple shapes they emit (KafkaBatchSpout: an ArrayList of raw messages and the read time)
        List<byte[]> raw = new ArrayList<>();
        for (String m : MESSAGES) {
            raw.add(m.getBytes(StandardCharsets.UTF_8));
        }
        long now = System.currentTimeMillis();
        byStream.put(Components.DATASOURCE_SPOUT + "/" + Streams.RAW_BATCH, List.of(raw, now, new long[] {0, 40, 41}, false));
        byStream.put(Components.QUERY_SPOUT + "/" + Streams.QUERY, Tuples.query("q", COUNT, now, 1).getValues());
        byStream.put(Components.QUERY_SPOUT + "/" + Streams.SIGNAL, Tuples.querySignal("q", Signal.KILL).getValues());
        byStream.put(Components.QUERY_SPOUT + "/" + Streams.STORE_REPLAY, Tuples.storeReplay(now, true).getValues());
        byStream.put(Components.TICK_SPOUT + "/" + Streams.TICK, Tuples.tick(now).getValues());

        // what a spout task has in flight
        byStream.put(Components.DATASOURCE_SPOUT + "/" + Streams.READS, List.of(4, 77L, now, new long[] {now - 5, now - 3}));
        // the real bolts
        RecordingOutputCollector decodeOut = run(new DecodeBolt(60_000, Clock.SYSTEM), Tuples.query("q", COUNT, now, 1),
                                                 Tuples.rawBatch(now, MESSAGES));
        Emission records = decodeOut.emitted(Streams.RECORDS).get(0);
        byStream.put(Components.DATASOURCE_BOLT + "/" + Streams.RECORDS, records.values());

        QuerySettings settings = QuerySettings.defaults();
        List<Record> batch = new ArrayList<>(records.<List<Record>>value(0));
        batch.add(new MapRecord(new LinkedHashMap<>(Map.of("id", "map", "n", 3L))));
        RecordingOutputCollector filterOut = run(new FilterBolt(settings, Clock.SYSTEM), Tuples.query("g", COUNT, now, 1),
                                                 Tuples.query("r", RAW, now, 1),
                                                 Tuples.of(Components.DATASOURCE_BOLT, Streams.RECORDS, batch, now,
                                                           new long[] {2, 100, 102}, false),
                                                 Tuples.tick(now + 1));
        for (Emission e : filterOut.emitted(Streams.PARTIAL)) {
            byStream.put(Components.FILTER_BOLT + "/" + Streams.PARTIAL + "/" + e.value(0), e.values());
        }

        Emission partial = filterOut.emitted(Streams.PARTIAL).stream().filter(e -> "g".equals(e.value(0))).findFirst().orElseThrow();
        RecordingOutputCollector joinOut = run(new JoinBolt(settings, 0, Clock.SYSTEM), Tuples.query("g", COUNT, now - 60_000, 1),
                                               Tuples.query("bad", INVALID, now, 1),
                                               Tuples.partial("g", (byte[]) partial.<List<Object>>value(1).get(1), true), Tuples.tick(now + 100_000));
        for (Emission e : joinOut.emissions()) {
            byStream.put(Components.JOIN_BOLT + "/" + e.stream() + "/" + e.value(0), e.values());
        }

        Emission result = joinOut.emitted(Streams.RESULT).get(0);
        RecordingOutputCollector resultOut = run(new ResultBolt(new DeliveringPubSub()),
                                                 Tuples.result(result.value(0), result.value(1), result.value(2),
                                                               result.value(3), result.value(4)));
        byStream.put(Components.RESULT_BOLT + "/" + Streams.CONFIRM, resultOut.emitted(Streams.CONFIRM).get(0).values());

        // restarts: hellos (the same shape from every bolt), the Join's replay and the Filter's restore
        for (String component : List.of(Components.DATASOURCE_BOLT, Components.FILTER_BOLT, Components.JOIN_BOLT)) {
            byStream.put(component + "/" + Streams.HELLO, Tuples.hello(component, 12).getValues());
        }
        RecordingOutputCollector restoreOut = run(new FilterBolt(settings, Clock.SYSTEM), Tuples.query("g", COUNT, now, 1),
                                                  Tuples.hello(Components.JOIN_BOLT, 9));
        byStream.put(Components.FILTER_BOLT + "/" + Streams.RESTORE, restoreOut.emitted(Streams.RESTORE).get(0).values());
        Clock leaping = new Clock() { // past the new task's wait for queries handed back
            private long at = now;

            @Override
            public long now() {
                return at += 10_000;
            }
        };
        RecordingOutputCollector replayOut = run(new JoinBolt(settings, 0, leaping), Tuples.query("g", COUNT, now, 1),
                                                 Tuples.hello(Components.FILTER_BOLT, 3));
        for (Emission e : replayOut.emitted(Streams.REPLAY)) {
            byStream.put(Components.JOIN_BOLT + "/" + Streams.REPLAY + "/" + e.value(0), e.values());
        }

        Set<String> covered = new TreeSet<>();
        for (Map.Entry<String, List<Object>> e : byStream.entrySet()) {
            List<Object> back = roundTrip(e.getValue());
            assertEquals(normalize(e.getValue()), normalize(back), e.getKey());
            String[] parts = e.getKey().split("/");
            covered.add(parts[0] + "/" + parts[1]);
        }
        assertEquals(declaredStreams(), covered, "one tuple of every declared stream");
        assertTrue(byStream.containsKey(Components.FILTER_BOLT + "/" + Streams.PARTIAL + "/r"), "a RAW partial");
    }

    @Test
    @SuppressWarnings("unchecked")
    void lazyRecordsTravelAsTheirRawBytesAndStayLazy() {
        RecordingOutputCollector out = run(new DecodeBolt(60_000, Clock.SYSTEM), Tuples.query("q", COUNT, 0, 1),
                                           Tuples.rawBatch(0, MESSAGES[0]));
        Record record = out.emitted(Streams.RECORDS).get(0).<List<Record>>value(0).get(0);
        assertInstanceOf(LazyRecord.class, record);

        byte[] wire = serializer.serialize(List.of(new ArrayList<>(List.of(record))));
        Record back = ((List<Record>) roundTrip(List.of(new ArrayList<>(List.of(record)))).get(0)).get(0);

        assertInstanceOf(LazyRecord.class, back);
        assertEquals(record.asMap(), back.asMap());
        // the message, its length and a few bytes of framing: no field names or Java class names on the wire
        assertTrue(wire.length <= MESSAGES[0].length() + 16, "wire size " + wire.length);
        assertFalse(new String(wire, StandardCharsets.ISO_8859_1).contains("dev.bullet"));
    }

    @Test
    void aPartialThatEndsItsQueryCrossesWorkers() {
        FilterFailure failure = new FilterFailure("the error", "the resolution");
        List<Object> back = roundTrip(List.of("q1", failure, false));
        assertEquals(List.of("q1", failure, false), back);
    }

    @Test
    void metricsDataPointsWithStormsEmptyDimensionsCrossWorkers() {
        IMetricsConsumer.TaskInfo info = new IMetricsConsumer.TaskInfo("127.0.0.1", 6701, Components.FILTER_BOLT, 3, 1L, 10);
        List<IMetricsConsumer.DataPoint> points = new ArrayList<>();
        points.add(new IMetricsConsumer.DataPoint("bullet_jvm", new JvmStats().snapshot()));
        points.add(new IMetricsConsumer.DataPoint("count", 5L, Collections.emptyMap()));
        List<Object> back = roundTrip(List.of(info, points));

        IMetricsConsumer.TaskInfo infoBack = (IMetricsConsumer.TaskInfo) back.get(0);
        assertEquals(6701, infoBack.srcWorkerPort);
        @SuppressWarnings("unchecked")
        List<IMetricsConsumer.DataPoint> pointsBack = (List<IMetricsConsumer.DataPoint>) back.get(1);
        assertEquals(points.get(0).value, pointsBack.get(0).value);
        assertEquals(5L, pointsBack.get(1).value);
        assertEquals(Map.of(), pointsBack.get(1).dimensions);
    }

    @Test
    void serializationFactoryAcceptsTheTopologyRegistrations() {
        // Storm builds its Kryo from the same config in every worker: every registered class must resolve
        assertInstanceOf(com.esotericsoftware.kryo.Kryo.class, SerializationFactory.getKryo(conf));
    }

    private List<Object> roundTrip(List<Object> values) {
        return deserializer.deserialize(serializer.serialize(values));
    }

    /** Delivers every result at once (to nowhere). */
    private static final class DeliveringPubSub implements PubSubFactory {
        private static final long serialVersionUID = 1L;

        @Override
        public Subscriber requestSubscriber() {
            throw new UnsupportedOperationException("the result bolt reads no queries");
        }

        @Override
        public Publisher responsePublisher() {
            return new Publisher() {
                @Override
                public void send(PubSubMessage message) {
                }

                @Override
                public void close() {
                }
            };
        }
    }

    private static RecordingOutputCollector run(IBolt bolt, Tuple... tuples) {
        RecordingOutputCollector out = new RecordingOutputCollector();
        Bolts.prepare(bolt, out, Map.of());
        for (Tuple t : tuples) {
            bolt.execute(t);
        }
        return out;
    }

    private static Set<String> declaredStreams() {
        Set<String> streams = new TreeSet<>();
        Tuples.componentToStreamToFields().forEach((component, byStream) -> {
            for (String stream : byStream.keySet()) {
                streams.add(component + "/" + stream);
            }
        });
        return streams;
    }

    /** Values made comparable: records as (class, fields), byte arrays as lists. */
    private static Object normalize(Object value) {
        if (value instanceof RawPartial p) {
            return List.of("RawPartial", normalize(p.rows()));
        }
        if (value instanceof Record r) {
            return List.of(r.getClass().getSimpleName(), r.asMap());
        }
        if (value instanceof byte[] b) {
            List<Byte> bytes = new ArrayList<>(b.length);
            for (byte x : b) {
                bytes.add(x);
            }
            return bytes;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            for (Object o : list) {
                out.add(normalize(o));
            }
            return out;
        }
        if (value instanceof long[] longs) {
            return Arrays.stream(longs).boxed().toList();
        }
        if (value instanceof Object[] array) {
            return normalize(Arrays.asList(array));
        }
        return value;
    }
}

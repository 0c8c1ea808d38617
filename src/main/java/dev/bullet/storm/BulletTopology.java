package dev.bullet.storm;

import dev.bullet.pubsub.PubSubFactory;
import dev.bullet.pubsub.KafkaPubSubFactory;
import dev.bullet.pubsub.UnconfirmedResults;
import dev.bullet.ingest.KafkaSpoutConfig;
import dev.bullet.BulletException;
import dev.bullet.common.Clock;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.Component;
import dev.bullet.config.ComponentSpec;
import dev.bullet.config.SettingsTable;
import dev.bullet.config.StormDefaults;
import dev.bullet.metrics.MetricsSinks;
import dev.bullet.query.MemoryBounds;
import dev.bullet.query.QuerySettings;
import dev.bullet.storm.TopologyNames.Components;
import dev.bullet.storm.TopologyNames.Fields;
import dev.bullet.storm.TopologyNames.Streams;
import dev.bullet.storm.serialization.KryoRegistrations;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.metric.api.IMetricsConsumer;
import org.apache.storm.topology.BoltDeclarer;
import org.apache.storm.topology.ComponentConfigurationDeclarer;
import org.apache.storm.topology.IRichSpout;
import org.apache.storm.topology.TopologyBuilder;

import java.lang.reflect.Constructor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Wires the topology of SPEC §3 from validated settings — the one place that does, for a real cluster and for
 * local mode alike. Per-component parallelism and Resource Aware Scheduler loads come from the settings (§3.7).
 */
public final class BulletTopology {
    /** Storm's {@code topology.message.timeout.secs} unless the settings pass another one through. */
    static final int MESSAGE_TIMEOUT_SECS = 8;

    private BulletTopology() {
    }

    /**
     * How long after a query's end its final result may wait for record batches read before the end: Storm fails a
     * timed-out tuple between one and two {@code topology.message.timeout.secs} after it was emitted, then the spout
     * sends it again; two timeouts and two seconds cover that.
     */
    static long readWaitMs(Map<String, Object> conf) {
        Object secs = conf == null ? null : conf.get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS);
        long timeout = secs instanceof Number n ? n.longValue() : MESSAGE_TIMEOUT_SECS;
        return 2 * timeout * 1000 + 2000;
    }

    /** Builds the topology; a bad plug-in spout class is a {@link BulletException} naming the key. */
    public static StormTopology build(BulletSettings settings) {
        return build(settings, new KafkaPubSubFactory(settings));
    }

    public static StormTopology build(BulletSettings settings, PubSubFactory pubSub) {
        return build(settings, pubSub, new ResultBolt(pubSub));
    }

    /** With this Result bolt (a test's, that loses results as a dying worker would). */
    static StormTopology build(BulletSettings settings, PubSubFactory pubSub, ResultBolt resultBolt) {
        QuerySettings query = QuerySettings.from(settings);
        MemoryBounds bounds = MemoryBounds.from(settings);
        long tickMs = settings.tickIntervalMs();
        TopologyBuilder b = new TopologyBuilder();

        resources(b.setSpout(Components.DATASOURCE_SPOUT, dataSourceSpout(settings),
                             spec(settings, Component.DATASOURCE_SPOUT).parallelism()),
                  spec(settings, Component.DATASOURCE_SPOUT));
        resources(b.setSpout(Components.QUERY_SPOUT, new QuerySpout(pubSub, query, Clock.SYSTEM),
                             spec(settings, Component.QUERY_SPOUT).parallelism()),
                  spec(settings, Component.QUERY_SPOUT));
        resources(b.setSpout(Components.TICK_SPOUT, new TickSpout(tickMs, Clock.SYSTEM), 1), spec(settings, Component.TICK_SPOUT));

        long lifetime = query.maxDurationMs() + 60_000L;
        BoltDeclarer decode = b.setBolt(Components.DATASOURCE_BOLT, new DecodeBolt(lifetime, query.limits(), Clock.SYSTEM),
                                        spec(settings, Component.DATASOURCE_BOLT).parallelism())
                               .shuffleGrouping(Components.DATASOURCE_SPOUT)
                               .allGrouping(Components.QUERY_SPOUT, Streams.QUERY)
                               .allGrouping(Components.JOIN_BOLT, Streams.SIGNAL)
                               .directGrouping(Components.JOIN_BOLT, Streams.REPLAY);
        resources(decode, spec(settings, Component.DATASOURCE_BOLT));

        BoltDeclarer filter = b.setBolt(Components.FILTER_BOLT, new FilterBolt(query, bounds, Clock.SYSTEM),
                                        spec(settings, Component.FILTER_BOLT).parallelism())
                               .shuffleGrouping(Components.DATASOURCE_BOLT, Streams.RECORDS)
                               .allGrouping(Components.QUERY_SPOUT, Streams.QUERY)
                               .allGrouping(Components.JOIN_BOLT, Streams.SIGNAL)
                               .allGrouping(Components.TICK_SPOUT, Streams.TICK)
                               .directGrouping(Components.JOIN_BOLT, Streams.REPLAY)
                               .allGrouping(Components.JOIN_BOLT, Streams.HELLO);
        resources(filter, spec(settings, Component.FILTER_BOLT));

        var byId = StreamFields.of(Fields.ID);
        boolean kafkaSpout = settings.getString(SettingsTable.DATASOURCE_SPOUT_CLASS_NAME).isBlank();
        JoinBolt joinBolt = new JoinBolt(query, bounds, Math.max(500L, 5 * tickMs), JoinBolt.HELLOS, Clock.SYSTEM)
                .keeping(UnconfirmedResults.Policy.from(settings))
                .keepingState(pubSub, settings.getLong(SettingsTable.TOPOLOGY_JOIN_SNAPSHOT_INTERVAL_MS));
        BoltDeclarer join = b.setBolt(Components.JOIN_BOLT, kafkaSpout ? joinBolt.awaitingReads() : joinBolt,
                                      spec(settings, Component.JOIN_BOLT).parallelism())
                             .fieldsGrouping(Components.FILTER_BOLT, Streams.PARTIAL, byId)
                             .fieldsGrouping(Components.QUERY_SPOUT, Streams.QUERY, byId)
                             .fieldsGrouping(Components.QUERY_SPOUT, Streams.SIGNAL, byId)
                             .allGrouping(Components.QUERY_SPOUT, Streams.STORE_REPLAY)
                             .allGrouping(Components.TICK_SPOUT, Streams.TICK)
                             .fieldsGrouping(Components.FILTER_BOLT, Streams.RESTORE, byId)
                             .allGrouping(Components.FILTER_BOLT, Streams.HELLO)
                             .allGrouping(Components.DATASOURCE_BOLT, Streams.HELLO)
                             .fieldsGrouping(Components.RESULT_BOLT, Streams.CONFIRM, byId);
        if (kafkaSpout) { // what the spout tasks have in flight: final results wait for it
            join.allGrouping(Components.DATASOURCE_SPOUT, Streams.READS);
        }
        resources(join, spec(settings, Component.JOIN_BOLT));

        resources(b.setBolt(Components.RESULT_BOLT, resultBolt, spec(settings, Component.RESULT_BOLT).parallelism())
                   .shuffleGrouping(Components.JOIN_BOLT, Streams.RESULT)
                   .allGrouping(Components.TICK_SPOUT, Streams.TICK), // acts on send outcomes when no result comes
                  spec(settings, Component.RESULT_BOLT));
        return b.createTopology();
    }

    /** The Storm config of the topology: workers, acking, batches in flight, serialization, passthrough keys. */
    public static Config config(BulletSettings settings) {
        Config conf = new Config();
        conf.setNumWorkers(settings.getInt(SettingsTable.TOPOLOGY_WORKERS));
        conf.setMaxSpoutPending(settings.getInt(SettingsTable.TOPOLOGY_MAX_SPOUT_PENDING));
        if (!settings.getBoolean(SettingsTable.TOPOLOGY_ACKING_ENABLE)) {
            conf.setNumAckers(0);
        }
        conf.put(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, true);
        // a record batch whose Filter task died before reporting it is read again after this long (see FilterBolt)
        conf.setMessageTimeoutSecs(MESSAGE_TIMEOUT_SECS);
        KryoRegistrations.register(conf);
        metrics(settings, conf);
        conf.putAll(StormDefaults.values()); // idle executors park; topology.* keys of the settings win
        conf.putAll(settings.passthrough());
        return conf;
    }

    /** Metrics (SPEC §8): consumers checked and registered, the tasks told what to report and how often. */
    private static void metrics(BulletSettings settings, Config conf) {
        boolean enabled = settings.getBoolean(SettingsTable.METRICS_ENABLE);
        conf.put(SettingsTable.METRICS_ENABLE, enabled);
        conf.put(SettingsTable.METRICS_BUILT_IN_ENABLE, enabled && settings.getBoolean(SettingsTable.METRICS_BUILT_IN_ENABLE));
        if (!enabled) {
            return;
        }
        conf.put(SettingsTable.METRICS_BUILT_IN_EMIT_INTERVAL_MAPPING,
                 new LinkedHashMap<>(settings.getIntMap(SettingsTable.METRICS_BUILT_IN_EMIT_INTERVAL_MAPPING)));
        conf.put(SettingsTable.METRICS_JSON_PATH, settings.getString(SettingsTable.METRICS_JSON_PATH));
        conf.put(SettingsTable.METRICS_PROMETHEUS_PORT, settings.getInt(SettingsTable.METRICS_PROMETHEUS_PORT));
        for (String name : settings.getList(SettingsTable.METRICS_CLASSES)) {
            Class<? extends IMetricsConsumer> storms = stormConsumer(name.trim());
            if (storms != null) { // a Storm metrics consumer of its own, as the original Bullet registered them
                conf.registerMetricsConsumer(storms, 1);
                continue;
            }
            MetricsSinks.resolve(name);
            conf.registerMetricsConsumer(MetricsConsumer.class, name.trim(), 1);
        }
        conf.put("topology.enable.v2.metrics.tick", true);
        conf.put("topology.v2.metrics.tick.interval.seconds", settings.metricEmitIntervalSecs(SettingsTable.DEFAULT_METRIC_ENTRY));
    }

    /**
     * The class named, when it is a Storm {@link IMetricsConsumer} with a public no-argument constructor (Storm makes
     * it); null for an alias, a {@code MetricsSink} or no class (which {@code MetricsSinks.resolve} then reports).
     */
    private static Class<? extends IMetricsConsumer> stormConsumer(String name) {
        Class<?> type;
        try {
            type = Class.forName(name);
        } catch (ClassNotFoundException | LinkageError notAClass) {
            return null;
        }
        if (!IMetricsConsumer.class.isAssignableFrom(type)) {
            return null;
        }
        try {
            type.getConstructor();
        } catch (NoSuchMethodException e) {
            throw new BulletException(SettingsTable.METRICS_CLASSES + ": " + name + " needs a public no-argument"
                                      + " constructor");
        }
        return type.asSubclass(IMetricsConsumer.class);
    }

    private static ComponentSpec spec(BulletSettings settings, Component c) {
        return settings.component(c);
    }

    private static void resources(ComponentConfigurationDeclarer<?> declarer, ComponentSpec spec) {
        declarer.setCPULoad(spec.cpuLoad());
        declarer.setMemoryLoad(spec.onHeapMemoryMiB(), spec.offHeapMemoryMiB());
    }

    private static IRichSpout dataSourceSpout(BulletSettings settings) {
        String className = settings.getString(SettingsTable.DATASOURCE_SPOUT_CLASS_NAME);
        if (className.isBlank()) {
            return new KafkaBatchSpout(KafkaSpoutConfigs.from(settings));
        }
        List<String> args = settings.getList(SettingsTable.DATASOURCE_SPOUT_ARGS);
        try {
            Class<?> type = Class.forName(className.trim());
            if (!IRichSpout.class.isAssignableFrom(type)) {
                throw new BulletException(SettingsTable.DATASOURCE_SPOUT_CLASS_NAME + ": " + className
                                          + " does not implement org.apache.storm.topology.IRichSpout");
            }
            Constructor<?> constructor = type.getConstructor(List.class);
            return (IRichSpout) constructor.newInstance(List.copyOf(args));
        } catch (ClassNotFoundException e) {
            throw new BulletException(SettingsTable.DATASOURCE_SPOUT_CLASS_NAME + ": no class named " + className);
        } catch (NoSuchMethodException e) {
            throw new BulletException(SettingsTable.DATASOURCE_SPOUT_CLASS_NAME + ": " + className
                                      + " needs a public constructor taking a java.util.List<String> (the --bullet-spout-arg values)");
        } catch (ReflectiveOperationException | RuntimeException e) {
            if (e instanceof BulletException) {
                throw (BulletException) e;
            }
            throw new BulletException(SettingsTable.DATASOURCE_SPOUT_CLASS_NAME + ": cannot construct " + className + ": " + e, e);
        }
    }

    /** Settings → typed Kafka configs, in one place. */
    static final class KafkaSpoutConfigs {
        private KafkaSpoutConfigs() {
        }

        static KafkaSpoutConfig from(BulletSettings s) {
            // the settings refuse the properties Bullet owns (auto.offset.reset has its own key)
            Map<String, String> extra = new LinkedHashMap<>(s.getProperties(SettingsTable.DATASOURCE_KAFKA_PROPERTIES));
            extra.put("auto.offset.reset", s.getString(SettingsTable.DATASOURCE_KAFKA_AUTO_OFFSET_RESET));
            return new KafkaSpoutConfig(s.getString(SettingsTable.DATASOURCE_KAFKA_BOOTSTRAP_SERVERS),
                                        s.getString(SettingsTable.DATASOURCE_KAFKA_TOPIC),
                                        s.getString(SettingsTable.DATASOURCE_KAFKA_GROUP_ID),
                                        s.getInt(SettingsTable.DATASOURCE_SPOUT_BATCH_SIZE),
                                        s.getLong(SettingsTable.DATASOURCE_KAFKA_POLL_TIMEOUT_MS), extra);
        }
    }
}

package dev.bullet.local;

import dev.bullet.BulletException;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.storm.BulletTopology;
import org.apache.storm.LocalCluster;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Local mode (issue: the base of {@code scripts/bullet-local.sh}): a real embedded Kafka broker on loopback and
 * the same topology as on a cluster, in Storm's {@code LocalCluster}. Both clients of the topology (firehose and
 * PubSub) are pointed at the embedded broker. Closing it stops the topology, the cluster and the broker.
 */
public final class LocalTopology implements AutoCloseable {
    /**
     * Settings of the in-process Storm daemons. Every 30 s by default the supervisor's localizer opens fresh
     * ZooKeeper clients to look for changed blobs and clean its cache: a burst of threads and CPU for nothing in
     * local mode, where the topology's code never changes.
     */
    static final Map<String, Object> DAEMON_CONF = Map.of(
            "supervisor.localizer.update.blob.interval.secs", 3600,
            "supervisor.localizer.cleanup.interval.ms", 3_600_000);

    private final EmbeddedKafka kafka;
    private final BulletSettings settings;
    private LocalCluster cluster;

    private LocalTopology(EmbeddedKafka kafka, BulletSettings settings) {
        this.kafka = kafka;
        this.settings = settings;
    }

    /**
     * Starts the broker (if not running), creates the topics, and submits the topology.
     *
     * @param base the user's settings; the Kafka bootstrap servers are replaced by the embedded broker's
     */
    public static LocalTopology start(EmbeddedKafka kafka, BulletSettings base) {
        if (!kafka.isRunning()) {
            kafka.start();
        }
        Map<String, Object> overrides = new LinkedHashMap<>();
        overrides.put(SettingsTable.DATASOURCE_KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers());
        overrides.put(SettingsTable.PUBSUB_KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers());
        BulletSettings settings = base.withOverrides(overrides);
        Map<String, Integer> topics = new LinkedHashMap<>();
        topics.put(settings.getString(SettingsTable.DATASOURCE_KAFKA_TOPIC),
                   Math.max(1, settings.component(dev.bullet.config.Component.DATASOURCE_SPOUT).parallelism()));
        topics.put(settings.getString(SettingsTable.PUBSUB_KAFKA_REQUEST_TOPIC_NAME),
                   settings.getInt(SettingsTable.PUBSUB_KAFKA_REQUEST_PARTITIONS));
        topics.put(settings.getString(SettingsTable.PUBSUB_KAFKA_RESPONSE_TOPIC_NAME),
                   settings.getInt(SettingsTable.PUBSUB_KAFKA_RESPONSE_PARTITIONS));
        kafka.createTopics(topics);
        LocalTopology local = new LocalTopology(kafka, settings);
        try {
            local.cluster = new LocalCluster.Builder().withDaemonConf(DAEMON_CONF).build();
            local.cluster.submitTopology(settings.getString(SettingsTable.TOPOLOGY_NAME), BulletTopology.config(settings),
                                         BulletTopology.build(settings));
        } catch (Exception e) {
            local.close();
            throw new BulletException("cannot start the topology in local mode: " + e.getMessage(), e);
        }
        return local;
    }

    /** The effective settings (with the embedded broker's address). */
    public BulletSettings settings() {
        return settings;
    }

    public EmbeddedKafka kafka() {
        return kafka;
    }

    @Override
    public void close() {
        if (cluster != null) {
            try {
                cluster.killTopology(settings.getString(SettingsTable.TOPOLOGY_NAME));
            } catch (Exception ignored) {
                // already gone: closing the cluster below is what matters
            }
            try {
                cluster.close();
            } catch (Exception e) {
                throw new BulletException("cannot stop the local cluster", e);
            } finally {
                cluster = null;
            }
        }
    }
}

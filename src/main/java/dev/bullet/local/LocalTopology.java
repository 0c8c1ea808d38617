package dev.bullet.local;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.Component;
import dev.bullet.config.SettingsTable;
import dev.bullet.pubsub.KafkaPubSubFactory;
import dev.bullet.storm.LocalClusterRunner;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Local mode (the base of {@code scripts/bullet-local.sh}): a real embedded Kafka broker on loopback and
 * the same topology as on a cluster, in Storm's {@code LocalCluster}. Both clients of the topology (firehose and
 * PubSub) are pointed at the embedded broker. Closing it stops the topology, the cluster and the broker.
 */
public final class LocalTopology implements AutoCloseable {
    private final EmbeddedKafka kafka;
    private final BulletSettings settings;
    private LocalClusterRunner cluster;

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
        BulletSettings settings = pointAtBroker(kafka, base);
        LocalTopology local = new LocalTopology(kafka, settings);
        local.cluster = LocalClusterRunner.start(settings);
        return local;
    }

    /**
     * The settings with both Kafka clients (firehose and PubSub) pointed at the embedded broker, whose topics are
     * created; shared with {@link ClusterTopology}.
     */
    static BulletSettings pointAtBroker(EmbeddedKafka kafka, BulletSettings base) {
        Map<String, Object> overrides = new LinkedHashMap<>();
        overrides.put(SettingsTable.DATASOURCE_KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers());
        overrides.put(SettingsTable.PUBSUB_KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers());
        BulletSettings settings = base.withOverrides(overrides);
        Map<String, Integer> topics = new LinkedHashMap<>();
        topics.put(settings.getString(SettingsTable.DATASOURCE_KAFKA_TOPIC),
                   Math.max(1, settings.component(Component.DATASOURCE_SPOUT).parallelism()));
        topics.put(settings.getString(SettingsTable.PUBSUB_KAFKA_REQUEST_TOPIC_NAME),
                   settings.getInt(SettingsTable.PUBSUB_KAFKA_REQUEST_PARTITIONS));
        topics.put(settings.getString(SettingsTable.PUBSUB_KAFKA_RESPONSE_TOPIC_NAME),
                   settings.getInt(SettingsTable.PUBSUB_KAFKA_RESPONSE_PARTITIONS));
        kafka.createTopics(topics);
        KafkaPubSubFactory.createStoreTopics(settings); // compacted
        return settings;
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
                cluster.close();
            } finally {
                cluster = null;
            }
        }
    }
}

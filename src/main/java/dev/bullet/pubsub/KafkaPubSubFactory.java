package dev.bullet.pubsub;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;

/** The Kafka PubSub (SPEC §7.1) as the topology's {@link PubSubFactory}. */
public final class KafkaPubSubFactory implements PubSubFactory {
    private static final long serialVersionUID = 1L;

    private final KafkaPubSubConfig config;
    private final String groupId;

    public KafkaPubSubFactory(BulletSettings settings) {
        this.config = config(settings);
        this.groupId = settings.getString(SettingsTable.TOPOLOGY_NAME) + "-queries";
    }

    /** The PubSub's typed config out of the settings (used by the REST service too). */
    public static KafkaPubSubConfig config(BulletSettings s) {
        return new KafkaPubSubConfig(s.getString(SettingsTable.PUBSUB_KAFKA_BOOTSTRAP_SERVERS),
                                     s.getString(SettingsTable.PUBSUB_KAFKA_REQUEST_TOPIC_NAME),
                                     s.getString(SettingsTable.PUBSUB_KAFKA_RESPONSE_TOPIC_NAME),
                                     s.getInt(SettingsTable.PUBSUB_KAFKA_RESPONSE_PARTITIONS),
                                     s.getProperties(SettingsTable.PUBSUB_KAFKA_PROPERTIES));
    }

    @Override
    public Subscriber requestSubscriber() {
        return new KafkaPubSub(config).requestSubscriber(groupId);
    }

    @Override
    public Publisher responsePublisher() {
        return new KafkaPubSub(config).responsePublisher();
    }
}

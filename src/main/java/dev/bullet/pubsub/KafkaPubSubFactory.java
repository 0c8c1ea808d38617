package dev.bullet.pubsub;

import dev.bullet.common.Clock;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;

import java.util.Optional;

/** The Kafka PubSub (SPEC §7.1) as the topology's {@link PubSubFactory}. */
public final class KafkaPubSubFactory implements PubSubFactory {
    private static final long serialVersionUID = 1L;

    private final KafkaPubSubConfig config;
    private final String groupId;
    private final long maxResultBytes;
    /** The query store's topic; null without a store. */
    private final String queryStoreTopic;
    /** The Join's state topic, or null when the Join keeps no state. */
    private final String joinStateTopic;

    public KafkaPubSubFactory(BulletSettings settings) {
        this.config = config(settings);
        this.groupId = settings.getString(SettingsTable.TOPOLOGY_NAME) + "-queries";
        this.maxResultBytes = maxResultBytes(settings);
        this.queryStoreTopic = queryStoreTopic(settings);
        this.joinStateTopic = settings.getBoolean(SettingsTable.TOPOLOGY_JOIN_SNAPSHOT_ENABLE) ? joinStateTopic(settings) : null;
    }

    /**
     * The query store's topic ({@code bullet.pubsub.kafka.queries.topic.name}, or the request topic's name +
     * {@value KafkaQueryStore#TOPIC_SUFFIX}); null when {@code bullet.topology.query.store.enable} is false.
     */
    public static String queryStoreTopic(BulletSettings s) {
        if (!s.getBoolean(SettingsTable.TOPOLOGY_QUERY_STORE_ENABLE)) {
            return null;
        }
        String topic = s.getString(SettingsTable.PUBSUB_KAFKA_QUERIES_TOPIC_NAME).trim();
        return topic.isEmpty() ? KafkaQueryStore.defaultTopic(s.getString(SettingsTable.PUBSUB_KAFKA_REQUEST_TOPIC_NAME))
                               : topic;
    }

    /**
     * Creates the compacted topics of the query store and of the Join's state, those the settings turn on, where
     * missing (an existing one is left as it is).
     *
     * @throws PubSubException when Kafka cannot be reached or refuses
     */
    public static void createStoreTopics(BulletSettings s) {
        String store = queryStoreTopic(s);
        if (store != null) {
            KafkaQueryStore.createTopic(config(s), store);
        }
        if (s.getBoolean(SettingsTable.TOPOLOGY_JOIN_SNAPSHOT_ENABLE)) {
            KafkaStateStore.createTopic(config(s), joinStateTopic(s));
        }
    }

    /** The name of the Join's state topic ({@code bullet.pubsub.kafka.join.state.topic.name}, or its default). */
    public static String joinStateTopic(BulletSettings s) {
        String name = s.getString(SettingsTable.PUBSUB_KAFKA_JOIN_STATE_TOPIC_NAME);
        return name.isBlank() ? KafkaStateStore.defaultJoinStateTopic(s.getString(SettingsTable.PUBSUB_KAFKA_REQUEST_TOPIC_NAME))
                              : name.trim();
    }

    /**
     * The most bytes one result may have on the response topic (in all its chunks), and so the most a REST
     * instance buffers to join one result: twice {@code bullet.query.max.bytes}, room for the final result of a
     * query ended by that bound (its rows are estimated by their bytes; the JSON adds field names and meta).
     */
    public static long maxResultBytes(BulletSettings s) {
        long perQuery = s.getLong(SettingsTable.QUERY_MAX_BYTES);
        return perQuery > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * perQuery;
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
        return new KafkaPubSub(config).responsePublisher(maxResultBytes);
    }

    @Override
    public QueryStore queryStore() {
        return queryStoreTopic == null ? QueryStore.NONE : new KafkaPubSub(config).queryStore(queryStoreTopic, Clock.SYSTEM);
    }

    /** The store of the Join's state, or empty when the Join keeps none. */
    @Override
    public Optional<KafkaStateStore> joinStateStore() {
        if (joinStateTopic == null) {
            return Optional.empty();
        }
        return Optional.of(KafkaStateStore.open(config, joinStateTopic).orElseThrow(() -> new PubSubException(
                "the Join state topic " + joinStateTopic + " does not exist at " + config.bootstrapServers()
                + " (the REST service and local mode create it; or create it with cleanup.policy=compact, or set "
                + SettingsTable.TOPOLOGY_JOIN_SNAPSHOT_ENABLE + ": false)", null)));
    }
}

package dev.bullet.pubsub;

import dev.bullet.config.KafkaProperties;
import java.io.Serializable;
import java.util.Map;
import java.util.Objects;

/**
 * Where the Kafka PubSub ({@link KafkaPubSub}, SPEC §7.1) lives: immutable, validated on construction, shipped
 * with the topology.
 *
 * @param bootstrapServers   Kafka's {@code host:port[,host:port…]}
 * @param requestTopic       queries and KILL signals, REST → topology ({@value #DEFAULT_REQUEST_TOPIC} by default)
 * @param responseTopic      results, topology → REST ({@value #DEFAULT_RESPONSE_TOPIC} by default)
 * @param responsePartitions the response topic's partitions; each REST instance reads its own ones
 * @param extraClientProps   further properties for every Kafka client of the PubSub (producers, consumers,
 *                           admin), applied over its defaults, e.g. security settings or shorter timeouts
 *                           ({@code bullet.pubsub.kafka.properties}); those Bullet sets itself
 *                           ({@link KafkaProperties#PUBSUB_OWNED}) are refused. {@link #toString()} hides secret values.
 */
public record KafkaPubSubConfig(String bootstrapServers, String requestTopic, String responseTopic,
                                int responsePartitions, Map<String, String> extraClientProps)
    implements Serializable {
    public static final String DEFAULT_REQUEST_TOPIC = "bullet.queries";
    public static final String DEFAULT_RESPONSE_TOPIC = "bullet.responses";

    public KafkaPubSubConfig {
        requireText(bootstrapServers, "bootstrapServers");
        requireText(requestTopic, "requestTopic");
        requireText(responseTopic, "responseTopic");
        if (requestTopic.equals(responseTopic)) {
            throw new IllegalArgumentException("the request and response topics must differ, both are " + requestTopic);
        }
        if (responsePartitions < 1) {
            throw new IllegalArgumentException("responsePartitions must be at least 1, got " + responsePartitions);
        }
        Objects.requireNonNull(extraClientProps, "extraClientProps");
        extraClientProps.forEach((key, value) -> {
            if (key == null || value == null) {
                throw new IllegalArgumentException("extraClientProps has a null key or null value for " + key);
            }
            String why = KafkaProperties.PUBSUB_OWNED.get(key);
            if (why != null) {
                throw new IllegalArgumentException("extraClientProps must not set '" + key + "': " + why);
            }
        });
        extraClientProps = Map.copyOf(extraClientProps);
    }

    /** The config with secret property values hidden, for logs and messages. */
    @Override
    public String toString() {
        return "KafkaPubSubConfig[bootstrapServers=" + bootstrapServers + ", requestTopic=" + requestTopic
            + ", responseTopic=" + responseTopic + ", responsePartitions=" + responsePartitions
            + ", extraClientProps=" + KafkaProperties.masked(extraClientProps) + "]";
    }

    /** The default topics, {@code responsePartitions} response partitions, no extra client properties. */
    public static KafkaPubSubConfig withDefaultTopics(String bootstrapServers, int responsePartitions) {
        return new KafkaPubSubConfig(bootstrapServers, DEFAULT_REQUEST_TOPIC, DEFAULT_RESPONSE_TOPIC,
            responsePartitions, Map.of());
    }

    private static void requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be empty");
        }
    }
}

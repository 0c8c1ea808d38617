package dev.bullet.ingest;

import dev.bullet.config.KafkaProperties;
import java.io.Serializable;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the DataSource spout ({@link KafkaBatchSpout}, SPEC §3.1) reads: immutable, validated on construction
 * (when the topology is built), shipped with the spout.
 *
 * @param bootstrapServers   Kafka's {@code host:port[,host:port…]}
 * @param topic              the firehose topic
 * @param groupId            the consumer group shared by every spout task (it spreads the partitions over them)
 * @param batchSize          the most messages in one emitted tuple (and the consumer's {@code max.poll.records})
 * @param pollTimeoutMs      how long one {@code nextTuple} may wait for data when it has nothing buffered
 * @param extraConsumerProps further consumer properties, applied over the spout's defaults (for example
 *                           {@code auto.offset.reset}); the properties the spout's contract depends on are
 *                           refused
 */
public record KafkaSpoutConfig(String bootstrapServers, String topic, String groupId, int batchSize, long pollTimeoutMs,
                               Map<String, String> extraConsumerProps) implements Serializable {
    /** Consumer properties that are fields of this record, or that at-least-once reading depends on. */
    static final Set<String> RESERVED_PROPS = Set.of("bootstrap.servers", "group.id", "enable.auto.commit",
        "key.deserializer", "value.deserializer");

    public KafkaSpoutConfig {
        requireText(bootstrapServers, "bootstrapServers");
        requireText(topic, "topic");
        requireText(groupId, "groupId");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be at least 1, got " + batchSize);
        }
        if (pollTimeoutMs < 0) {
            throw new IllegalArgumentException("pollTimeoutMs must not be negative, got " + pollTimeoutMs);
        }
        Objects.requireNonNull(extraConsumerProps, "extraConsumerProps");
        extraConsumerProps.forEach((key, value) -> {
            if (key == null || value == null) {
                throw new IllegalArgumentException("extraConsumerProps has a null key or null value for " + key);
            }
            if (RESERVED_PROPS.contains(key)) {
                throw new IllegalArgumentException("extraConsumerProps must not set '" + key + "': the spout sets it"
                    + " (offsets are committed only after a batch is acked)");
            }
        });
        extraConsumerProps = Map.copyOf(extraConsumerProps);
    }

    /** The config with secret property values hidden, for logs and messages. */
    @Override
    public String toString() {
        return "KafkaSpoutConfig[bootstrapServers=" + bootstrapServers + ", topic=" + topic + ", groupId=" + groupId
            + ", batchSize=" + batchSize + ", pollTimeoutMs=" + pollTimeoutMs
            + ", extraConsumerProps=" + KafkaProperties.masked(extraConsumerProps) + "]";
    }

    /** A config with no extra consumer properties. */
    public KafkaSpoutConfig(String bootstrapServers, String topic, String groupId, int batchSize, long pollTimeoutMs) {
        this(bootstrapServers, topic, groupId, batchSize, pollTimeoutMs, Map.of());
    }

    private static void requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be empty");
        }
    }
}

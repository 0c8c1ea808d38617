package dev.bullet.local;

import kafka.server.KafkaConfig;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The embedded broker's log is bounded, as Kafka itself reads the settings: a long run cannot fill the disk. */
class EmbeddedKafkaConfigTest {
    @Test
    void theBrokersLogIsBoundedInBytesAndTime() {
        KafkaConfig config = KafkaConfig.fromProps(EmbeddedKafka.brokerConfig(9092, 9093, Path.of("/tmp/unused")), false);
        long retention = config.getLong("log.retention.bytes");
        int segment = config.getInt("log.segment.bytes");
        assertEquals(1L << 30, retention);
        assertTrue(segment > 0 && segment * 4L <= retention, "several segments fit in the retained bytes: " + segment);
        assertEquals(TimeUnit.HOURS.toMillis(1), config.getLong("log.retention.ms"));
        assertTrue(config.getLong("log.retention.check.interval.ms") <= 60_000L);
    }
}

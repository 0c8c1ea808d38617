package dev.bullet.pubsub;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Either side's reader ({@link KafkaPubSub#requestSubscriber}, {@link KafkaPubSub#responseSubscriber}): polls
 * its consumer and decodes the records. A record that is not a PubSub message is skipped, counted and logged
 * (the first one, then every 1000th). Not thread-safe: one reader thread, like the consumer.
 */
final class KafkaSubscriber implements Subscriber {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaSubscriber.class);

    private final Consumer<byte[], byte[]> consumer;
    private final String source;
    private long malformed;

    /** @param source what is read, for messages */
    KafkaSubscriber(Consumer<byte[], byte[]> consumer, String source) {
        this.consumer = consumer;
        this.source = source;
    }

    /**
     * {@inheritDoc}
     *
     * @throws PubSubException if Kafka reports an error; the subscriber stays usable and the caller may retry
     */
    @Override
    public List<PubSubMessage> receive(Duration timeout) {
        ConsumerRecords<byte[], byte[]> records;
        try {
            records = consumer.poll(timeout);
        } catch (InterruptException e) {
            throw e;
        } catch (KafkaException e) {
            throw new PubSubException("cannot read from " + source + ": " + e, e);
        }
        if (records.isEmpty()) {
            return List.of();
        }
        List<PubSubMessage> messages = new ArrayList<>(records.count());
        for (ConsumerRecord<byte[], byte[]> record : records) {
            try {
                messages.add(KafkaWire.decode(record));
            } catch (KafkaWire.MalformedMessageException e) {
                if (malformed++ % 1000 == 0) {
                    LOG.warn("Skipping a record that is not a PubSub message at {}-{} offset {} ({} skipped so far): {}",
                        record.topic(), record.partition(), record.offset(), malformed, e.getMessage());
                }
            }
        }
        return messages;
    }

    /** Records skipped because they were not PubSub messages. */
    @Override
    public long malformedMessages() {
        return malformed;
    }

    @Override
    public void close() {
        consumer.close(CloseOptions.timeout(KafkaPubSub.CLOSE_TIMEOUT));
    }
}

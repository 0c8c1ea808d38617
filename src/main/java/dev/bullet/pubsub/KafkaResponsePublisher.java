package dev.bullet.pubsub;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topology's sender of results ({@link KafkaPubSub#responsePublisher()}): asynchronous sends routed to
 * each message's reply partition; every delivery is checked in its callback, a failure is logged with the
 * query id and reported by the next {@link #flush()}. Thread-safe.
 */
final class KafkaResponsePublisher implements Publisher {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaResponsePublisher.class);

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final int partitions;
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<Exception> firstFailure = new AtomicReference<>();

    KafkaResponsePublisher(Producer<byte[], byte[]> producer, String topic, int partitions) {
        this.producer = producer;
        this.topic = topic;
        this.partitions = partitions;
    }

    /**
     * Queues a result for sending.
     *
     * @throws PubSubException if the reply partition is outside the response topic, or the producer cannot
     *                         take the message (buffer full for longer than its {@code max.block.ms})
     */
    @Override
    public void send(PubSubMessage message) {
        int partition = message.replyPartition();
        if (partition >= partitions) {
            throw new PubSubException("reply partition " + partition + " of query " + message.id()
                + " is outside response topic " + topic + " (" + partitions + " partitions)", null);
        }
        String id = message.id();
        try {
            producer.send(KafkaWire.encode(topic, partition >= 0 ? partition : null, message), (metadata, e) -> {
                if (e != null) {
                    failed.incrementAndGet();
                    if (firstFailure.compareAndSet(null, e)) {
                        LOG.warn("Result of query {} could not be delivered to {} (further failures until the next"
                            + " flush are counted, not logged)", id, topic, e);
                    }
                }
            });
        } catch (KafkaException e) {
            throw new PubSubException("cannot send a result of query " + id + " to " + topic + ": " + e, e);
        }
    }

    @Override
    public void flush() {
        try {
            producer.flush();
        } catch (KafkaException e) {
            throw new PubSubException("cannot flush results to " + topic + ": " + e, e);
        }
        Exception first = firstFailure.getAndSet(null);
        if (first != null) {
            long count = failed.getAndSet(0);
            throw new PubSubException(count + " result(s) could not be delivered to " + topic + "; first: " + first,
                first);
        }
    }

    @Override
    public void close() {
        producer.close(KafkaPubSub.CLOSE_TIMEOUT);
    }
}

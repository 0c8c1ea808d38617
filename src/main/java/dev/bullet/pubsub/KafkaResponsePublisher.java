package dev.bullet.pubsub;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topology's sender of results ({@link KafkaPubSub#responsePublisher()}): asynchronous sends routed to
 * each message's reply partition; every delivery is checked in its callback, a failure is logged with the
 * query id and reported by the next {@link #flush()}. {@link #send(PubSubMessage, Consumer)} reports each outcome
 * instead. A result larger than one Kafka message may be ({@code max.request.size} less headroom) travels in
 * chunks ({@link ResultChunks}), all into its reply partition and in order; one larger than {@code maxResultBytes}
 * is refused with a {@link ResultTooLargeException}. Thread-safe.
 */
final class KafkaResponsePublisher implements Publisher {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaResponsePublisher.class);

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final int partitions;
    private final int chunkBytes;
    private final long maxResultBytes;
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<Exception> firstFailure = new AtomicReference<>();

    /**
     * @param chunkBytes     the most bytes of a result one Kafka message carries
     * @param maxResultBytes the most bytes one result may have in all its chunks
     */
    KafkaResponsePublisher(Producer<byte[], byte[]> producer, String topic, int partitions, int chunkBytes,
                           long maxResultBytes) {
        this.producer = producer;
        this.topic = topic;
        this.partitions = partitions;
        this.chunkBytes = chunkBytes;
        this.maxResultBytes = maxResultBytes;
    }

    /**
     * Sends a result, in chunks when it is larger than one message may be (a message without a
     * {@link PubSubMessage.Delivery} cannot be chunked: the reader could not join the chunks, so it is refused).
     * {@code done} hears null once Kafka acknowledged every chunk, else the first failure; it runs on the
     * producer's thread, or on the caller's when the send fails at once.
     */
    @Override
    public void send(PubSubMessage message, Consumer<Exception> done) {
        int partition = message.replyPartition();
        String id = message.id();
        List<byte[]> chunks;
        try {
            if (partition >= partitions) {
                throw new PubSubException("reply partition " + partition + " of query " + id
                    + " is outside response topic " + topic + " (" + partitions + " partitions)", null);
            }
            byte[] payload = message.payload() == null ? new byte[0] : message.payload().getBytes(StandardCharsets.UTF_8);
            if (payload.length > maxResultBytes) {
                throw new ResultTooLargeException(id, payload.length, maxResultBytes);
            }
            chunks = ResultChunks.split(payload, chunkBytes);
            if (chunks.size() > 1 && message.delivery() == null) {
                throw new PubSubException("the result of query " + id + " has " + payload.length
                    + " bytes, more than one message of " + topic + " carries, and no delivery id to join chunks by", null);
            }
        } catch (PubSubException e) {
            done.accept(e);
            return;
        }
        Integer target = partition >= 0 ? partition : null;
        AtomicInteger left = new AtomicInteger(chunks.size());
        AtomicReference<Exception> failure = new AtomicReference<>();
        for (int i = 0; i < chunks.size(); i++) {
            PubSubMessage chunk = chunks.size() == 1 ? message : message.withDelivery(
                new PubSubMessage.Delivery(message.delivery().id(), i, chunks.size()));
            try {
                producer.send(KafkaWire.encode(topic, target, chunk, chunks.get(i)), (metadata, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                    if (left.decrementAndGet() == 0) {
                        done.accept(failure.get());
                    }
                });
            } catch (KafkaException e) {
                failure.compareAndSet(null, new PubSubException("cannot send a result of query " + id + " to " + topic
                    + ": " + e, e));
                if (left.addAndGet(-(chunks.size() - i)) == 0) { // the chunks not sent will never call back
                    done.accept(failure.get());
                }
                return;
            }
        }
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

package dev.bullet.pubsub;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;

/**
 * The REST side's sender of queries and signals ({@link KafkaPubSub#requestPublisher()}): each send waits for
 * Kafka's acknowledgement, so a query the caller was told is submitted has reached the topic. Low volume, so
 * the round trip per message is fine. Thread-safe (the producer is).
 */
final class KafkaRequestPublisher implements Publisher {
    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final long waitMs;

    /** @param timeoutMs the producer's bound on a blocked send; a send gives up a little after it */
    KafkaRequestPublisher(Producer<byte[], byte[]> producer, String topic, int timeoutMs) {
        this.producer = producer;
        this.topic = topic;
        this.waitMs = 2L * timeoutMs;
    }

    @Override
    public void send(PubSubMessage message) {
        String what = describe(message);
        try {
            producer.send(KafkaWire.encode(topic, null, message)).get(waitMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new PubSubException("cannot send " + what + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new PubSubException("Kafka did not acknowledge " + what + " within " + waitMs + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PubSubException("interrupted while sending " + what, e);
        } catch (KafkaException e) {
            throw new PubSubException("cannot send " + what + ": " + e, e);
        }
    }

    private String describe(PubSubMessage message) {
        return (message.hasSignal() ? message.signal() + " signal" : "query") + " " + message.id() + " to " + topic;
    }

    @Override
    public void close() {
        producer.close(KafkaPubSub.CLOSE_TIMEOUT);
    }
}

package dev.bullet.pubsub;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * How a {@link PubSubMessage} travels in a Kafka record (SPEC §7.1): key = query id, value = payload, both
 * UTF-8; header {@value #SIGNAL_HEADER} = the signal's name when there is one; header
 * {@value #REPLY_PARTITION_HEADER} = the reply partition as a decimal string (absent means -1).
 */
final class KafkaWire {
    static final String SIGNAL_HEADER = "bullet-signal";
    static final String REPLY_PARTITION_HEADER = "bullet-reply-partition";

    private KafkaWire() {
    }

    /** A record for {@code topic}; {@code partition} null lets the producer choose by key. */
    static ProducerRecord<byte[], byte[]> encode(String topic, Integer partition, PubSubMessage message) {
        if (message.id() == null) {
            throw new IllegalArgumentException("a PubSub message needs a query id: " + message);
        }
        RecordHeaders headers = new RecordHeaders();
        if (message.signal() != null) {
            headers.add(SIGNAL_HEADER, message.signal().name().getBytes(StandardCharsets.UTF_8));
        }
        headers.add(REPLY_PARTITION_HEADER,
            Integer.toString(message.replyPartition()).getBytes(StandardCharsets.UTF_8));
        byte[] payload = message.payload() == null ? new byte[0] : message.payload().getBytes(StandardCharsets.UTF_8);
        return new ProducerRecord<>(topic, partition, message.id().getBytes(StandardCharsets.UTF_8), payload, headers);
    }

    /**
     * The message in a record.
     *
     * @throws MalformedMessageException if it has no key, an unknown signal or a reply partition that is not a
     *                                   number
     */
    static PubSubMessage decode(ConsumerRecord<byte[], byte[]> record) {
        if (record.key() == null) {
            throw new MalformedMessageException("no key (query id)");
        }
        String id = new String(record.key(), StandardCharsets.UTF_8);
        String payload = record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8);
        Signal signal = null;
        Header signalHeader = record.headers().lastHeader(SIGNAL_HEADER);
        if (signalHeader != null && signalHeader.value() != null) {
            String name = new String(signalHeader.value(), StandardCharsets.UTF_8);
            try {
                signal = Signal.valueOf(name);
            } catch (IllegalArgumentException e) {
                throw new MalformedMessageException("unknown signal '" + name + "' for query " + id);
            }
        }
        int replyPartition = -1;
        Header partitionHeader = record.headers().lastHeader(REPLY_PARTITION_HEADER);
        if (partitionHeader != null && partitionHeader.value() != null) {
            String text = new String(partitionHeader.value(), StandardCharsets.UTF_8);
            try {
                replyPartition = Integer.parseInt(text);
            } catch (NumberFormatException e) {
                throw new MalformedMessageException("reply partition '" + text + "' of query " + id
                    + " is not a number");
            }
        }
        return new PubSubMessage(id, payload, signal, replyPartition);
    }

    /** A record that is not a PubSub message; it is skipped and counted. */
    static final class MalformedMessageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MalformedMessageException(String message) {
            super(message, null, false, false);
        }
    }
}

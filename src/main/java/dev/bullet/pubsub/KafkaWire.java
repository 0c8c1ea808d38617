package dev.bullet.pubsub;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * How a {@link PubSubMessage} travels in a Kafka record (SPEC §7.1): key = query id, value = payload, both
 * UTF-8; header {@value #SIGNAL_HEADER} = the signal's name when there is one; header
 * {@value #REPLY_PARTITION_HEADER} = the reply partition as a decimal string (absent means -1); for a result,
 * header {@value #DELIVERY_HEADER} = its delivery id and, when it travels in chunks, header {@value #CHUNK_HEADER}
 * = {@code index/count} (absent means {@code 0/1}). The chunks of a result split its UTF-8 bytes between
 * characters, so each chunk's value is UTF-8 on its own.
 */
final class KafkaWire {
    static final String SIGNAL_HEADER = "bullet-signal";
    static final String REPLY_PARTITION_HEADER = "bullet-reply-partition";
    static final String DELIVERY_HEADER = "bullet-delivery";
    static final String CHUNK_HEADER = "bullet-chunk";

    private KafkaWire() {
    }

    /** A record for {@code topic}; {@code partition} null lets the producer choose by key. */
    static ProducerRecord<byte[], byte[]> encode(String topic, Integer partition, PubSubMessage message) {
        byte[] payload = message.payload() == null ? new byte[0] : message.payload().getBytes(StandardCharsets.UTF_8);
        return encode(topic, partition, message, payload);
    }

    /** A record for {@code topic} whose value is {@code payload} (the message's payload, or a chunk of it). */
    static ProducerRecord<byte[], byte[]> encode(String topic, Integer partition, PubSubMessage message,
                                                 byte[] payload) {
        if (message.id() == null) {
            throw new IllegalArgumentException("a PubSub message needs a query id: " + message);
        }
        RecordHeaders headers = new RecordHeaders();
        if (message.signal() != null) {
            headers.add(SIGNAL_HEADER, message.signal().name().getBytes(StandardCharsets.UTF_8));
        }
        headers.add(REPLY_PARTITION_HEADER,
            Integer.toString(message.replyPartition()).getBytes(StandardCharsets.UTF_8));
        PubSubMessage.Delivery delivery = message.delivery();
        if (delivery != null) {
            headers.add(DELIVERY_HEADER, delivery.id().getBytes(StandardCharsets.UTF_8));
            if (delivery.chunked()) {
                headers.add(CHUNK_HEADER, (delivery.chunk() + "/" + delivery.chunks()).getBytes(StandardCharsets.UTF_8));
            }
        }
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
        return new PubSubMessage(id, payload, signal, replyPartition, delivery(record, id));
    }

    private static PubSubMessage.Delivery delivery(ConsumerRecord<byte[], byte[]> record, String id) {
        Header deliveryHeader = record.headers().lastHeader(DELIVERY_HEADER);
        if (deliveryHeader == null || deliveryHeader.value() == null || deliveryHeader.value().length == 0) {
            return null;
        }
        String delivery = new String(deliveryHeader.value(), StandardCharsets.UTF_8);
        Header chunkHeader = record.headers().lastHeader(CHUNK_HEADER);
        if (chunkHeader == null || chunkHeader.value() == null) {
            return PubSubMessage.Delivery.whole(delivery);
        }
        String text = new String(chunkHeader.value(), StandardCharsets.UTF_8);
        int slash = text.indexOf('/');
        try {
            return new PubSubMessage.Delivery(delivery, Integer.parseInt(text.substring(0, Math.max(slash, 0))),
                                              Integer.parseInt(text.substring(slash + 1)));
        } catch (IllegalArgumentException e) { // NumberFormatException too
            throw new MalformedMessageException("chunk '" + text + "' of query " + id + " is not index/count");
        }
    }

    /** A record that is not a PubSub message; it is skipped and counted. */
    static final class MalformedMessageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MalformedMessageException(String message) {
            super(message, null, false, false);
        }
    }
}

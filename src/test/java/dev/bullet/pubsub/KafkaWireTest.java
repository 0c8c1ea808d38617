package dev.bullet.pubsub;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class KafkaWireTest {
    private static ConsumerRecord<byte[], byte[]> received(ProducerRecord<byte[], byte[]> sent) {
        return new ConsumerRecord<>(sent.topic(), 0, 0, 0, TimestampType.CREATE_TIME, 0, 0, sent.key(), sent.value(),
            sent.headers(), Optional.empty());
    }

    private static ConsumerRecord<byte[], byte[]> record(byte[] key, byte[] value, RecordHeaders headers) {
        return new ConsumerRecord<>("t", 0, 0, 0, TimestampType.CREATE_TIME, 0, 0, key, value, headers,
            Optional.empty());
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void queryRoundTripsWithIdPayloadAndReplyPartition() {
        PubSubMessage query = PubSubMessage.query("q-1", "{\"filters\":[\"Zürich ✓\"]}", 3);
        ProducerRecord<byte[], byte[]> sent = KafkaWire.encode("bullet.queries", null, query);
        assertArrayEquals(utf8("q-1"), sent.key());
        assertNull(sent.partition());
        assertNull(sent.headers().lastHeader(KafkaWire.SIGNAL_HEADER));
        assertArrayEquals(utf8("3"), sent.headers().lastHeader(KafkaWire.REPLY_PARTITION_HEADER).value());
        assertEquals(query, KafkaWire.decode(received(sent)));
    }

    @Test
    void everySignalRoundTrips() {
        for (Signal signal : Signal.values()) {
            PubSubMessage message = PubSubMessage.signal("q-2", signal, 0);
            ProducerRecord<byte[], byte[]> sent = KafkaWire.encode("t", 0, message);
            assertArrayEquals(utf8(signal.name()), sent.headers().lastHeader(KafkaWire.SIGNAL_HEADER).value());
            assertEquals(0, sent.partition());
            assertEquals(message, KafkaWire.decode(received(sent)));
        }
    }

    @Test
    void missingHeadersAndValueMeanNoSignalNoPartitionEmptyPayload() {
        assertEquals(new PubSubMessage("q", "", null, -1), KafkaWire.decode(record(utf8("q"), null, new RecordHeaders())));
    }

    @Test
    void aResultsDeliveryAndChunkRoundTrip() {
        PubSubMessage whole = new PubSubMessage("q", "{}", Signal.COMPLETE, 1, PubSubMessage.Delivery.whole("d-1"));
        ProducerRecord<byte[], byte[]> sent = KafkaWire.encode("t", 1, whole);
        assertNull(sent.headers().lastHeader(KafkaWire.CHUNK_HEADER));
        assertEquals(whole, KafkaWire.decode(received(sent)));
        PubSubMessage chunk = whole.withDelivery(new PubSubMessage.Delivery("d-1", 2, 5));
        ProducerRecord<byte[], byte[]> chunkSent = KafkaWire.encode("t", 1, chunk, utf8("rds\":"));
        assertArrayEquals(utf8("2/5"), chunkSent.headers().lastHeader(KafkaWire.CHUNK_HEADER).value());
        PubSubMessage decoded = KafkaWire.decode(received(chunkSent));
        assertEquals(chunk.delivery(), decoded.delivery());
        assertEquals("rds\":", decoded.payload());
    }

    @Test
    void aChunkHeaderThatIsNotIndexOfCountIsRejected() {
        for (String bad : new String[] {"x", "1", "3/2", "-1/2", "1/x", "0/0"}) {
            RecordHeaders headers = new RecordHeaders();
            headers.add(KafkaWire.DELIVERY_HEADER, utf8("d"));
            headers.add(KafkaWire.CHUNK_HEADER, utf8(bad));
            assertThrows(KafkaWire.MalformedMessageException.class,
                () -> KafkaWire.decode(record(utf8("q"), utf8("{}"), headers)), bad);
        }
    }

    @Test
    void malformedRecordsAreRejected() {
        assertThrows(KafkaWire.MalformedMessageException.class,
            () -> KafkaWire.decode(record(null, utf8("{}"), new RecordHeaders())));
        RecordHeaders badSignal = new RecordHeaders();
        badSignal.add(KafkaWire.SIGNAL_HEADER, utf8("EXPLODE"));
        assertThrows(KafkaWire.MalformedMessageException.class,
            () -> KafkaWire.decode(record(utf8("q"), utf8("{}"), badSignal)));
        RecordHeaders badPartition = new RecordHeaders();
        badPartition.add(KafkaWire.REPLY_PARTITION_HEADER, utf8("one"));
        assertThrows(KafkaWire.MalformedMessageException.class,
            () -> KafkaWire.decode(record(utf8("q"), utf8("{}"), badPartition)));
        assertThrows(IllegalArgumentException.class,
            () -> KafkaWire.encode("t", null, new PubSubMessage(null, "{}", null, 0)));
    }
}

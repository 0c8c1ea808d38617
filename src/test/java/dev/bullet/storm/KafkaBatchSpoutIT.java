package dev.bullet.storm;

import dev.bullet.ingest.KafkaSpoutConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.bullet.local.EmbeddedKafka;
import dev.bullet.querying.MergedBatches;
import dev.bullet.storm.TopologyNames.Streams;
import dev.bullet.storm.testing.RecordingSpoutCollector;
import dev.bullet.storm.testing.RecordingSpoutCollector.Emission;
import dev.bullet.storm.testing.TopologyContexts;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DataSource spout against a real (embedded) Kafka broker: driven directly with a recording collector, and once
 * inside Storm's LocalCluster.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KafkaBatchSpoutIT {
    private static final Duration WAIT = Duration.ofSeconds(45);
    private static final AtomicInteger NAMES = new AtomicInteger();

    @TempDir
    static Path dir;
    private static EmbeddedKafka kafka;
    private static KafkaProducer<byte[], byte[]> producer;
    private static Admin admin;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafka.onFreePorts(dir);
        kafka.start();
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        // Not idempotent: right after a topic is created the broker may answer NOT_LEADER_OR_FOLLOWER, and the
        // idempotent producer's retry then looped on OUT_OF_ORDER_SEQUENCE_NUMBER here. One request in flight
        // keeps the order on retries.
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        producer = new KafkaProducer<>(props);
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    }

    @AfterAll
    static void stopKafka() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    /** A fresh topic with {@code partitions} partitions. */
    private static String topic(int partitions) {
        String name = "firehose-" + NAMES.incrementAndGet();
        kafka.createTopics(Map.of(name, partitions));
        return name;
    }

    /** Produces {@code prefix0..prefix(count-1)}, keyed so they spread over the topic's partitions. */
    private static List<String> produce(String topic, String prefix, int count) {
        List<String> sent = new ArrayList<>();
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String value = prefix + i;
            acks.add(producer.send(new ProducerRecord<>(topic, ("k" + i).getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8))));
            sent.add(value);
        }
        producer.flush();
        for (Future<RecordMetadata> ack : acks) {
            try {
                ack.get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("producing to " + topic + " failed", e);
            }
        }
        return sent;
    }

    /** An opened spout reading {@code topic} from its start (a new group would otherwise start at the end). */
    private static KafkaBatchSpout openSpout(String topic, String group, int batchSize, RecordingSpoutCollector out) {
        KafkaSpoutConfig config = new KafkaSpoutConfig(kafka.bootstrapServers(), topic, group, batchSize, 10,
            Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"));
        KafkaBatchSpout spout = new KafkaBatchSpout(config);
        spout.open(new HashMap<>(), TopologyContexts.forTask(TopologyNames.Components.DATASOURCE_SPOUT, 1),
            out.collector());
        return spout;
    }

    /** The record batches emitted since the last call (the spout's reports to the Join are left out). */
    private static List<Emission> batches(RecordingSpoutCollector out) {
        return out.drain().stream().filter(e -> Streams.RAW_BATCH.equals(e.stream())).toList();
    }

    private static List<String> values(Emission emission) {
        List<byte[]> batch = emission.value(0);
        List<String> out = new ArrayList<>(batch.size());
        batch.forEach(v -> out.add(new String(v, StandardCharsets.UTF_8)));
        return out;
    }

    /** Calls nextTuple until {@code done} holds; fails the test at the deadline. */
    private static void pumpUntil(KafkaBatchSpout spout, BooleanSupplier done, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting for " + what);
            }
            spout.nextTuple();
        }
    }

    /** Emits and acks batches until {@code count} values were received; returns them in emission order. */
    private static List<String> readAndAck(KafkaBatchSpout spout, RecordingSpoutCollector out, int count,
                                           int batchSize) {
        List<String> received = new ArrayList<>();
        pumpUntil(spout, () -> {
            for (Emission emission : batches(out)) {
                List<String> batch = values(emission);
                assertTrue(batch.size() <= batchSize, "batch of " + batch.size() + " > " + batchSize);
                assertFalse(batch.isEmpty());
                received.addAll(batch);
                spout.ack(emission.messageId());
            }
            return received.size() >= count;
        }, count + " records");
        return received;
    }

    private static Map<TopicPartition, Long> committed(String group) {
        try {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
            Map<TopicPartition, Long> out = new HashMap<>();
            offsets.forEach((tp, om) -> {
                if (om != null) {
                    out.put(tp, om.offset());
                }
            });
            return out;
        } catch (Exception e) {
            throw new AssertionError("cannot read the offsets of group " + group, e);
        }
    }

    private static long committedTotal(String group) {
        return committed(group).values().stream().mapToLong(Long::longValue).sum();
    }

    @Test
    void recordsArriveInBatchesOfAtMostBatchSizeOnTheRawBatchStream() {
        String topic = topic(3);
        RecordingSpoutCollector out = new RecordingSpoutCollector();
        KafkaBatchSpout spout = openSpout(topic, "g-" + topic, 40, out);
        try {
            long before = System.currentTimeMillis();
            List<String> sent = produce(topic, "r", 500);
            List<Emission> all = new ArrayList<>();
            List<String> received = new ArrayList<>();
            pumpUntil(spout, () -> {
                for (Emission emission : batches(out)) {
                    all.add(emission);
                    received.addAll(values(emission));
                    spout.ack(emission.messageId());
                }
                return received.size() >= sent.size();
            }, "500 records");
            assertEquals(Set.copyOf(sent), Set.copyOf(received));
            assertEquals(sent.size(), received.size(), "no record twice without a failure");
            Set<Object> ids = new HashSet<>();
            for (Emission emission : all) {
                assertEquals(Streams.RAW_BATCH, emission.stream());
                assertTrue(values(emission).size() <= 40 && !values(emission).isEmpty());
                long readTime = emission.value(1);
                assertTrue(readTime >= before - 1_000 && readTime <= System.currentTimeMillis(), "read time " + readTime);
                assertInstanceOf(Long.class, emission.messageId());
                assertTrue(ids.add(emission.messageId()), "message ids are unique");
            }
            assertTrue(all.size() >= 500 / 40, "at least " + 500 / 40 + " batches, got " + all.size());
        } finally {
            spout.close();
        }
    }

    @Test
    void ackedBatchesAreCommittedAndTheGroupResumesAfterThem() {
        String topic = topic(2);
        String group = "g-" + topic;
        RecordingSpoutCollector out = new RecordingSpoutCollector();
        KafkaBatchSpout spout = openSpout(topic, group, 25, out);
        try {
            produce(topic, "early", 100);
            readAndAck(spout, out, 100, 25);
            // Committing is asynchronous, from nextTuple: keep the spout running until Kafka has the offsets.
            pumpUntil(spout, () -> committedTotal(group) == 100, "offsets 100 committed, have " + committed(group));
        } finally {
            spout.close();
        }
        List<String> later = produce(topic, "later", 30);
        Map<String, Object> props = Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG, group,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        List<String> resumed = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> next = new KafkaConsumer<>(props)) {
            next.subscribe(List.of(topic));
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (resumed.size() < later.size() && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : next.poll(Duration.ofMillis(100))) {
                    resumed.add(new String(record.value(), StandardCharsets.UTF_8));
                }
            }
        }
        assertEquals(Set.copyOf(later), Set.copyOf(resumed), "the group resumes right after the acked records");
        assertEquals(later.size(), resumed.size());
    }

    @Test
    void failedBatchIsEmittedAgainWithTheSameRecordsAndNothingIsLost() {
        String topic = topic(1);
        String group = "g-" + topic;
        RecordingSpoutCollector out = new RecordingSpoutCollector();
        KafkaBatchSpout spout = openSpout(topic, group, 20, out);
        try {
            List<String> sent = produce(topic, "f", 100);
            List<Emission> firstTwo = new ArrayList<>();
            pumpUntil(spout, () -> {
                firstTwo.addAll(batches(out));
                return firstTwo.size() >= 2;
            }, "two batches");
            List<String> failed = values(firstTwo.get(0));
            List<String> inFlight = values(firstTwo.get(1));
            assertEquals(sent.subList(0, failed.size()), failed, "one partition: offset order");
            // The first batch fails while the second is in flight; the second is acked after the failure.
            spout.fail(firstTwo.get(0).messageId());
            spout.ack(firstTwo.get(1).messageId());
            for (int i = 2; i < firstTwo.size(); i++) {
                spout.ack(firstTwo.get(i).messageId());
            }
            int emitted = firstTwo.stream().mapToInt(e -> values(e).size()).sum();
            List<String> after = readAndAck(spout, out, failed.size() + sent.size() - emitted, 20);
            assertEquals(failed, after.subList(0, failed.size()), "the failed batch's records come again first");
            List<String> expected = new ArrayList<>(failed);
            expected.addAll(sent.subList(emitted, sent.size()));
            assertEquals(expected, after, "batches acked meanwhile (" + inFlight.size() + " records in the second) are"
                                          + " not read again; nothing lost, in order");
            pumpUntil(spout, () -> committedTotal(group) == 100, "offset 100 committed, have " + committed(group));
        } finally {
            spout.close();
        }
    }

    @Test
    void unackedBatchIsReadAgainByTheNextSpoutOfTheGroup() {
        String topic = topic(1);
        String group = "g-" + topic;
        List<String> sent = produce(topic, "u", 30);
        RecordingSpoutCollector out = new RecordingSpoutCollector();
        KafkaBatchSpout spout = openSpout(topic, group, 10, out);
        List<Emission> emitted = new ArrayList<>();
        try {
            pumpUntil(spout, () -> {
                emitted.addAll(batches(out));
                return emitted.size() >= 3;
            }, "three batches");
            spout.ack(emitted.get(0).messageId());
            spout.ack(emitted.get(2).messageId()); // the middle one is never acked: the worker "dies"
        } finally {
            spout.close();
        }
        assertEquals(10L, committedTotal(group), "commits stop at the first unacked batch");
        RecordingSpoutCollector out2 = new RecordingSpoutCollector();
        KafkaBatchSpout next = openSpout(topic, group, 10, out2);
        try {
            assertEquals(sent.subList(10, 30), readAndAck(next, out2, 20, 10));
        } finally {
            next.close();
        }
    }

    @Test
    void aSpoutTakingPartitionsOverSendsAgainWhatItsDeadPredecessorHandedOutAndTheJoinCountsEachRecordOnce() {
        String topic = topic(2);
        String group = "g-" + topic;
        int total = 3000;
        produce(topic, "t", total);
        MergedBatches join = new MergedBatches(); // what a query's Join merged
        Map<Long, Integer> counted = new HashMap<>();
        RecordingSpoutCollector outA = new RecordingSpoutCollector();
        KafkaBatchSpout a = openSpout(topic, group, 100, outA);
        List<Emission> handedOut = new ArrayList<>();
        pumpUntil(a, () -> {
            for (Emission e : batches(outA)) {
                handedOut.add(e);
                long[] span = e.value(2);
                assertFalse(e.<Boolean>value(3), "nobody read these before");
                assertEquals(MergedBatches.Overlap.NONE, join.overlap(span[0], span[1], span[2]));
                join.add(span[0], span[1], span[2]); // merged at the Join...
                for (long o = span[1]; o <= span[2]; o++) {
                    counted.merge(span[0] << 32 | o, 1, Integer::sum);
                }
                if (handedOut.size() % 3 != 0) {
                    a.ack(e.messageId()); // ...and acked; every third one's ack is lost with the worker
                }
            }
            return counted.size() >= total / 2;
        }, "half the records");
        a.abandon(); // killed: no commit beyond those made so far, its consumer gone

        RecordingSpoutCollector outB = new RecordingSpoutCollector();
        KafkaBatchSpout b = openSpout(topic, group, 100, outB);
        int[] reread = new int[1];
        try {
            pumpUntil(b, () -> {
                for (Emission e : batches(outB)) {
                    long[] span = e.value(2);
                    if (span.length > 3) { // sent again with each record's offset: the Join drops what it has
                        assertTrue(e.<Boolean>value(3));
                        for (int i = 3; i < span.length; i++) {
                            if (join.overlap(span[0], span[i], span[i]) == MergedBatches.Overlap.ALL) {
                                reread[0]++;
                                continue;
                            }
                            join.add(span[0], span[i], span[i]);
                            counted.merge(span[0] << 32 | span[i], 1, Integer::sum);
                        }
                    } else {
                        assertEquals(MergedBatches.Overlap.NONE, join.overlap(span[0], span[1], span[2]),
                                     "a batch read for the first time was never merged");
                        join.add(span[0], span[1], span[2]);
                        for (long o = span[1]; o <= span[2]; o++) {
                            counted.merge(span[0] << 32 | o, 1, Integer::sum);
                        }
                    }
                    b.ack(e.messageId());
                }
                return counted.size() >= total;
            }, "every record");
        } finally {
            b.close();
        }
        assertEquals(total, counted.size());
        assertTrue(counted.values().stream().allMatch(n -> n == 1), "no record counted twice");
        assertTrue(reread[0] > 0, "the new reader did read again records its predecessor had handed out");
    }

    @Test
    void twoSpoutsOfOneGroupShareThePartitionsWithoutLosingRecords() {
        String topic = topic(4);
        String group = "g-" + topic;
        RecordingSpoutCollector outA = new RecordingSpoutCollector();
        RecordingSpoutCollector outB = new RecordingSpoutCollector();
        KafkaBatchSpout a = openSpout(topic, group, 50, outA);
        KafkaBatchSpout b = null;
        try {
            List<String> sent = new ArrayList<>(produce(topic, "one", 200));
            List<String> byA = new ArrayList<>();
            List<String> byB = new ArrayList<>();
            pumpUntil(a, () -> {
                for (Emission e : batches(outA)) {
                    byA.addAll(values(e));
                    a.ack(e.messageId());
                }
                return byA.size() >= 200;
            }, "A reads the first 200");
            // B joins: a rebalance moves partitions to it; A commits what it acked for the ones it gives up.
            KafkaBatchSpout joined = openSpout(topic, group, 50, outB);
            b = joined;
            long deadline = System.nanoTime() + WAIT.toNanos();
            int round = 0;
            while (System.nanoTime() < deadline) {
                // Keep records coming until B has joined and read some (the rebalance takes a few seconds).
                if (round++ % 5 == 0 && (sent.size() < 1_200 || byB.isEmpty()) && sent.size() < 20_000) {
                    sent.addAll(produce(topic, "r" + round + "-", 100));
                }
                a.nextTuple();
                joined.nextTuple();
                for (Emission e : batches(outA)) {
                    byA.addAll(values(e));
                    a.ack(e.messageId());
                }
                for (Emission e : batches(outB)) {
                    byB.addAll(values(e));
                    joined.ack(e.messageId());
                }
                Set<String> seen = new HashSet<>(byA);
                seen.addAll(byB);
                if (sent.size() >= 1_200 && !byB.isEmpty() && seen.containsAll(sent)) {
                    break;
                }
            }
            Set<String> seen = new HashSet<>(byA);
            seen.addAll(byB);
            Set<String> missing = new HashSet<>(sent);
            missing.removeAll(seen);
            assertEquals(Set.of(), missing, "every record is read at least once");
            assertFalse(byB.isEmpty(), "the second spout got partitions");
        } finally {
            a.close();
            if (b != null) {
                b.close();
            }
        }
    }

    /** Counts what reaches it per run; fails the second batch it sees (the tuple goes back to the spout). */
    static final class FailSecondBatchBolt extends BaseRichBolt {
        private static final long serialVersionUID = 1L;
        static final Map<String, Set<String>> ACKED = new ConcurrentHashMap<>();
        static final Map<String, List<String>> FAILED = new ConcurrentHashMap<>();
        private final String run;
        private transient OutputCollector collector;
        private transient int batches;

        FailSecondBatchBolt(String run) {
            this.run = run;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple tuple) {
            @SuppressWarnings("unchecked")
            List<byte[]> batch = (List<byte[]>) tuple.getValueByField(TopologyNames.Fields.BATCH);
            List<String> values = new ArrayList<>();
            batch.forEach(v -> values.add(new String(v, StandardCharsets.UTF_8)));
            if (++batches == 2) {
                FAILED.put(run, values);
                collector.fail(tuple);
            } else {
                ACKED.computeIfAbsent(run, r -> ConcurrentHashMap.newKeySet()).addAll(values);
                collector.ack(tuple);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    @Test
    @SuppressWarnings("try") // LocalCluster.close() declares Exception; the test method throws it
    void inALocalClusterAFailedBatchIsReplayedAndEveryRecordIsAcked() throws Exception {
        String topic = topic(2);
        String group = "g-" + topic;
        String run = topic;
        List<String> sent = produce(topic, "s", 300);
        KafkaSpoutConfig config = new KafkaSpoutConfig(kafka.bootstrapServers(), topic, group, 25, 10,
            Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"));
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout(TopologyNames.Components.DATASOURCE_SPOUT, new KafkaBatchSpout(config), 1);
        builder.setBolt("fail-second", new FailSecondBatchBolt(run), 1)
            .shuffleGrouping(TopologyNames.Components.DATASOURCE_SPOUT, Streams.RAW_BATCH);
        Config conf = new Config();
        conf.setNumWorkers(1);
        conf.setMaxSpoutPending(3);
        conf.put(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, true);
        conf.setMessageTimeoutSecs(30);
        try (LocalCluster cluster = new LocalCluster()) {
            cluster.submitTopology("kafka-batch-spout-it", conf, builder.createTopology());
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (!(FailSecondBatchBolt.ACKED.getOrDefault(run, Set.of()).containsAll(sent)
                     && committedTotal(group) == sent.size())) {
                if (System.nanoTime() > deadline) {
                    fail("acked " + FailSecondBatchBolt.ACKED.getOrDefault(run, Set.of()).size() + " of "
                        + sent.size() + ", committed " + committed(group));
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // poll interval
            }
            cluster.killTopology("kafka-batch-spout-it");
        }
        List<String> failed = FailSecondBatchBolt.FAILED.get(run);
        assertTrue(failed != null && !failed.isEmpty(), "a batch was failed");
        assertTrue(FailSecondBatchBolt.ACKED.get(run).containsAll(failed), "the failed batch came again and was acked");
    }

    @Test
    void spoutSurvivesJavaSerializationAsStormShipsIt() throws IOException, ClassNotFoundException {
        KafkaBatchSpout spout = new KafkaBatchSpout(new KafkaSpoutConfig("127.0.0.1:9092", "t", "g", 10, 10,
            Map.of("auto.offset.reset", "earliest")));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream oos = new ObjectOutputStream(bytes)) {
            oos.writeObject(spout);
        }
        try (ObjectInputStream ois = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertInstanceOf(KafkaBatchSpout.class, ois.readObject());
        }
    }
}

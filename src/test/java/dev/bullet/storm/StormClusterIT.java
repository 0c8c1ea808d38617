package dev.bullet.storm;

import dev.bullet.local.EmbeddedKafka;
import dev.bullet.pubsub.KafkaPubSub;
import dev.bullet.pubsub.KafkaPubSubConfig;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.record.JsonCodec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The topology jar on a real multi-process Storm cluster ({@code scripts/storm-cluster.sh}: ZooKeeper, Nimbus and a
 * Supervisor as separate JVMs, real worker JVMs) with two workers and the json-log metrics consumer: metrics arrive
 * from both workers (the Kryo fix for metrics crossing workers), and a query is answered.
 */
@Timeout(600)
class StormClusterIT {
    private static final Path SCRIPT = Path.of("scripts/storm-cluster.sh").toAbsolutePath();

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static int run(Map<String, String> env, File log, String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log));
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("timed out: " + String.join(" ", command));
        }
        return p.exitValue();
    }

    @Test
    void twoWorkerTopologyOnARealClusterReportsMetricsAndAnswersQueries(@TempDir Path dir) throws Exception {
        Map<String, String> env = Map.of("STORM_HOME", dir.resolve("storm-home").toString(),
                                         "STORM_ZK_PORT", Integer.toString(freePort()),
                                         "STORM_NIMBUS_PORT", Integer.toString(freePort()),
                                         "STORM_SUP_PORT", Integer.toString(freePort()),
                                         "STORM_SLOTS", freePort() + "," + freePort());
        File log = dir.resolve("cluster.log").toFile();
        Path metrics = dir.resolve("metrics.jsonl");
        try (EmbeddedKafka kafka = EmbeddedKafka.onFreePorts(dir.resolve("kafka"))) {
            kafka.start();
            kafka.createTopics(Map.of("bullet.records", 1, "bullet.queries", 1, "bullet.responses", 2));
            Path conf = dir.resolve("cluster.yaml");
            Files.writeString(conf, String.join("\n",
                    "bullet.topology.name: bullet-cluster-it",
                    "bullet.topology.workers: 2",
                    "bullet.topology.datasource.kafka.bootstrap.servers: " + kafka.bootstrapServers(),
                    "bullet.pubsub.kafka.bootstrap.servers: " + kafka.bootstrapServers(),
                    "bullet.pubsub.kafka.response.partitions: 2",
                    "bullet.topology.metrics.enable: true",
                    "bullet.topology.metrics.built.in.enable: true",
                    "bullet.topology.metrics.built.in.emit.interval.mapping:",
                    "  default: 2",
                    "bullet.topology.metrics.classes: [json-log]",
                    "bullet.topology.metrics.json.path: " + metrics,
                    ""));
            try {
                assertEquals(0, run(env, log, SCRIPT.toString(), "start"), "cluster start; see " + log);
                assertEquals(0, run(env, log, SCRIPT.toString(), "submit", "--bullet-conf", conf.toString(),
                                    "-c", "topology.max.spout.pending=10"), "submit; see " + log);
                awaitMetricsFromWorkers(metrics, 2);
                assertAnswers(kafka.bootstrapServers());
            } finally {
                run(env, log, SCRIPT.toString(), "stop");
            }
        }
    }

    private static void awaitMetricsFromWorkers(Path metrics, int workers) throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        Set<Object> seen = new HashSet<>();
        while (System.nanoTime() < deadline) {
            if (Files.exists(metrics)) {
                for (String line : Files.readAllLines(metrics)) {
                    Map<String, Object> point = JsonCodec.parseMap(line);
                    if ("memory.heap.used".equals(point.get("name"))) {
                        seen.add(point.get("worker"));
                    }
                }
                if (seen.size() >= workers) {
                    return;
                }
            }
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos()); // poll interval
        }
        fail("metrics from " + workers + " workers expected, saw " + seen);
    }

    @SuppressWarnings("unchecked")
    private static void assertAnswers(String bootstrap) {
        KafkaPubSub pubSub = new KafkaPubSub(new KafkaPubSubConfig(bootstrap, "bullet.queries", "bullet.responses", 2, Map.of()));
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Publisher queries = pubSub.requestPublisher();
             Subscriber results = pubSub.responseSubscriber(List.of(1));
             KafkaProducer<byte[], byte[]> firehose = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
            while (System.nanoTime() < deadline) {
                String wanted = "cluster-" + UUID.randomUUID();
                String id = UUID.randomUUID().toString();
                queries.send(PubSubMessage.query(id, "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\""
                                                     + wanted + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":20000}", 1));
                long until = System.nanoTime() + Duration.ofSeconds(25).toNanos();
                while (System.nanoTime() < until) {
                    firehose.send(new ProducerRecord<>("bullet.records", ("{\"id\":\"" + wanted + "\"}").getBytes(StandardCharsets.UTF_8)));
                    firehose.flush();
                    for (PubSubMessage m : results.receive(Duration.ofMillis(500))) {
                        if (m.id().equals(id) && m.signal() == Signal.COMPLETE) {
                            List<Object> records = (List<Object>) JsonCodec.parseMap(m.payload()).get("records");
                            if (records.size() == 1) {
                                return;
                            }
                        }
                    }
                }
            }
            fail("no query was answered by the cluster");
        }
    }
}

package dev.bullet.bench;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.local.ClusterTopology;
import dev.bullet.local.EmbeddedKafka;
import dev.bullet.record.JsonCodec;
import dev.bullet.testing.Ports;
import dev.bullet.testing.TopologyHarness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --cluster} of the pipeline benchmarks: the topology on a real multi-process Storm cluster on loopback
 * ({@code scripts/storm-cluster.sh} through {@link ClusterTopology}: ZooKeeper, Nimbus, Supervisors and worker JVMs,
 * on free ports, so it runs beside another cluster), the embedded broker, load generator and result client staying in
 * the benchmark's JVM as in local mode. The Filter's latency comes from the {@code json-log} metrics consumer's file;
 * with a JFR directory every worker records a profile there ({@code worker-PORT.jfr}, written when it stops).
 */
final class ClusterBench {
    static final String METRICS_FILE = "metrics.jsonl";
    /** Slot ports of the cluster: room for four workers, split evenly among the Supervisors. */
    static final int SLOTS = 4;

    private ClusterBench() {
    }

    /**
     * The benchmark's settings for a cluster run: {@code workers} worker JVMs, metrics through the json-log consumer
     * into {@code metricsFile} and, with {@code jfrDir}, a flight recording in every worker.
     */
    static Map<String, Object> settings(Map<String, Object> overrides, int workers, Path metricsFile, Path jfrDir) {
        Map<String, Object> out = new LinkedHashMap<>(overrides);
        out.put(SettingsTable.TOPOLOGY_WORKERS, workers);
        out.put(SettingsTable.METRICS_CLASSES, List.of("json-log"));
        out.put(SettingsTable.METRICS_JSON_PATH, metricsFile.toAbsolutePath().toString());
        out.putIfAbsent(SettingsTable.PUBSUB_KAFKA_RESPONSE_PARTITIONS, TopologyHarness.REPLY_PARTITION + 1);
        if (jfrDir != null) {
            out.put("topology.worker.childopts", jfrOption(jfrDir));
        }
        return out;
    }

    /** The worker JVM flag that records a profile into the directory, one file per worker (Storm fills the port in). */
    static String jfrOption(Path dir) {
        return "-XX:StartFlightRecording=filename=" + dir.toAbsolutePath() + "/worker-%WORKER-PORT%.jfr"
               + ",settings=profile,dumponexit=true";
    }

    /** A settings file of these values: one {@code key: value} line each, the value as JSON (which YAML reads). */
    static String yaml(Map<String, Object> settings) {
        StringBuilder out = new StringBuilder();
        settings.forEach((k, v) -> out.append(k).append(": ").append(JsonCodec.toJson(v)).append('\n'));
        return out.toString();
    }

    /** The environment of {@code storm-cluster.sh}: its Storm home and the ports of its daemons and slots. */
    static Map<String, String> environment(Path stormHome, int zooKeeper, int nimbus, int firstSupervisor, List<Integer> slots) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("STORM_HOME", stormHome.toAbsolutePath().toString());
        env.put("STORM_ZK_PORT", Integer.toString(zooKeeper));
        env.put("STORM_NIMBUS_PORT", Integer.toString(nimbus));
        env.put("STORM_SUP_PORT", Integer.toString(firstSupervisor));
        env.put("STORM_SLOTS", String.join(",", slots.stream().map(String::valueOf).toList()));
        return env;
    }

    /**
     * Starts the broker in this JVM and the cluster ({@code supervisors} of 1 or 2) with these settings, submits the
     * topology and waits until it answers. The cluster's output goes to {@code dir/cluster.log}; closing the harness
     * stops the cluster, then the broker.
     */
    static TopologyHarness start(Path dir, Map<String, Object> settings, int supervisors, Path stormHome) throws IOException {
        Path conf = dir.resolve("cluster.yaml");
        Files.writeString(conf, yaml(settings), StandardCharsets.UTF_8);
        List<Integer> slots = new ArrayList<>();
        for (int i = 0; i < SLOTS; i++) {
            slots.add(Ports.freePort());
        }
        Map<String, String> env = environment(stormHome, Ports.freePort(), Ports.freePort(),
                                              supervisors > 1 ? Ports.freePortPair() : Ports.freePort(), slots);
        EmbeddedKafka kafka = EmbeddedKafka.onFreePorts(dir.resolve("kafka"));
        kafka.start();
        ClusterTopology cluster;
        try {
            cluster = ClusterTopology.start(kafka, BulletSettings.load(conf, Map.of()), conf, supervisors, System.err,
                    new ClusterTopology.Launch(env, ProcessBuilder.Redirect.appendTo(dir.resolve("cluster.log").toFile())));
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
        return TopologyHarness.startOn(kafka, cluster.settings(), cluster);
    }
}

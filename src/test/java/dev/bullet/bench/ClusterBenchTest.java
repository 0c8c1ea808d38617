package dev.bullet.bench;

import dev.bullet.common.Cli;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a cluster benchmark hands the cluster: the settings file the submitted topology reads (the same settings the
 * benchmark's own clients use), the script's environment, and the per-step cores (no cluster started here: the
 * cluster itself is StormClusterIT's).
 */
class ClusterBenchTest {
    @TempDir
    Path dir;

    private static PipelineBenchmark.Options options(String... args) {
        return Cli.parse(new PipelineBenchmark.Options(), args);
    }

    @Test
    void theSettingsFileGivesTheTopologyTheBenchmarksSettings() throws Exception {
        PipelineBenchmark.Options o = options("--cluster", "--workers", "2", "--mix", "realistic", "--join-snapshots", "on");
        Path metrics = dir.resolve("metrics.jsonl");
        Map<String, Object> settings = ClusterBench.settings(PipelineBenchmark.settings(o, true), o.workers, metrics, dir);
        Path file = dir.resolve("cluster.yaml");
        Files.writeString(file, ClusterBench.yaml(settings));

        BulletSettings read = BulletSettings.load(file, Map.of());
        assertEquals(2, read.getInt(SettingsTable.TOPOLOGY_WORKERS));
        assertEquals(List.of("json-log"), read.getList(SettingsTable.METRICS_CLASSES),
                     "the workers write their metrics to a file: the benchmark's in-memory sink is in another JVM");
        assertEquals(metrics.toAbsolutePath().toString(), read.getString(SettingsTable.METRICS_JSON_PATH));
        assertEquals(Map.of("default", 60, "bullet_filter_latency", 1),
                     read.getIntMap(SettingsTable.METRICS_BUILT_IN_EMIT_INTERVAL_MAPPING));
        assertEquals(ResultFlow.PARTITION + 1, read.getInt(SettingsTable.PUBSUB_KAFKA_RESPONSE_PARTITIONS));
        assertEquals(86_400_000L, read.getLong(SettingsTable.QUERY_MAX_DURATION));
        assertTrue(read.getBoolean(SettingsTable.TOPOLOGY_JOIN_SNAPSHOT_ENABLE));
        assertTrue(read.getBoolean(SettingsTable.RECORD_INJECT_TIMESTAMP_ENABLE));
        String childopts = (String) read.passthrough().get("topology.worker.childopts");
        assertEquals("-XX:StartFlightRecording=filename=" + dir.toAbsolutePath() + "/worker-%WORKER-PORT%.jfr,"
                     + "settings=profile,dumponexit=true", childopts, "Storm's own key passes through, one flag");
    }

    @Test
    void withoutAWorkloadOrProfileNothingOfThemIsSet() throws Exception {
        PipelineBenchmark.Options o = options("--cluster");
        Map<String, Object> settings = ClusterBench.settings(PipelineBenchmark.settings(o, false), 1, dir.resolve("m"), null);
        assertFalse(settings.containsKey("topology.worker.childopts"));
        assertFalse(settings.containsKey(SettingsTable.TOPOLOGY_JOIN_SNAPSHOT_ENABLE), "the setting's default");
        Path file = dir.resolve("cluster.yaml");
        Files.writeString(file, ClusterBench.yaml(settings));
        BulletSettings read = BulletSettings.load(file, Map.of());
        assertFalse(read.getBoolean(SettingsTable.RECORD_INJECT_TIMESTAMP_ENABLE));
        assertEquals(2, read.getInt(SettingsTable.PUBSUB_KAFKA_RESPONSE_PARTITIONS), "the harness's reply partition exists");
    }

    @Test
    void theScriptGetsItsHomeAndPorts() {
        Map<String, String> env = ClusterBench.environment(dir, 2001, 2002, 2003, List.of(7001, 7002));
        assertEquals(Map.of("STORM_HOME", dir.toAbsolutePath().toString(), "STORM_ZK_PORT", "2001", "STORM_NIMBUS_PORT", "2002",
                            "STORM_SUP_PORT", "2003", "STORM_SLOTS", "7001,7002"), env);
    }

    @Test
    void coresAreSummedOverEveryProcessAndSplitByPart() {
        long second = 1_000_000_000L;
        Map<String, Long> byRole = new LinkedHashMap<>();
        for (String role : ProcessCpu.ROLES) {
            byRole.put(role, 0L);
        }
        byRole.put("worker", 2 * second); // 1 core over the 2 s below
        byRole.put("supervisor", second / 10);
        byRole.put("zookeeper", second / 10);
        Map<String, Object> cluster = PipelineBenchmark.cores(second, byRole, 2 * second, 15_000);
        assertEquals(1.6, cluster.get("cores_used"), "0.5 (this JVM) + 1.0 (workers) + 0.1 (daemons)");
        assertEquals(0.5, cluster.get("cores_bench_jvm"));
        assertEquals(1.0, cluster.get("cores_workers"));
        assertEquals(0.1, cluster.get("cores_storm_daemons"));
        assertEquals(9_375L, cluster.get("records_per_core"));

        Map<String, Object> local = PipelineBenchmark.cores(second, Map.of(), second, 10_000);
        assertEquals(Map.of("cores_used", 1.0, "records_per_core", 10_000L), local, "one JVM: nothing to split");
    }
}

package dev.bullet.storm;

import dev.bullet.BulletException;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.Component;
import dev.bullet.config.SettingsException;
import dev.bullet.config.SettingsTable;
import dev.bullet.testing.CommandLines;
import org.apache.storm.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The submission command line of SPEC §4.1: the seed's flags, overriding the YAML; unknown flags are errors. */
class BulletTopologyMainTest {
    @Test
    void seedFlagsOverrideTheSettingsFile(@TempDir Path dir) throws IOException {
        Path conf = dir.resolve("settings.yaml");
        Files.writeString(conf, "bullet.topology.datasource.spout.parallelism: 3\nbullet.topology.filter.bolt.memory.on.heap.load: 768\n");
        BulletTopologyMain.Arguments args = BulletTopologyMain.parse(new String[] {
            "--bullet-conf", conf.toString(), "--bullet-spout-parallelism", "2", "--bullet-spout-cpu-load", "150.5",
            "--bullet-spout-on-heap-memory-load", "1024", "--bullet-spout-off-heap-memory-load", "64",
            "--bullet-spout", "com.example.MySpout", "--bullet-spout-arg", "a", "--bullet-spout-arg", "b"});
        BulletSettings settings = BulletSettings.load(args.conf(), args.overrides());
        assertEquals(2, settings.component(Component.DATASOURCE_SPOUT).parallelism());
        assertEquals(150.5, settings.component(Component.DATASOURCE_SPOUT).cpuLoad());
        assertEquals(1024.0, settings.component(Component.DATASOURCE_SPOUT).onHeapMemoryMiB());
        assertEquals(64.0, settings.component(Component.DATASOURCE_SPOUT).offHeapMemoryMiB());
        assertEquals(768.0, settings.component(Component.FILTER_BOLT).onHeapMemoryMiB());
        assertEquals(List.of("a", "b"), settings.getList(SettingsTable.DATASOURCE_SPOUT_ARGS));
        assertEquals("com.example.MySpout", settings.getString(SettingsTable.DATASOURCE_SPOUT_CLASS_NAME));
    }

    @Test
    void spoutArgumentsWithoutASpoutOfYourOwnAreAnError(@TempDir Path dir) throws IOException {
        Path conf = Files.writeString(dir.resolve("s.yaml"), "{}\n");
        BulletTopologyMain.Arguments args = BulletTopologyMain.parse(new String[] {
            "--bullet-conf", conf.toString(), "--bullet-spout-arg", "a"});
        SettingsException e = assertThrows(SettingsException.class, () -> BulletSettings.load(args.conf(), args.overrides()));
        assertTrue(e.getMessage().contains("--bullet-spout"), e.getMessage());
    }

    @Test
    void unknownFlagsAndMissingConfAreErrors(@TempDir Path dir) throws IOException {
        Path conf = Files.writeString(dir.resolve("s.yaml"), "{}\n");
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> BulletTopologyMain.parse(new String[] {"--bullet-conf", conf.toString(), "--bullet-spout-parallel", "2"}));
        assertTrue(unknown.getMessage().contains("--bullet-spout-parallel"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BulletTopologyMain.parse(new String[] {"--bullet-spout-parallelism", "2"}));
        assertThrows(IllegalArgumentException.class, () -> BulletTopologyMain.parse(new String[] {"--bullet-conf"}));
        assertThrows(IllegalArgumentException.class, () -> BulletTopologyMain.parse(new String[] {"--bullet-conf", conf.toString(), "extra"}));
    }

    @Test
    void helpListsEveryFlagAndAnUnknownFlagIsAOneLineErrorWithExitTwo(@TempDir Path dir) throws IOException {
        CommandLines.assertHelpListsEveryFlag(CommandLines.parse(new BulletTopologyMain.Arguments(), "--help"),
            "BulletTopologyMain", List.of("--bullet-conf", "--bullet-spout", "--bullet-spout-parallelism", "--bullet-spout-cpu-load",
                "--bullet-spout-on-heap-memory-load", "--bullet-spout-off-heap-memory-load", "--bullet-spout-arg", "-c key=value"));
        Path conf = Files.writeString(dir.resolve("s.yaml"), "{}\n");
        CommandLines.Outcome unknown = CommandLines.parse(new BulletTopologyMain.Arguments(),
            "--bullet-conf", conf.toString(), "--bullet-spout-parallel", "2");
        CommandLines.assertOneLineUsageError(unknown, "--bullet-spout-parallel");
        assertTrue(unknown.stderr().contains("did you mean --bullet-spout-parallelism"), unknown.stderr());
        CommandLines.assertOneLineUsageError(CommandLines.parse(new BulletTopologyMain.Arguments()), "--bullet-conf");
    }

    @Test
    void aBadSpoutClassIsRejectedWhenTheTopologyIsBuiltNamingTheKey() {
        BulletSettings settings = BulletSettings.load(null, Map.of(SettingsTable.DATASOURCE_SPOUT_CLASS_NAME, "com.example.Missing"));
        BulletException e = assertThrows(BulletException.class, () -> BulletTopology.build(settings));
        assertTrue(e.getMessage().contains(SettingsTable.DATASOURCE_SPOUT_CLASS_NAME), e.getMessage());
    }

    @Test
    void aStormMetricsConsumerOfItsOwnIsRegisteredAsTheOriginalDid() {
        BulletSettings settings = BulletSettings.load(null, Map.of(SettingsTable.METRICS_ENABLE, true,
                SettingsTable.METRICS_CLASSES, List.of("json-log", "org.apache.storm.metric.LoggingMetricsConsumer")));
        List<?> registered = (List<?>) BulletTopology.config(settings).get(Config.TOPOLOGY_METRICS_CONSUMER_REGISTER);
        assertEquals(2, registered.size(), String.valueOf(registered));
        assertTrue(String.valueOf(registered.get(1)).contains("org.apache.storm.metric.LoggingMetricsConsumer"),
                   String.valueOf(registered));
        BulletSettings notAConsumer = BulletSettings.load(null, Map.of(SettingsTable.METRICS_ENABLE, true,
                SettingsTable.METRICS_CLASSES, List.of("java.lang.String")));
        BulletException e = assertThrows(BulletException.class, () -> BulletTopology.config(notAConsumer));
        assertTrue(e.getMessage().contains("IMetricsConsumer"), e.getMessage());
    }

    @Test
    void aStormKeyWithAValueStormRefusesIsAnErrorNamingItBeforeAnythingRuns(@TempDir Path dir) throws IOException {
        Path conf = Files.writeString(dir.resolve("s.yaml"), "topology.workers: \"x\"\n");
        BulletException e = assertThrows(BulletException.class,
                () -> BulletTopologyMain.checkedConfig(BulletSettings.load(conf, Map.of())));
        assertTrue(e.getMessage().contains("TOPOLOGY_WORKERS") || e.getMessage().contains("topology.workers"), e.getMessage());
        BulletTopologyMain.checkedConfig(BulletSettings.load(Path.of("src/test/resources/config/seed_settings.yaml"),
                Map.of(SettingsTable.METRICS_CLASSES, List.of("json-log"))));
    }

    @Test
    void theSeedSettingsBlockBuildsATopology() {
        BulletSettings settings = BulletSettings.load(Path.of("src/test/resources/config/seed_settings.yaml"),
                Map.of(SettingsTable.METRICS_CLASSES, List.of("json-log")));
        assertEquals(1000, settings.tickIntervalMs());
        assertTrue(BulletTopology.build(settings).get_bolts().containsKey(TopologyNames.Components.FILTER_BOLT));
    }
}

package dev.bullet.storm;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.StormDefaults;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.policy.WaitStrategyPark;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Storm config the topology is submitted with: idle executors park, and the user's topology.* keys win. */
class BulletTopologyTest {
    @Test
    void idleSpoutsAndBoltsParkForMillisecondsInsteadOfStormsProgressiveWait() {
        Config conf = BulletTopology.config(BulletSettings.load(null, Map.of()));
        assertEquals(WaitStrategyPark.class.getName(), conf.get(Config.TOPOLOGY_SPOUT_WAIT_STRATEGY));
        assertEquals(WakeablePark.class.getName(), conf.get(Config.TOPOLOGY_BOLT_WAIT_STRATEGY));
        assertEquals(10_000L, conf.get(Config.TOPOLOGY_SPOUT_WAIT_PARK_MICROSEC));
        assertEquals(10_000L, conf.get(Config.TOPOLOGY_BOLT_WAIT_PARK_MICROSEC));
        // the key names Bullet uses are Storm's own
        assertEquals(Config.TOPOLOGY_BOLT_WAIT_PARK_MICROSEC, StormDefaults.BOLT_WAIT_PARK_MICROS);
        assertEquals(Config.TOPOLOGY_SPOUT_WAIT_PARK_MICROSEC, StormDefaults.SPOUT_WAIT_PARK_MICROS);
    }

    @Test
    void topologyKeysOfTheSettingsWinOverBulletsChoice() {
        Config conf = BulletTopology.config(BulletSettings.load(null, Map.of(
                Config.TOPOLOGY_BOLT_WAIT_PARK_MICROSEC, 500,
                Config.TOPOLOGY_SPOUT_WAIT_STRATEGY, "org.apache.storm.policy.WaitStrategyProgressive")));
        assertEquals(500, ((Number) conf.get(Config.TOPOLOGY_BOLT_WAIT_PARK_MICROSEC)).intValue());
        assertEquals("org.apache.storm.policy.WaitStrategyProgressive", conf.get(Config.TOPOLOGY_SPOUT_WAIT_STRATEGY));
        assertEquals(WakeablePark.class.getName(), conf.get(Config.TOPOLOGY_BOLT_WAIT_STRATEGY));
    }

    @Test
    void oneWorkerInLocalModeParksItsBoltsLongerUnlessTheSettingsChoose() {
        Config local = LocalClusterRunner.config(BulletSettings.load(null, Map.of()));
        assertEquals(StormDefaults.ONE_WORKER_BOLT_PARK_MICROS, local.get(Config.TOPOLOGY_BOLT_WAIT_PARK_MICROSEC));
        assertEquals(10_000L, local.get(Config.TOPOLOGY_SPOUT_WAIT_PARK_MICROSEC));

        Config chosen = LocalClusterRunner.config(BulletSettings.load(null, Map.of(Config.TOPOLOGY_BOLT_WAIT_PARK_MICROSEC, 2000)));
        assertEquals(2000, ((Number) chosen.get(Config.TOPOLOGY_BOLT_WAIT_PARK_MICROSEC)).intValue());

        Config twoWorkers = LocalClusterRunner.config(BulletSettings.load(null, Map.of("bullet.topology.workers", 2)));
        assertEquals(10_000L, twoWorkers.get(Config.TOPOLOGY_BOLT_WAIT_PARK_MICROSEC)); // tuples between workers wake nobody

        Config plainPark = LocalClusterRunner.config(BulletSettings.load(null, Map.of(
                Config.TOPOLOGY_BOLT_WAIT_STRATEGY, WaitStrategyPark.class.getName())));
        assertEquals(10_000L, plainPark.get(Config.TOPOLOGY_BOLT_WAIT_PARK_MICROSEC)); // nothing would wake it
    }

    @Test
    void theSubmissionNoteNamesTheLoopsInOneLine() {
        BulletSettings settings = BulletSettings.load(null, Map.of());
        StormTopology topology = BulletTopology.build(settings);
        String note = BulletTopologyMain.cycleNote(topology, "t");
        assertTrue(note.contains(TopologyNames.Components.JOIN_BOLT) && note.contains(TopologyNames.Components.FILTER_BOLT),
                   note);
        assertTrue(note.contains("by design") && !note.contains("\n"), note);
    }
}

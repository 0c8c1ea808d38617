package dev.bullet.storm;

import dev.bullet.BulletException;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.config.StormDefaults;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.StormTopology;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The topology in Storm's in-process {@code LocalCluster}: the same topology and config as {@code storm jar}
 * submits to a cluster. Used by local mode ({@code dev.bullet.local}), which owns the Kafka broker around it.
 * Closing it kills the topology and stops the cluster.
 */
public final class LocalClusterRunner implements AutoCloseable {
    /**
     * Settings of the in-process Storm daemons, for an idle stack that stays quiet. Every 30 s by default the
     * supervisor's localizer opens fresh ZooKeeper clients to look for changed blobs and clean its cache: a burst of
     * threads and CPU for nothing in local mode, where the topology's code never changes. Heartbeats and the daemons'
     * checks run a few times less often than Storm's defaults (each is a ZooKeeper write or a local state file), still
     * well inside the 30 s after which a silent worker counts as dead. Nimbus hands assignments to the one local
     * supervisor with one thread, not ten that each poll their queue.
     */
    static final Map<String, Object> DAEMON_CONF = Map.of(
            "supervisor.localizer.update.blob.interval.secs", 3600,
            "supervisor.localizer.cleanup.interval.ms", 3_600_000,
            "worker.heartbeat.frequency.secs", 5,
            "task.heartbeat.frequency.secs", 10,
            "supervisor.heartbeat.frequency.secs", 15,
            "nimbus.monitor.freq.secs", 30,
            "storm.daemon.metrics.reporter.interval.secs", 60,
            "nimbus.assignments.service.threads", 1,
            // the worker runs in this JVM: its shutdown is over in well under Storm's default 3 s, which every
            // stop of the local topology (and every test's) otherwise waits out
            "supervisor.worker.shutdown.sleep.secs", 1);

    private final String name;
    private LoopbackZookeeper zookeeper;
    private LocalCluster cluster;

    private LocalClusterRunner(String name) {
        this.name = name;
    }

    /** Builds the topology from {@code settings} and submits it to a new local cluster. */
    public static LocalClusterRunner start(BulletSettings settings) {
        return start(settings, BulletTopology.build(settings));
    }

    /** Same, with a topology built from {@code settings} by the caller (a test's, with a part that misbehaves). */
    static LocalClusterRunner start(BulletSettings settings, StormTopology topology) {
        LocalClusterRunner runner = new LocalClusterRunner(settings.getString(SettingsTable.TOPOLOGY_NAME));
        try {
            runner.zookeeper = LoopbackZookeeper.start();
            runner.cluster = new LocalCluster.Builder().withDaemonConf(daemonConf(runner.zookeeper)).build();
            runner.cluster.submitTopology(runner.name, config(settings), topology);
        } catch (Exception e) {
            runner.close();
            throw new BulletException("cannot start the topology in local mode: " + e.getMessage(), e);
        }
        return runner;
    }

    /** {@link #DAEMON_CONF} with the cluster's ZooKeeper: ours on 127.0.0.1, not Storm's on every interface. */
    static Map<String, Object> daemonConf(LoopbackZookeeper zookeeper) {
        Map<String, Object> conf = new HashMap<>(DAEMON_CONF);
        conf.put(Config.STORM_ZOOKEEPER_SERVERS, List.of(zookeeper.host()));
        conf.put(Config.STORM_ZOOKEEPER_PORT, zookeeper.port());
        return conf;
    }

    /**
     * The topology's config, with one change: a topology of one worker parks its idle bolts 100 ms
     * ({@link StormDefaults#ONE_WORKER_BOLT_PARK_MICROS}) unless the settings choose, because every tuple then wakes
     * its bolt ({@link WakeablePark}).
     */
    static Config config(BulletSettings settings) {
        Config conf = BulletTopology.config(settings);
        boolean oneWorker = ((Number) conf.get(Config.TOPOLOGY_WORKERS)).intValue() == 1;
        if (oneWorker && !settings.passthrough().containsKey(StormDefaults.BOLT_WAIT_PARK_MICROS)
            && StormDefaults.WAKEABLE_PARK.equals(conf.get(StormDefaults.BOLT_WAIT_STRATEGY))) {
            conf.put(StormDefaults.BOLT_WAIT_PARK_MICROS, StormDefaults.ONE_WORKER_BOLT_PARK_MICROS);
        }
        return conf;
    }

    @Override
    public void close() {
        try {
            closeCluster();
        } finally {
            if (zookeeper != null) {
                zookeeper.close();
                zookeeper = null;
            }
        }
    }

    private void closeCluster() {
        if (cluster == null) {
            return;
        }
        try {
            cluster.killTopology(name);
        } catch (Exception alreadyGone) {
            // the topology is gone already: closing the cluster below is what matters
        }
        try {
            cluster.close();
        } catch (Exception e) {
            throw new BulletException("cannot stop the local cluster", e);
        } finally {
            cluster = null;
        }
    }
}

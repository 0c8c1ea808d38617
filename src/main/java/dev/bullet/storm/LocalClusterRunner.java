package dev.bullet.storm;

import dev.bullet.BulletException;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import org.apache.storm.LocalCluster;

import java.util.Map;

/**
 * The topology in Storm's in-process {@code LocalCluster}: the same topology and config as {@code storm jar}
 * submits to a cluster. Used by local mode ({@code dev.bullet.local}), which owns the Kafka broker around it.
 * Closing it kills the topology and stops the cluster.
 */
public final class LocalClusterRunner implements AutoCloseable {
    /**
     * Settings of the in-process Storm daemons. Every 30 s by default the supervisor's localizer opens fresh
     * ZooKeeper clients to look for changed blobs and clean its cache: a burst of threads and CPU for nothing in
     * local mode, where the topology's code never changes.
     */
    static final Map<String, Object> DAEMON_CONF = Map.of(
            "supervisor.localizer.update.blob.interval.secs", 3600,
            "supervisor.localizer.cleanup.interval.ms", 3_600_000);

    private final String name;
    private LocalCluster cluster;

    private LocalClusterRunner(String name) {
        this.name = name;
    }

    /** Builds the topology from {@code settings} and submits it to a new local cluster. */
    public static LocalClusterRunner start(BulletSettings settings) {
        LocalClusterRunner runner = new LocalClusterRunner(settings.getString(SettingsTable.TOPOLOGY_NAME));
        try {
            runner.cluster = new LocalCluster.Builder().withDaemonConf(DAEMON_CONF).build();
            runner.cluster.submitTopology(runner.name, BulletTopology.config(settings), BulletTopology.build(settings));
        } catch (Exception e) {
            runner.close();
            throw new BulletException("cannot start the topology in local mode: " + e.getMessage(), e);
        }
        return runner;
    }

    @Override
    public void close() {
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

package dev.bullet.local;

import dev.bullet.BulletException;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code bullet-local.sh --cluster}: the topology on a real multi-process Storm cluster on loopback instead of
 * Storm's local mode — ZooKeeper, Nimbus and N Supervisors as separate JVMs, real worker JVMs, the topology jar
 * submitted as {@code storm jar} would — all through {@code scripts/storm-cluster.sh} (default Storm home, so its
 * {@code workers}, {@code rebalance} and {@code stop} commands reach this cluster too). The user's settings file is
 * passed on with both Kafka clients pointed at the embedded broker; keys that do not start with {@code bullet.}
 * pass through to Storm as on any cluster. Closing it stops the whole cluster.
 */
public final class ClusterTopology implements AutoCloseable {
    static final long START_TIMEOUT_SECONDS = 600; // a first run builds the Storm home from Maven Central
    static final long SUBMIT_TIMEOUT_SECONDS = 180;
    static final long STOP_TIMEOUT_SECONDS = 90;
    private static final Logger LOG = LoggerFactory.getLogger(ClusterTopology.class);

    private final Path script;
    private final BulletSettings settings;
    private final Path conf;
    private final Launch launch;
    private boolean running;

    /**
     * How {@code storm-cluster.sh} is run: extra environment (its {@code STORM_HOME}, {@code STORM_ZK_PORT}, ...
     * variables) and where its output goes.
     */
    public record Launch(Map<String, String> environment, ProcessBuilder.Redirect output) {
        /** The script's defaults (Storm home target/storm-home, the standard ports), its output on this JVM's. */
        public static final Launch DEFAULT = new Launch(Map.of(), ProcessBuilder.Redirect.INHERIT);
    }

    private ClusterTopology(Path script, BulletSettings settings, Path conf, Launch launch) {
        this.script = script;
        this.settings = settings;
        this.conf = conf;
        this.launch = launch;
    }

    /**
     * Starts the cluster and submits the topology; returns once it is submitted (not yet answering).
     *
     * @param bulletConf the user's settings file, or null
     */
    public static ClusterTopology start(EmbeddedKafka kafka, BulletSettings base, Path bulletConf, int supervisors,
                                        PrintStream progress) {
        return start(kafka, base, bulletConf, supervisors, progress, Launch.DEFAULT);
    }

    /** As {@link #start(EmbeddedKafka, BulletSettings, Path, int, PrintStream)}, the script run as {@code launch} says. */
    public static ClusterTopology start(EmbeddedKafka kafka, BulletSettings base, Path bulletConf, int supervisors,
                                        PrintStream progress, Launch launch) {
        BulletSettings settings = LocalTopology.pointAtBroker(kafka, base);
        Path home = Path.of(System.getProperty("bullet.home", "")).toAbsolutePath();
        Path script = home.resolve("scripts/storm-cluster.sh");
        if (!Files.isExecutable(script)) {
            throw new BulletException("--cluster needs " + script + " (run bullet-local.sh from the project)");
        }
        Path conf = writeConf(bulletConf, kafka.bootstrapServers());
        ClusterTopology cluster = new ClusterTopology(script, settings, conf, launch);
        try {
            progress.println("Starting a Storm cluster: ZooKeeper, Nimbus, " + supervisors + " Supervisor(s) ...");
            cluster.running = true;
            cluster.run(START_TIMEOUT_SECONDS, "start", "--supervisors", Integer.toString(supervisors));
            progress.println("Submitting the topology (" + settings.getInt(SettingsTable.TOPOLOGY_WORKERS)
                             + " worker(s)) as 'storm jar' would ...");
            cluster.run(SUBMIT_TIMEOUT_SECONDS, "submit", "--bullet-conf", conf.toString());
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** The user's settings with the embedded broker's address, as a file for the submission. */
    private static Path writeConf(Path bulletConf, String bootstrap) {
        Map<String, Object> yaml = new LinkedHashMap<>();
        try {
            if (bulletConf != null) {
                Object loaded = new Yaml(new SafeConstructor(new LoaderOptions()))
                        .load(Files.readString(bulletConf, StandardCharsets.UTF_8));
                if (loaded instanceof Map<?, ?> map) {
                    map.forEach((k, v) -> yaml.put(String.valueOf(k), v));
                }
            }
            yaml.put(SettingsTable.DATASOURCE_KAFKA_BOOTSTRAP_SERVERS, bootstrap);
            yaml.put(SettingsTable.PUBSUB_KAFKA_BOOTSTRAP_SERVERS, bootstrap);
            DumperOptions options = new DumperOptions();
            options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
            Path file = Files.createTempFile("bullet-cluster-", ".yaml");
            file.toFile().deleteOnExit();
            Files.writeString(file, new Yaml(options).dump(yaml), StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new BulletException("cannot write the settings for the cluster: " + e, e);
        }
    }

    private void run(long timeoutSeconds, String... args) {
        List<String> command = new ArrayList<>();
        command.add(script.toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(launch.output());
        pb.environment().putAll(launch.environment());
        try {
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new BulletException("storm-cluster.sh " + args[0] + " did not finish within " + timeoutSeconds + " s");
            }
            if (p.exitValue() != 0) {
                throw new BulletException("storm-cluster.sh " + args[0] + " failed (exit " + p.exitValue() + "); its logs are under "
                                          + launch.environment().getOrDefault("STORM_HOME", "target/storm-home") + "/logs");
            }
        } catch (IOException e) {
            throw new BulletException("cannot run " + script + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BulletException("interrupted while running storm-cluster.sh " + args[0], e);
        }
    }

    /** The effective settings (with the embedded broker's address). */
    public BulletSettings settings() {
        return settings;
    }

    /** Stops the workers, Supervisors, Nimbus and ZooKeeper. */
    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        try {
            run(STOP_TIMEOUT_SECONDS, "stop");
        } catch (BulletException e) {
            LOG.warn("Could not stop the Storm cluster cleanly: {}", e.getMessage());
        }
        try {
            Files.deleteIfExists(conf);
        } catch (IOException e) {
            LOG.debug("cannot delete {}", conf, e);
        }
    }
}

package dev.bullet.storm;

import dev.bullet.BulletException;
import dev.bullet.common.Cli;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.Component;
import dev.bullet.config.SettingsTable;
import dev.bullet.pubsub.KafkaPubSubFactory;
import org.apache.storm.Config;
import org.apache.storm.StormSubmitter;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.utils.Utils;
import org.apache.storm.validation.ConfigValidation;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code storm jar target/bullet-storm-<v>.jar dev.bullet.storm.BulletTopologyMain --bullet-conf FILE [flags]}
 * (SPEC §4.1): loads and validates the settings, builds the topology and submits it. {@code -c key=value} options
 * of the storm CLI arrive as {@code storm.options} and are applied by Storm after this config, so they win.
 */
public final class BulletTopologyMain {
    private BulletTopologyMain() {
    }

    /** The command line: the settings file and the flag overrides. */
    @Command(name = "BulletTopologyMain", sortOptions = false,
             customSynopsis = "storm jar bullet-storm.jar dev.bullet.storm.BulletTopologyMain --bullet-conf FILE [options] [-c key=value ...]",
             description = "Submits the Bullet topology (SPEC section 4.1).",
             footer = "Flags override the YAML; -c options of the storm command override Storm's config.")
    static final class Arguments implements Cli.Validated {
        @Option(names = "--bullet-conf", paramLabel = "FILE", required = true,
                description = "settings YAML (see conf/bullet_settings.yaml); required")
        private Path conf;
        @Option(names = "--bullet-spout", paramLabel = "CLASS",
                description = "class of your own DataSource spout (the original Bullet's flag; "
                              + "bullet.topology.datasource.spout.class.name)")
        private String spoutClass;
        @Option(names = "--bullet-spout-parallelism", paramLabel = "N", description = "DataSource spout parallelism")
        private String spoutParallelism;
        @Option(names = "--bullet-spout-cpu-load", paramLabel = "X",
                description = "DataSource spout CPU load (percent of a core)")
        private String spoutCpuLoad;
        @Option(names = "--bullet-spout-on-heap-memory-load", paramLabel = "MiB", description = "DataSource spout on-heap memory")
        private String spoutOnHeapMemory;
        @Option(names = "--bullet-spout-off-heap-memory-load", paramLabel = "MiB",
                description = "DataSource spout off-heap memory")
        private String spoutOffHeapMemory;
        @Option(names = "--bullet-spout-arg", paramLabel = "S",
                description = "argument for a custom DataSource spout (repeatable)")
        private List<String> spoutArgs = new ArrayList<>();
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        @Override
        public void validate() {
            if (!Files.isReadable(conf)) {
                throw new Cli.UsageException("cannot read --bullet-conf " + conf);
            }
        }

        Path conf() {
            return conf;
        }

        /** The settings the flags set; the values are checked when the settings load. */
        Map<String, Object> overrides() {
            Map<String, Object> overrides = new LinkedHashMap<>();
            putIfGiven(overrides, SettingsTable.DATASOURCE_SPOUT_CLASS_NAME, spoutClass);
            putIfGiven(overrides, Component.DATASOURCE_SPOUT.parallelismKey(), spoutParallelism);
            putIfGiven(overrides, Component.DATASOURCE_SPOUT.cpuLoadKey(), spoutCpuLoad);
            putIfGiven(overrides, Component.DATASOURCE_SPOUT.onHeapMemoryKey(), spoutOnHeapMemory);
            putIfGiven(overrides, Component.DATASOURCE_SPOUT.offHeapMemoryKey(), spoutOffHeapMemory);
            if (!spoutArgs.isEmpty()) {
                overrides.put(SettingsTable.DATASOURCE_SPOUT_ARGS, List.copyOf(spoutArgs));
            }
            return overrides;
        }

        private static void putIfGiven(Map<String, Object> overrides, String key, String value) {
            if (value != null) {
                overrides.put(key, value);
            }
        }

        boolean help() {
            return help;
        }
    }

    public static void main(String[] args) throws Exception {
        Arguments parsed = new Arguments();
        int early = Cli.parse(parsed, args, System.out, System.err);
        if (early != Cli.RUN) {
            System.exit(early);
        }
        try {
            BulletSettings settings = BulletSettings.load(parsed.conf(), parsed.overrides());
            String name = settings.getString(SettingsTable.TOPOLOGY_NAME);
            StormTopology topology = BulletTopology.build(settings);
            Config config = checkedConfig(settings); // before anything reaches Kafka
            System.err.println(cycleNote(topology, name));
            try {
                KafkaPubSubFactory.createStoreTopics(settings); // what outlives the topology: queries, Join state
            } catch (RuntimeException e) {
                System.err.println("warning: " + e.getMessage() + "; the topology runs without what is missing (see the"
                                   + " README's query store and Join state)");
            }
            StormSubmitter.submitTopology(name, config, topology);
        } catch (BulletException e) {
            // Settings that do not validate are a bad command line, as before: exit 2.
            System.err.println("error: " + e.getMessage());
            System.exit(Cli.EXIT_USAGE);
        }
    }

    /**
     * One line on the topology's cycles, which Storm reports at submission as a warning with a stack trace (the
     * shipped log4j2 configurations drop that trace): the COMPLETE signals from the Join back to the Filter and
     * decode bolts make a loop, and so do the Result bolt's confirmations back to the Join, by design (SPEC §3).
     */
    static String cycleNote(StormTopology topology, String name) {
        List<List<String>> cycles = Utils.findComponentCycles(topology, name);
        if (cycles.isEmpty()) {
            return "Submitting topology " + name + ".";
        }
        StringBuilder loops = new StringBuilder();
        for (List<String> cycle : cycles) {
            loops.append(loops.length() == 0 ? "" : "; ").append(String.join(" -> ", cycle));
        }
        return "Submitting topology " + name + "; its loops (" + loops + ") carry the Join's COMPLETE signal and the Result bolt's "
               + "confirmations back, by design: Storm's \"contains cycles\" notice is not an error.";
    }

    /**
     * The topology's Storm config, checked as Storm checks it at submission: a Storm key of {@code --bullet-conf} with a
     * value Storm refuses ({@code topology.workers: "x"}) is a {@link BulletException} naming it.
     */
    static Config checkedConfig(BulletSettings settings) {
        Config config = BulletTopology.config(settings);
        try {
            ConfigValidation.validateTopoConf(config);
        } catch (IllegalArgumentException e) {
            throw new BulletException("Storm refuses the topology's config: " + e.getMessage());
        }
        return config;
    }

    /** Reads the command line; throws {@link Cli.UsageException} for one that cannot run. */
    static Arguments parse(String[] args) {
        return Cli.parse(new Arguments(), args);
    }
}

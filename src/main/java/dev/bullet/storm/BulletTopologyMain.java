package dev.bullet.storm;

import dev.bullet.BulletException;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.Component;
import dev.bullet.config.SettingsTable;
import org.apache.storm.StormSubmitter;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.utils.Utils;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code storm jar target/bullet-storm-<v>.jar dev.bullet.storm.BulletTopologyMain --bullet-conf FILE [flags]}
 * (SPEC §4.1): loads and validates the settings, builds the topology and submits it. {@code -c key=value} options
 * of the storm CLI arrive as {@code storm.options} and are applied by Storm after this config, so they win.
 */
public final class BulletTopologyMain {
    static final String USAGE = String.join("\n",
            "Usage: storm jar bullet-storm.jar dev.bullet.storm.BulletTopologyMain --bullet-conf FILE [options] [-c key=value ...]",
            "",
            "  --bullet-conf FILE                       settings YAML (see conf/bullet_settings.yaml); required",
            "  --bullet-spout-parallelism N             DataSource spout parallelism",
            "  --bullet-spout-cpu-load X                DataSource spout CPU load (percent of a core)",
            "  --bullet-spout-on-heap-memory-load MiB   DataSource spout on-heap memory",
            "  --bullet-spout-off-heap-memory-load MiB  DataSource spout off-heap memory",
            "  --bullet-spout-arg S                     argument for a custom DataSource spout (repeatable)",
            "  --help                                   this text",
            "",
            "Flags override the YAML; -c options of the storm command override Storm's config.");

    private BulletTopologyMain() {
    }

    /** Parsed command line: the settings file and the flag overrides. */
    record Arguments(Path conf, Map<String, Object> overrides, boolean help) {
    }

    public static void main(String[] args) throws Exception {
        Arguments parsed;
        try {
            parsed = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        if (parsed.help()) {
            System.out.println(USAGE);
            return;
        }
        try {
            BulletSettings settings = BulletSettings.load(parsed.conf(), parsed.overrides());
            String name = settings.getString(SettingsTable.TOPOLOGY_NAME);
            StormTopology topology = BulletTopology.build(settings);
            System.err.println(cycleNote(topology, name));
            StormSubmitter.submitTopology(name, BulletTopology.config(settings), topology);
        } catch (BulletException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(2);
        }
    }

    /**
     * One line on the topology's cycles, which Storm reports at submission as a warning with a stack trace (the
     * shipped log4j2 configurations drop that trace): the COMPLETE signals from the Join back to the Filter and
     * decode bolts make a loop, by design (SPEC §3).
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
        return "Submitting topology " + name + "; its loops (" + loops + ") carry the Join's COMPLETE signal back, "
               + "by design: Storm's \"contains cycles\" notice is not an error.";
    }

    static Arguments parse(String[] args) {
        Path conf = null;
        Map<String, Object> overrides = new LinkedHashMap<>();
        List<String> spoutArgs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help") || flag.equals("-h")) {
                return new Arguments(null, Map.of(), true);
            }
            if (!flag.startsWith("--bullet-")) {
                throw new IllegalArgumentException("unknown argument '" + flag + "'");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            switch (flag) {
                case "--bullet-conf":
                    conf = Path.of(value);
                    if (!Files.isReadable(conf)) {
                        throw new IllegalArgumentException("cannot read --bullet-conf " + value);
                    }
                    break;
                case "--bullet-spout-parallelism":
                    overrides.put(Component.DATASOURCE_SPOUT.parallelismKey(), value);
                    break;
                case "--bullet-spout-cpu-load":
                    overrides.put(Component.DATASOURCE_SPOUT.cpuLoadKey(), value);
                    break;
                case "--bullet-spout-on-heap-memory-load":
                    overrides.put(Component.DATASOURCE_SPOUT.onHeapMemoryKey(), value);
                    break;
                case "--bullet-spout-off-heap-memory-load":
                    overrides.put(Component.DATASOURCE_SPOUT.offHeapMemoryKey(), value);
                    break;
                case "--bullet-spout-arg":
                    spoutArgs.add(value);
                    break;
                default:
                    throw new IllegalArgumentException("unknown flag '" + flag + "'");
            }
        }
        if (conf == null) {
            throw new IllegalArgumentException("--bullet-conf is required");
        }
        if (!spoutArgs.isEmpty()) {
            overrides.put(SettingsTable.DATASOURCE_SPOUT_ARGS, spoutArgs);
        }
        return new Arguments(conf, overrides, false);
    }

    static void printUsage(PrintStream out) {
        out.println(USAGE);
    }
}

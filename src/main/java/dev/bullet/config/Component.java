package dev.bullet.config;

/**
 * The topology's components, as far as settings are concerned (SPEC §3.7): each has four resource keys,
 * {@code bullet.topology.<segment>.parallelism|cpu.load|memory.on.heap.load|memory.off.heap.load}, generated in
 * {@link SettingsTable} from this list and read back as one {@link ComponentSpec} with
 * {@link BulletSettings#component(Component)}.
 */
public enum Component {
    /** Reads the Kafka firehose in batches. */
    DATASOURCE_SPOUT("datasource.spout", "DataSource spout"),
    /** Decodes the raw messages of a batch into records. */
    DATASOURCE_BOLT("datasource.bolt", "DataSource bolt"),
    /** Reads queries and signals from the PubSub. */
    QUERY_SPOUT("query.spout", "Query spout"),
    /** Runs the active queries over the records. */
    FILTER_BOLT("filter.bolt", "Filter bolt"),
    /** Merges partial results; owns windows and durations. */
    JOIN_BOLT("join.bolt", "Join bolt"),
    /** Publishes results to the PubSub. */
    RESULT_BOLT("result.bolt", "Result bolt"),
    /** The clock that reaches every Filter and Join task. */
    TICK_SPOUT("tick.spout", "Tick spout");

    private final String segment;
    private final String title;

    Component(String segment, String title) {
        this.segment = segment;
        this.title = title;
    }

    /** The dotted key segment, e.g. {@code filter.bolt}. */
    public String segment() {
        return segment;
    }

    /** A human name for documentation, e.g. {@code Filter bolt}. */
    public String title() {
        return title;
    }

    /** {@code bullet.topology.<segment>.parallelism}: number of executors. */
    public String parallelismKey() {
        return key("parallelism");
    }

    /** {@code bullet.topology.<segment>.cpu.load}: percent of a core per executor. */
    public String cpuLoadKey() {
        return key("cpu.load");
    }

    /** {@code bullet.topology.<segment>.memory.on.heap.load}: MiB per executor. */
    public String onHeapMemoryKey() {
        return key("memory.on.heap.load");
    }

    /** {@code bullet.topology.<segment>.memory.off.heap.load}: MiB per executor. */
    public String offHeapMemoryKey() {
        return key("memory.off.heap.load");
    }

    private String key(String resource) {
        return "bullet.topology." + segment + "." + resource;
    }
}

package dev.bullet.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The settings of the original Bullet (bullet-storm 0.4 to 1.x, bullet-core, bullet-kafka) that this project does not
 * define under the same name, so that a team's {@code bullet_settings.yaml} loads as it is: each is taken under its
 * name here ({@link Verdict#renamed}), dropped with a warning that says why it has no effect here
 * ({@link Verdict#ignored}), or refused with the reason and what to use instead ({@link Verdict#refused}). A key of
 * neither list is an unknown setting, as before.
 */
final class OriginalKeys {
    private OriginalKeys() {
    }

    /** What becomes of an original key: at most one of the three is set. */
    record Verdict(String renamed, String ignored, String refused) {
        static Verdict renamed(String key) {
            return new Verdict(key, null, null);
        }

        static Verdict ignored(String why) {
            return new Verdict(null, why, null);
        }

        static Verdict refused(String why) {
            return new Verdict(null, null, why);
        }
    }

    private static final String SKETCH = "a sketch parameter this project fixes (its sketches answer as bullet-core's"
                                         + " defaults do)";
    private static final String TICKS = "the Join here times queries by their duration and windows, not by ticks";
    private static final String NO_COMPONENT = "that component does not exist in this topology";
    private static final String PUBSUB_KAFKA = "bullet.pubsub.kafka.";

    private static final Map<String, String> RENAMED = Map.ofEntries(
            Map.entry("bullet.query.default.duration.ms", SettingsTable.QUERY_DEFAULT_DURATION),
            Map.entry("bullet.query.max.duration.ms", SettingsTable.QUERY_MAX_DURATION),
            Map.entry("bullet.query.window.min.emit.every.ms", SettingsTable.QUERY_WINDOW_MIN_EMIT_EVERY),
            Map.entry("bullet.topology.bullet.spout.class.name", SettingsTable.DATASOURCE_SPOUT_CLASS_NAME),
            Map.entry("bullet.topology.bullet.spout.args", SettingsTable.DATASOURCE_SPOUT_ARGS),
            Map.entry("bullet.topology.bullet.spout.parallelism", Component.DATASOURCE_SPOUT.parallelismKey()),
            Map.entry("bullet.topology.bullet.spout.cpu.load", Component.DATASOURCE_SPOUT.cpuLoadKey()),
            Map.entry("bullet.topology.bullet.spout.memory.on.heap.load", Component.DATASOURCE_SPOUT.onHeapMemoryKey()),
            Map.entry("bullet.topology.bullet.spout.memory.off.heap.load", Component.DATASOURCE_SPOUT.offHeapMemoryKey()),
            Map.entry("bullet.topology.drpc.spout.parallelism", Component.QUERY_SPOUT.parallelismKey()),
            Map.entry("bullet.topology.drpc.spout.cpu.load", Component.QUERY_SPOUT.cpuLoadKey()),
            Map.entry("bullet.topology.drpc.spout.memory.on.heap.load", Component.QUERY_SPOUT.onHeapMemoryKey()),
            Map.entry("bullet.topology.drpc.spout.memory.off.heap.load", Component.QUERY_SPOUT.offHeapMemoryKey()),
            Map.entry("bullet.topology.return.bolt.parallelism", Component.RESULT_BOLT.parallelismKey()),
            Map.entry("bullet.topology.return.bolt.cpu.load", Component.RESULT_BOLT.cpuLoadKey()),
            Map.entry("bullet.topology.return.bolt.memory.on.heap.load", Component.RESULT_BOLT.onHeapMemoryKey()),
            Map.entry("bullet.topology.return.bolt.memory.off.heap.load", Component.RESULT_BOLT.offHeapMemoryKey()));

    /** Original keys, or their prefixes (ending in a dot), without effect here: why. */
    private static final Map<String, String> IGNORED = ignored();

    private static Map<String, String> ignored() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("bullet.query.aggregation.composite.field.separator",
              "group and distinct keys here are bullet-core's own (BQL) or the fields' JSON values");
        m.put("bullet.query.aggregation.count.distinct.sketch.family", SKETCH);
        m.put("bullet.query.aggregation.count.distinct.sketch.resize.factor", SKETCH);
        m.put("bullet.query.aggregation.count.distinct.sketch.sampling", SKETCH);
        m.put("bullet.query.aggregation.group.sketch.resize.factor", SKETCH);
        m.put("bullet.query.aggregation.group.sketch.sampling", SKETCH);
        m.put("bullet.query.aggregation.top.k.sketch.error.type", SKETCH);
        m.put("bullet.query.aggregation.group.max.size",
              "every aggregation's size, GROUP's included, is bounded by " + SettingsTable.QUERY_AGGREGATION_MAX_SIZE);
        m.put("bullet.query.aggregation.raw.micro.batch.size", "the Filter here sends a RAW query's rows a batch at a time");
        m.put("bullet.query.partitioner.", "the shared query index does what the partitioner did, for every query");
        m.put("bullet.record.provider.class.name", "records here are JSON read in place");
        m.put("bullet.pubsub.context.name", "each component here knows its side of the PubSub");
        m.put("bullet.pubsub.message.serde.class.name", "PubSub messages here have one format");
        m.put("bullet.pubsub.storm.drpc.", "the PubSub here is Kafka");
        m.put("bullet.pubsub.kafka.partition.routing.enable", "a REST instance here reads its own response partitions");
        m.put("bullet.pubsub.kafka.subscriber.", "the query spout here reads and commits the request topic itself");
        m.put("bullet.topology.function", "queries arrive through the Kafka PubSub, not DRPC");
        m.put("bullet.topology.scheduler", "Storm's scheduler is Storm's own setting (topology.scheduler.strategy)");
        m.put("bullet.topology.debug", "use Storm's topology.debug");
        m.put("bullet.topology.prepare.bolt.", NO_COMPONENT + ": the Join bolt prepares results");
        m.put("bullet.topology.loop.bolt.", NO_COMPONENT + ": KILLs reach the Filters through the query spout");
        m.put("bullet.topology.replay.", NO_COMPONENT + ": queries are kept in the query store (bullet.topology.query."
                                         + "store.*) and taken up again after a restart");
        m.put("bullet.topology.join.bolt.error.tick.timeout", TICKS);
        m.put("bullet.topology.join.bolt.query.tick.timeout", TICKS);
        m.put("bullet.topology.join.bolt.query.post.finish.buffer.ticks", TICKS);
        m.put("bullet.topology.join.bolt.query.pre.start.delay.ticks", TICKS);
        m.put("bullet.topology.filter.bolt.stats.report.ticks", "the Filter's figures are the built-in metrics here");
        return m;
    }

    /** The verdict on a {@code bullet.} key this project does not define, given its value; empty when unknown. */
    static Optional<Verdict> of(String key, Object value) {
        if (key.equals("bullet.pubsub.class.name")) {
            return Optional.of(String.valueOf(value).endsWith(".KafkaPubSub")
                    ? Verdict.ignored("Kafka is this project's PubSub")
                    : Verdict.refused("this project's PubSub is Kafka (" + SettingsTable.PUBSUB_KAFKA_BOOTSTRAP_SERVERS
                                      + "), not " + value));
        }
        if (key.equals("bullet.query.window.disable")) {
            return Optional.of(Boolean.TRUE.equals(value) || "true".equals(value)
                    ? Verdict.refused("windows cannot be turned off here; a query without a window has none")
                    : Verdict.ignored("windows are on, as with false"));
        }
        if (key.startsWith("bullet.topology.dsl.")) {
            return Optional.of(key.endsWith(".enable") && !(Boolean.TRUE.equals(value) || "true".equals(value))
                    ? Verdict.ignored("bullet-dsl is not used here (it is off)")
                    : key.endsWith(".enable")
                    ? Verdict.refused("bullet-dsl connectors are not supported: send JSON records to the firehose topic")
                    : Verdict.ignored("bullet-dsl is not used here"));
        }
        String kafkaProperty = kafkaClientProperty(key);
        if (kafkaProperty != null) {
            String owned = KafkaProperties.PUBSUB_OWNED.get(kafkaProperty);
            return Optional.of(owned != null ? Verdict.ignored("Bullet sets " + kafkaProperty + " itself: " + owned)
                    : Verdict.renamed(SettingsTable.PUBSUB_KAFKA_PROPERTIES + "." + kafkaProperty));
        }
        String renamed = RENAMED.get(key);
        if (renamed != null) {
            return Optional.of(Verdict.renamed(renamed));
        }
        for (Map.Entry<String, String> e : IGNORED.entrySet()) {
            if (e.getKey().endsWith(".") ? key.startsWith(e.getKey()) : key.equals(e.getKey())) {
                return Optional.of(Verdict.ignored(e.getValue()));
            }
        }
        return Optional.empty();
    }

    /** bullet-kafka's {@code bullet.pubsub.kafka.producer.X}, {@code .consumer.X}, and its own few: X, else null. */
    private static String kafkaClientProperty(String key) {
        for (String side : List.of("producer.", "consumer.")) {
            if (key.startsWith(PUBSUB_KAFKA + side) && key.length() > (PUBSUB_KAFKA + side).length()) {
                return key.substring((PUBSUB_KAFKA + side).length());
            }
        }
        return key.equals(PUBSUB_KAFKA + "connections.max.idle.ms") ? "connections.max.idle.ms" : null;
    }

    /** The original's names of result metadata (its list of {@code {name, key}}) and this project's names of them. */
    static final Map<String, String> METADATA_NAMES = Map.ofEntries(
            Map.entry("Query Identifier", "query_id"), Map.entry("Query ID", "query_id"),
            Map.entry("Query Body", "query"), Map.entry("Query String", "query"),
            Map.entry("Query Creation Time", "query_receive_time"), Map.entry("Query Receive Time", "query_receive_time"),
            Map.entry("Query Termination Time", "query_finish_time"), Map.entry("Query Finish Time", "query_finish_time"),
            Map.entry("Inner Query Metadata", "inner_query"), Map.entry("Sketch Metadata", "sketches"),
            Map.entry("Sketch Estimated Result", "was_estimated"), Map.entry("Sketch Standard Deviations", "standard_deviations"),
            Map.entry("Sketch Family", "family"), Map.entry("Sketch Size", "size"), Map.entry("Sketch Theta", "theta"),
            Map.entry("Sketch Uniques Estimate", "uniques_estimate"), Map.entry("Sketch Minimum Value", "minimum_value"),
            Map.entry("Sketch Maximum Value", "maximum_value"), Map.entry("Sketch Items Seen", "items_seen"),
            Map.entry("Sketch Normalized Rank Error", "normalized_rank_error"),
            Map.entry("Sketch Maximum Count Error", "maximum_count_error"), Map.entry("Sketch Active Items", "active_items"),
            Map.entry("Window Metadata", "window"), Map.entry("Window Name", "name"), Map.entry("Window Number", "number"),
            Map.entry("Window Size", "size"), Map.entry("Window Emit Time", "emit_time"),
            Map.entry("Window Expected Emit Time", "expected_emit_time"));

    /**
     * The original's list form of {@code bullet.result.metadata.metrics} ({@code - name: "Query ID", key: "id"}) as this
     * project's map (query_id: id); names it has no such metadata for go to {@code unmatched}.
     */
    static Map<String, Object> metadataMap(List<?> entries, List<String> unmatched) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Object entry : entries) {
            if (!(entry instanceof Map<?, ?> m) || !(m.get("name") instanceof String name) || m.get("key") == null) {
                unmatched.add(String.valueOf(entry));
                continue;
            }
            String ours = METADATA_NAMES.get(name.trim());
            if (ours == null) {
                unmatched.add(name);
            } else {
                out.putIfAbsent(ours, String.valueOf(m.get("key")));
            }
        }
        return out;
    }
}

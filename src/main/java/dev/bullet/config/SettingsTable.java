package dev.bullet.config;

import dev.bullet.common.Limits;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import static dev.bullet.config.SettingType.BOOLEAN;
import static dev.bullet.config.SettingType.DOUBLE;
import static dev.bullet.config.SettingType.INT;
import static dev.bullet.config.SettingType.INT_MAP;
import static dev.bullet.config.SettingType.LIST;
import static dev.bullet.config.SettingType.LONG;
import static dev.bullet.config.SettingType.PROPERTIES;
import static dev.bullet.config.SettingType.STRING;
import static dev.bullet.config.SettingType.STRING_MAP;
import static dev.bullet.config.Validator.ANY;
import static dev.bullet.config.Validator.atLeast;
import static dev.bullet.config.Validator.between;
import static dev.bullet.config.Validator.eachValue;
import static dev.bullet.config.Validator.hostPorts;
import static dev.bullet.config.Validator.namesIn;
import static dev.bullet.config.Validator.hosts;
import static dev.bullet.config.Validator.noBlankElements;
import static dev.bullet.config.Validator.nonEmpty;
import static dev.bullet.config.Validator.oneOf;
import static dev.bullet.config.Validator.origins;
import static dev.bullet.config.Validator.powerOfTwo;

/**
 * Every Bullet setting, defined once: key, type, default, rule and one-line documentation (in the manner of Kafka's
 * {@code ConfigDef}), plus the rules that span several keys. The key constants are the names to read settings by,
 * e.g. {@code settings.getLong(SettingsTable.QUERY_MAX_DURATION)}; the per-component resource keys are generated
 * from {@link Component}.
 *
 * <p>{@code conf/bullet_settings.yaml} and the jar's {@code bullet_defaults.yaml} are this table rendered by
 * {@link #toYaml()}; a test fails if they drift. Regenerate with
 * {@code java -cp target/classes dev.bullet.config.SettingsTable > conf/bullet_settings.yaml}.
 */
public final class SettingsTable {

    // Kafka firehose (DataSource spout)
    public static final String DATASOURCE_KAFKA_BOOTSTRAP_SERVERS = "bullet.topology.datasource.kafka.bootstrap.servers";
    public static final String DATASOURCE_KAFKA_TOPIC = "bullet.topology.datasource.kafka.topic";
    public static final String DATASOURCE_KAFKA_GROUP_ID = "bullet.topology.datasource.kafka.group.id";
    public static final String DATASOURCE_KAFKA_AUTO_OFFSET_RESET = "bullet.topology.datasource.kafka.auto.offset.reset";
    public static final String DATASOURCE_KAFKA_POLL_TIMEOUT_MS = "bullet.topology.datasource.kafka.poll.timeout.ms";
    public static final String DATASOURCE_SPOUT_BATCH_SIZE = "bullet.topology.datasource.spout.batch.size";
    public static final String DATASOURCE_SPOUT_CLASS_NAME = "bullet.topology.datasource.spout.class.name";
    public static final String DATASOURCE_SPOUT_ARGS = "bullet.topology.datasource.spout.args";

    // PubSub
    public static final String PUBSUB_KAFKA_BOOTSTRAP_SERVERS = "bullet.pubsub.kafka.bootstrap.servers";
    public static final String PUBSUB_KAFKA_REQUEST_TOPIC_NAME = "bullet.pubsub.kafka.request.topic.name";
    public static final String PUBSUB_KAFKA_RESPONSE_TOPIC_NAME = "bullet.pubsub.kafka.response.topic.name";
    public static final String PUBSUB_KAFKA_REQUEST_PARTITIONS = "bullet.pubsub.kafka.request.partitions";
    public static final String PUBSUB_KAFKA_RESPONSE_PARTITIONS = "bullet.pubsub.kafka.response.partitions";
    public static final String PUBSUB_KAFKA_QUERIES_TOPIC_NAME = "bullet.pubsub.kafka.queries.topic.name";

    // Kafka client properties (security and the rest), of the PubSub clients and of the firehose consumer
    public static final String PUBSUB_KAFKA_PROPERTIES = "bullet.pubsub.kafka.properties";
    public static final String PUBSUB_KAFKA_JOIN_STATE_TOPIC_NAME = "bullet.pubsub.kafka.join.state.topic.name";
    public static final String DATASOURCE_KAFKA_PROPERTIES = "bullet.topology.datasource.kafka.properties";

    // Topology
    public static final String TOPOLOGY_NAME = "bullet.topology.name";
    public static final String TOPOLOGY_WORKERS = "bullet.topology.workers";
    public static final String TOPOLOGY_ACKING_ENABLE = "bullet.topology.acking.enable";
    public static final String TOPOLOGY_MAX_SPOUT_PENDING = "bullet.topology.max.spout.pending";
    public static final String JOIN_UNCONFIRMED_MAX_RESULTS = "bullet.topology.join.unconfirmed.max.results";
    public static final String JOIN_UNCONFIRMED_MAX_BYTES = "bullet.topology.join.unconfirmed.max.bytes";
    public static final String TOPOLOGY_QUERY_STORE_ENABLE = "bullet.topology.query.store.enable";
    public static final String TOPOLOGY_JOIN_SNAPSHOT_ENABLE = "bullet.topology.join.snapshot.enable";
    public static final String TOPOLOGY_JOIN_SNAPSHOT_INTERVAL_MS = "bullet.topology.join.snapshot.interval.ms";

    // Tick
    public static final String TICK_SPOUT_INTERVAL_MS = "bullet.topology.tick.spout.interval.ms";
    public static final String TICK_INTERVAL_SECS = "bullet.topology.tick.interval.secs";

    // Query limits
    public static final String QUERY_DEFAULT_DURATION = "bullet.query.default.duration";
    public static final String QUERY_MAX_DURATION = "bullet.query.max.duration";
    public static final String QUERY_MAX_DEPTH = "bullet.query.max.depth";
    public static final String QUERY_MAX_CLAUSES = "bullet.query.max.clauses";
    public static final String QUERY_MAX_VALUES = "bullet.query.max.values";
    public static final String QUERY_MAX_REGEX_LENGTH = "bullet.query.max.regex.length";
    public static final String RECORD_MAX_BYTES = "bullet.record.max.bytes";
    public static final String RECORD_MAX_DEPTH = "bullet.record.max.depth";
    public static final String QUERY_AGGREGATION_DEFAULT_SIZE = "bullet.query.aggregation.default.size";
    public static final String QUERY_AGGREGATION_MAX_SIZE = "bullet.query.aggregation.max.size";
    public static final String QUERY_AGGREGATION_RAW_MAX_SIZE = "bullet.query.aggregation.raw.max.size";
    public static final String QUERY_AGGREGATION_DISTRIBUTION_MAX_POINTS = "bullet.query.aggregation.distribution.max.points";
    public static final String QUERY_AGGREGATION_DISTRIBUTION_GENERATED_POINTS_ROUNDING =
            "bullet.query.aggregation.distribution.generated.points.rounding";
    public static final String QUERY_WINDOW_MIN_EMIT_EVERY = "bullet.query.window.min.emit.every";
    public static final String QUERY_RATE_LIMIT_ENABLE = "bullet.query.rate.limit.enable";
    public static final String QUERY_RATE_LIMIT_MAX_EMIT_COUNT = "bullet.query.rate.limit.max.emit.count";
    public static final String QUERY_RATE_LIMIT_TIME_INTERVAL = "bullet.query.rate.limit.time.interval";
    public static final String QUERY_MAX_BYTES = "bullet.query.max.bytes";
    public static final String QUERY_MAX_WORKER_BYTES = "bullet.query.max.worker.bytes";
    public static final String QUERY_MAX_RUNNING = "bullet.query.max.running";

    // Sketches
    public static final String COUNT_DISTINCT_SKETCH_ENTRIES = "bullet.query.aggregation.count.distinct.sketch.entries";
    public static final String GROUP_SKETCH_ENTRIES = "bullet.query.aggregation.group.sketch.entries";
    public static final String DISTRIBUTION_SKETCH_ENTRIES = "bullet.query.aggregation.distribution.sketch.entries";
    public static final String TOP_K_SKETCH_ENTRIES = "bullet.query.aggregation.top.k.sketch.entries";

    // Results
    public static final String RESULT_METADATA_ENABLE = "bullet.result.metadata.enable";
    public static final String RESULT_METADATA_METRICS = "bullet.result.metadata.metrics";
    public static final String RECORD_INJECT_TIMESTAMP_ENABLE = "bullet.record.inject.timestamp.enable";
    public static final String RECORD_INJECT_TIMESTAMP_KEY = "bullet.record.inject.timestamp.key";

    // Metrics
    public static final String METRICS_ENABLE = "bullet.topology.metrics.enable";
    public static final String METRICS_BUILT_IN_ENABLE = "bullet.topology.metrics.built.in.enable";
    public static final String METRICS_BUILT_IN_EMIT_INTERVAL_MAPPING = "bullet.topology.metrics.built.in.emit.interval.mapping";
    public static final String METRICS_CLASSES = "bullet.topology.metrics.classes";
    public static final String METRICS_JSON_PATH = "bullet.topology.metrics.json.path";
    public static final String METRICS_PROMETHEUS_PORT = "bullet.topology.metrics.prometheus.port";

    // REST service
    public static final String REST_HOST = "bullet.rest.host";
    public static final String REST_PORT = "bullet.rest.port";
    public static final String REST_MAX_BODY_BYTES = "bullet.rest.max.body.bytes";
    public static final String REST_MAX_CONCURRENT_QUERIES = "bullet.rest.max.concurrent.queries";
    public static final String REST_RESULT_GRACE_MS = "bullet.rest.result.grace.ms";
    public static final String REST_HEALTH_TIMEOUT_MS = "bullet.rest.health.timeout.ms";
    public static final String REST_RESPONSE_PARTITIONS = "bullet.rest.response.partitions";
    public static final String REST_SSE_KEEPALIVE_MS = "bullet.rest.sse.keepalive.ms";
    public static final String REST_REQUEST_TIMEOUT_MS = "bullet.rest.request.timeout.ms";
    // REST service: sharing it between teams (authentication, TLS, tenant quotas, browser checks)
    public static final String REST_AUTH_TYPE = "bullet.rest.auth.type";
    public static final String REST_AUTH_TOKENS_FILE = "bullet.rest.auth.tokens.file";
    public static final String REST_AUTH_ADMINS = "bullet.rest.auth.admins";
    public static final String REST_TLS_KEYSTORE_PATH = "bullet.rest.tls.keystore.path";
    public static final String REST_TLS_KEYSTORE_PASSWORD = "bullet.rest.tls.keystore.password";
    public static final String REST_TLS_KEYSTORE_TYPE = "bullet.rest.tls.keystore.type";
    public static final String REST_TLS_TRUSTSTORE_PATH = "bullet.rest.tls.truststore.path";
    public static final String REST_TLS_TRUSTSTORE_PASSWORD = "bullet.rest.tls.truststore.password";
    public static final String REST_TLS_TRUSTSTORE_TYPE = "bullet.rest.tls.truststore.type";
    public static final String REST_TLS_CLIENT_AUTH = "bullet.rest.tls.client.auth";
    public static final String REST_TENANT_MAX_CONCURRENT_QUERIES = "bullet.rest.tenant.max.concurrent.queries";
    public static final String REST_TENANT_MAX_QUERIES_PER_MINUTE = "bullet.rest.tenant.max.queries.per.minute";
    public static final String REST_ALLOWED_ORIGINS = "bullet.rest.allowed.origins";
    public static final String REST_ALLOWED_HOSTS = "bullet.rest.allowed.hosts";

    public static final String SCHEMA_FILE = "bullet.schema.file";
    public static final String SCHEMA_SAMPLE_ENABLE = "bullet.schema.sample.enable";
    public static final String SCHEMA_SAMPLE_SIZE = "bullet.schema.sample.size";
    public static final String SCHEMA_SAMPLE_DURATION_MS = "bullet.schema.sample.duration.ms";
    public static final String SCHEMA_SAMPLE_INTERVAL_MS = "bullet.schema.sample.interval.ms";
    public static final String SCHEMA_SAMPLE_HISTORY = "bullet.schema.sample.history";

    /** The entry of {@link #METRICS_BUILT_IN_EMIT_INTERVAL_MAPPING} used for metrics without their own entry. */
    public static final String DEFAULT_METRIC_ENTRY = "default";

    /**
     * The metadata keys of a result (SPEC §6.8) that {@link #RESULT_METADATA_METRICS} can rename, by their default
     * names; a name used in several places (e.g. {@code size}) is renamed everywhere.
     */
    static final List<String> METADATA_NAMES = List.of(
            "query_id", "query", "query_receive_time", "query_finish_time",
            "window", "name", "number", "emit_time", "expected_emit_time", "size",
            "sketches", "was_estimated", "standard_deviations", "family", "theta", "uniques_estimate",
            "minimum_value", "maximum_value", "items_seen", "normalized_rank_error", "maximum_count_error",
            "active_items", "errors", "warnings", "inner_query");

    private static final int MAX_SKETCH_ENTRIES = 1 << 26;
    /** Width of the comment lines of the documented settings file. */
    private static final int WIDTH = 110;

    /** Every setting by key, in the order of the documented settings file. */
    static final Map<String, Setting> DEFINITIONS;

    /** Rules spanning several keys; each reports a problem or nothing. */
    static final List<CrossRule> CROSS_RULES;

    static {
        Table t = new Table();

        t.section("Kafka firehose: the DataSource spout's source of records");
        t.define(DATASOURCE_KAFKA_BOOTSTRAP_SERVERS, STRING, "127.0.0.1:9092", hostPorts(),
                "Kafka brokers of the firehose topic.");
        t.define(DATASOURCE_KAFKA_TOPIC, STRING, "bullet.records", nonEmpty(),
                "The firehose topic: one JSON object per message.");
        t.define(DATASOURCE_KAFKA_GROUP_ID, STRING, "bullet-storm", nonEmpty(),
                "Consumer group of the DataSource spout tasks; partitions are spread over them.");
        t.define(DATASOURCE_KAFKA_AUTO_OFFSET_RESET, STRING, "latest", oneOf("latest", "earliest"),
                "Where a consumer group without committed offsets starts (queries look forward, so latest).");
        t.define(DATASOURCE_KAFKA_POLL_TIMEOUT_MS, LONG, 200, between(0, 10_000),
                "Longest a spout task waits in one Kafka poll, ms; the poll returns as soon as records arrive, so "
                + "this only paces an idle spout (and its acks while idle).");
        t.define(DATASOURCE_SPOUT_BATCH_SIZE, INT, 1000, between(1, 100_000),
                "Most messages in one spout tuple; topology max spout pending counts these batches.");
        t.define(RECORD_MAX_BYTES, INT, Limits.DEFAULTS.recordBytes(), between(16, 64 * 1_048_576),
                "Largest record, bytes; a larger message is counted in bullet_records_malformed, logged and skipped.");
        t.define(RECORD_MAX_DEPTH, INT, Limits.DEFAULTS.recordDepth(), between(1, 500),
                "Deepest nesting of a record (the record object is level 1); deeper ones are counted as malformed, "
                        + "logged and skipped.");
        t.define(DATASOURCE_SPOUT_CLASS_NAME, STRING, "", ANY,
                "Class of your own DataSource spout replacing the built-in Kafka batch spout; empty = built-in.");
        t.define(DATASOURCE_SPOUT_ARGS, LIST, List.of(), noBlankElements(),
                "Arguments for your own spout's constructor (the --bullet-spout-arg flags replace this list).");

        t.section("PubSub: queries in, results out");
        t.define(PUBSUB_KAFKA_BOOTSTRAP_SERVERS, STRING, "127.0.0.1:9092", hostPorts(),
                "Kafka brokers of the PubSub topics.");
        t.define(PUBSUB_KAFKA_REQUEST_TOPIC_NAME, STRING, "bullet.queries", nonEmpty(),
                "Topic carrying queries and signals (KILL) from the REST service to the topology.");
        t.define(PUBSUB_KAFKA_RESPONSE_TOPIC_NAME, STRING, "bullet.responses", nonEmpty(),
                "Topic carrying results and signals back to the REST service.");
        t.define(PUBSUB_KAFKA_REQUEST_PARTITIONS, INT, 1, atLeast(1),
                "Partitions of the request topic when Bullet creates it.");
        t.define(PUBSUB_KAFKA_RESPONSE_PARTITIONS, INT, 4, atLeast(1),
                "Partitions of the response topic when Bullet creates it; results return by partition to the "
                        + "REST instance that owns the query.");
        t.define(PUBSUB_KAFKA_QUERIES_TOPIC_NAME, STRING, "", ANY,
                "Compacted topic keeping the running queries (the query store), so they outlive a topology redeploy; "
                        + "empty = the request topic's name + \"-queries\". Used when "
                        + "bullet.topology.query.store.enable is true.");
        t.define(PUBSUB_KAFKA_JOIN_STATE_TOPIC_NAME, STRING, "", ANY,
                "Compacted topic where the Join tasks keep their queries' state, read by a Join task that restarts; "
                        + "empty = the request topic's name followed by -join-state. The REST service and local mode "
                        + "create it (cleanup.policy=compact); when it is missing the Join runs without it.");

        t.section("Kafka client properties: security (SASL, TLS), client ids, tuning");
        t.define(PUBSUB_KAFKA_PROPERTIES, PROPERTIES, Map.of(), KafkaProperties.notOwned(KafkaProperties.PUBSUB_OWNED),
                "Kafka client properties for every PubSub client (the REST service's and the topology's producers, "
                        + "consumers and admin clients), over Bullet's defaults: security.protocol, sasl.mechanism, "
                        + "sasl.jaas.config, ssl.truststore.location, client.id, config.providers, ... Values may be "
                        + "config provider references such as ${file:/path:key}; secret values are never logged. "
                        + "Also accepted as dotted keys: " + PUBSUB_KAFKA_PROPERTIES + ".security.protocol: SASL_SSL.");
        t.define(DATASOURCE_KAFKA_PROPERTIES, PROPERTIES, Map.of(),
                KafkaProperties.notOwned(KafkaProperties.DATASOURCE_OWNED),
                "Kafka client properties for the firehose consumer of the DataSource spout, as for "
                        + PUBSUB_KAFKA_PROPERTIES + " (dotted keys accepted too).");

        t.section("Topology");
        t.define(TOPOLOGY_NAME, STRING, "bullet-topology", nonEmpty(),
                "Name of the topology on the Storm cluster.");
        t.define(TOPOLOGY_WORKERS, INT, 1, atLeast(1),
                "Number of worker processes.");
        t.define(TOPOLOGY_ACKING_ENABLE, BOOLEAN, true, ANY,
                "Ack DataSource batches, committing Kafka offsets after the ack (at-least-once); false = at-most-once.");
        t.define(TOPOLOGY_MAX_SPOUT_PENDING, INT, 100, atLeast(1),
                "Unacked batches per DataSource spout task before it pauses (Storm's topology.max.spout.pending, "
                        + "which wins if also set); a batch is acked once the Join's snapshot holding it is in Kafka.");
        t.define(JOIN_UNCONFIRMED_MAX_RESULTS, INT, 10_000, atLeast(1),
                "Most results a Join task keeps until the Result bolt confirms Kafka has them (to send them again "
                        + "if the Result bolt's worker dies); past it the oldest are no longer kept, logged and counted "
                        + "in bullet_results_unconfirmed_dropped.");
        t.define(JOIN_UNCONFIRMED_MAX_BYTES, LONG, 67_108_864, atLeast(1),
                "Most bytes (characters) of results a Join task keeps until the Result bolt confirms them, as "
                        + JOIN_UNCONFIRMED_MAX_RESULTS + "; a result alone larger is sent once and not kept.");
        t.define(TOPOLOGY_QUERY_STORE_ENABLE, BOOLEAN, true, ANY,
                "Keep running queries in the query store (" + PUBSUB_KAFKA_QUERIES_TOPIC_NAME + "): a topology "
                        + "submitted again takes them up from their original start, and a restarted REST instance "
                        + "kills the ones it had. false = queries end with their topology.");
        t.define(TOPOLOGY_JOIN_SNAPSHOT_ENABLE, BOOLEAN, true, ANY,
                "Keep each query's Join state in the Join state topic (" + PUBSUB_KAFKA_JOIN_STATE_TOPIC_NAME
                        + "), so that a restarted Join task (and a redeployed topology) goes on with exact results; a "
                        + "partial is acked once a snapshot holding it is in Kafka (its cost: docs/PERFORMANCE.md). "
                        + "false = a restart loses the open windows (flagged incomplete).");
        t.define(TOPOLOGY_JOIN_SNAPSHOT_INTERVAL_MS, LONG, 100, between(0, 60_000),
                "Least time between two snapshots of the Join's changed queries, ms (one in flight at a time; results "
                        + "wait only for a snapshot of their own queries). Partials wait up to this long, and Kafka's "
                        + "confirmation, for their ack.");

        t.section("Components: parallelism and Resource Aware Scheduler loads, per executor");
        defineComponent(t, Component.DATASOURCE_SPOUT, new ComponentSpec(1, 100.0, 512.0, 256.0));
        defineComponent(t, Component.DATASOURCE_BOLT, new ComponentSpec(1, 100.0, 512.0, 256.0));
        defineComponent(t, Component.QUERY_SPOUT, new ComponentSpec(1, 50.0, 256.0, 256.0));
        defineComponent(t, Component.FILTER_BOLT, new ComponentSpec(2, 100.0, 512.0, 256.0));
        defineComponent(t, Component.JOIN_BOLT, new ComponentSpec(1, 50.0, 512.0, 256.0));
        defineComponent(t, Component.RESULT_BOLT, new ComponentSpec(1, 50.0, 256.0, 256.0));
        defineComponent(t, Component.TICK_SPOUT, new ComponentSpec(1, 50.0, 256.0, 256.0));

        t.section("Tick: the clock of windows and durations (left unset here, so either spelling can be used)");
        t.defineCommented(TICK_SPOUT_INTERVAL_MS, INT, 100, 100, between(1, 10_000),
                "Tick interval, ms (default 100): windows and durations are accurate to one tick; 100 or less "
                        + "recommended.");
        t.defineCommented(TICK_INTERVAL_SECS, INT, null, 1, between(1, 10),
                "The same in seconds (the original Bullet spelling; no default); "
                        + TICK_SPOUT_INTERVAL_MS + " wins if both are set.");

        t.section("Query limits");
        t.define(QUERY_DEFAULT_DURATION, LONG, 30_000, atLeast(1),
                "Duration of a query without one (or with one <= 0), ms.");
        t.define(QUERY_MAX_DURATION, LONG, 86_400_000, atLeast(1),
                "Longest query duration, ms (default one day); longer queries are clamped, as the result metadata says.");
        t.define(QUERY_AGGREGATION_DEFAULT_SIZE, INT, 500, atLeast(1),
                "Size of an aggregation without one (records, groups, K).");
        t.define(QUERY_AGGREGATION_MAX_SIZE, INT, 500, atLeast(1),
                "Largest aggregation size; larger sizes are clamped.");
        t.define(QUERY_AGGREGATION_RAW_MAX_SIZE, INT, 500, atLeast(1),
                "Most records a RAW query returns per window; larger sizes are clamped.");
        t.define(QUERY_AGGREGATION_DISTRIBUTION_MAX_POINTS, INT, 200, atLeast(1),
                "Most points a DISTRIBUTION query may ask for.");
        t.define(QUERY_AGGREGATION_DISTRIBUTION_GENERATED_POINTS_ROUNDING, INT, 6, between(0, 15),
                "Decimal places of DISTRIBUTION points generated from numberOfPoints or start/end/increment.");
        t.define(QUERY_WINDOW_MIN_EMIT_EVERY, LONG, 1000, atLeast(1),
                "Shortest time window, ms; shorter windows are raised to it.");
        t.define(QUERY_MAX_DEPTH, INT, Limits.DEFAULTS.queryDepth(), between(4, 1000),
                "Deepest JSON nesting of a query (the query object is level 1; each AND/OR/NOT adds 2); deeper is 400.");
        t.define(QUERY_MAX_CLAUSES, INT, Limits.DEFAULTS.queryClauses(), between(1, 1_000_000),
                "Most clauses (relational and logical, HAVING included) in one query; more is 400.");
        t.define(QUERY_MAX_VALUES, INT, Limits.DEFAULTS.queryValues(), between(1, 10_000_000),
                "Most entries in the values lists of one query, all clauses together; more is 400.");
        t.define(QUERY_MAX_REGEX_LENGTH, INT, Limits.DEFAULTS.regexLength(), between(1, 1_000_000),
                "Longest RLIKE pattern, characters; longer is 400.");
        t.define(QUERY_RATE_LIMIT_ENABLE, BOOLEAN, true, ANY,
                "Stop queries that emit results too fast, with an error result.");
        t.define(QUERY_RATE_LIMIT_MAX_EMIT_COUNT, INT, 50, atLeast(1),
                "Most results a query may emit per rate limit interval.");
        t.define(QUERY_RATE_LIMIT_TIME_INTERVAL, LONG, 100, atLeast(1),
                "The rate limit interval, ms.");
        t.define(QUERY_MAX_BYTES, LONG, 33_554_432, atLeast(1024),
                "Most bytes one query may hold in a Filter or Join task (rows, windows, groups, sketches; estimated); "
                        + "a query that crosses it ends early, its final result has the data kept so far and an error.");
        t.define(QUERY_MAX_WORKER_BYTES, LONG, 0, atLeast(0),
                "Most bytes all the queries of a worker may hold together (0 = a third of the worker's heap); past "
                        + "it the largest queries end early, with an error, until the rest fit.");
        t.define(QUERY_MAX_RUNNING, INT, 50_000, atLeast(1),
                "Most queries running in the topology (each Join task runs its share); more get an error result.");

        t.section("Sketches: exact below these sizes, approximate (with error bounds) above");
        t.define(COUNT_DISTINCT_SKETCH_ENTRIES, INT, 16_384, powerOfTwo(16, MAX_SKETCH_ENTRIES),
                "Nominal entries of the COUNT DISTINCT Theta sketch.");
        t.define(GROUP_SKETCH_ENTRIES, INT, 512, powerOfTwo(16, MAX_SKETCH_ENTRIES),
                "Nominal entries of the GROUP Tuple sketch (groups kept before sampling).");
        t.define(DISTRIBUTION_SKETCH_ENTRIES, INT, 128, powerOfTwo(16, 32_768),
                "K of the DISTRIBUTION quantiles sketch (larger is more accurate).");
        t.define(TOP_K_SKETCH_ENTRIES, INT, 1024, powerOfTwo(16, MAX_SKETCH_ENTRIES),
                "Maximum map size of the TOP K frequent items sketch.");

        t.section("Results");
        t.define(RESULT_METADATA_ENABLE, BOOLEAN, true, ANY,
                "Add the meta object (query id, times, window, sketch details) to results; errors are always sent.");
        t.define(RESULT_METADATA_METRICS, STRING_MAP, Map.of(), namesIn(METADATA_NAMES).and(eachValue(nonEmpty())),
                "Renames of result metadata keys, default name: new name, e.g. query_id: id. Default names: "
                        + String.join(", ", METADATA_NAMES) + ".");
        t.define(RECORD_INJECT_TIMESTAMP_ENABLE, BOOLEAN, false, ANY,
                "Add the time the Filter matched it (ms) to each RAW record.");
        t.define(RECORD_INJECT_TIMESTAMP_KEY, STRING, "bullet_project_timestamp", nonEmpty(),
                "Field name of the injected timestamp.");

        t.section("Metrics");
        t.define(METRICS_ENABLE, BOOLEAN, false, ANY,
                "Register the metrics consumers below with Storm.");
        t.define(METRICS_BUILT_IN_ENABLE, BOOLEAN, false, ANY,
                "Also report Bullet's own metrics (active queries, filter latency, records decoded...).");
        t.define(METRICS_BUILT_IN_EMIT_INTERVAL_MAPPING, INT_MAP, Map.of(DEFAULT_METRIC_ENTRY, 60),
                eachValue(between(1, 86_400)),
                "Emit interval of each built-in metric, s; '" + DEFAULT_METRIC_ENTRY + "' for the others.");
        t.define(METRICS_CLASSES, LIST, List.of("json-log"), noBlankElements(),
                "Metrics consumers: class names or the aliases json-log and prometheus.");
        t.define(METRICS_JSON_PATH, STRING, "metrics.jsonl", nonEmpty(),
                "File the json-log consumer appends to, one JSON object per data point.");
        t.define(METRICS_PROMETHEUS_PORT, INT, 9095, between(0, 65_535),
                "Port the prometheus consumer serves metrics on (0 = any free port).");

        t.section("REST service");
        t.define(REST_HOST, STRING, "127.0.0.1", nonEmpty(),
                "Address the REST service listens on.");
        t.define(REST_PORT, INT, 9999, between(0, 65_535),
                "Port the REST service listens on (0 = any free port).");
        t.define(REST_MAX_BODY_BYTES, INT, 1_048_576, atLeast(1),
                "Largest query body, bytes; larger bodies get 413.");
        t.define(REST_MAX_CONCURRENT_QUERIES, INT, 20_000, atLeast(1),
                "Most queries running through one REST instance; more get 429.");
        t.define(REST_RESULT_GRACE_MS, LONG, 40_000, atLeast(0),
                "How long past a query's duration the service waits for its final result before answering 503, ms. "
                        + "It covers a final result that waits for record batches after a worker failure (up to two "
                        + "topology.message.timeout.secs and 2 s) and a Result bolt worker restarted by Storm.");
        t.define(REST_HEALTH_TIMEOUT_MS, LONG, 5_000, atLeast(1),
                "How long the health check waits for the PubSub and the topology to answer, ms.");
        t.define(REST_RESPONSE_PARTITIONS, LIST, List.of(), partitionNumbers(),
                "Response topic partitions this REST instance reads its results from (it stamps one on each query "
                        + "it sends); empty = all. Give each REST instance sharing a topology its own partitions.");
        t.define(REST_SSE_KEEPALIVE_MS, LONG, 1_000, between(100, 600_000),
                "Interval of the keep-alive comments on an sse-query stream, ms; a client that went away is noticed "
                        + "at the next one or two, and its query killed.");
        t.define(REST_REQUEST_TIMEOUT_MS, LONG, 30_000, between(100, 3_600_000),
                "Longest a client may take to send a request's headers, and again its body, ms; a slower one gets "
                        + "408 (or, within the headers, a closed connection) and gives back its place under the "
                        + "query limits.");
        t.define(REST_AUTH_TYPE, STRING, "none", nonEmpty(),
                "Who may use the REST service: none (one anonymous tenant, allowed only while bullet.rest.host is a "
                        + "loopback address), tokens (Authorization: Bearer TOKEN, see bullet.rest.auth.tokens.file), "
                        + "mtls (the client certificate's subject CN; needs bullet.rest.tls.client.auth: required), or "
                        + "the class name of your own dev.bullet.rest.Authenticator.");
        t.define(REST_AUTH_TOKENS_FILE, STRING, "", ANY,
                "For auth type tokens: a file of lines 'TOKEN TENANT [admin]' (# comments and blank lines allowed), "
                        + "read at start. An admin tenant sees and kills every tenant's queries.");
        t.define(REST_AUTH_ADMINS, LIST, List.of(), noBlankElements(),
                "Tenants that are admins whatever their credentials say (for mtls: certificate CNs).");
        t.define(REST_TLS_KEYSTORE_PATH, STRING, "", ANY,
                "Keystore with the REST service's certificate and key; set = the service speaks HTTPS only.");
        t.define(REST_TLS_KEYSTORE_PASSWORD, STRING, "", ANY,
                "Password of the keystore and of its key.");
        t.define(REST_TLS_KEYSTORE_TYPE, STRING, "PKCS12", nonEmpty(),
                "Type of the keystore (PKCS12 or JKS).");
        t.define(REST_TLS_TRUSTSTORE_PATH, STRING, "", ANY,
                "Truststore of the certificate authorities whose client certificates are accepted (empty = the "
                        + "JDK's default authorities).");
        t.define(REST_TLS_TRUSTSTORE_PASSWORD, STRING, "", ANY,
                "Password of the truststore.");
        t.define(REST_TLS_TRUSTSTORE_TYPE, STRING, "PKCS12", nonEmpty(),
                "Type of the truststore (PKCS12 or JKS).");
        t.define(REST_TLS_CLIENT_AUTH, STRING, "none", oneOf("none", "requested", "required"),
                "Whether TLS clients must present a certificate; mtls needs required.");
        t.define(REST_TENANT_MAX_CONCURRENT_QUERIES, INT, 1000, atLeast(1),
                "With authentication on: most queries one tenant runs through this instance at once; more get 429.");
        t.define(REST_TENANT_MAX_QUERIES_PER_MINUTE, INT, 600, atLeast(1),
                "With authentication on: most queries one tenant submits per minute (a bucket that refills "
                        + "evenly); more get 429 with Retry-After.");
        t.define(REST_ALLOWED_ORIGINS, LIST, List.of(), origins(),
                "Browser origins (scheme://host[:port], a default port or none alike) besides the service's own that "
                        + "may POST and DELETE; other Origin headers get 403.");
        t.define(REST_ALLOWED_HOSTS, LIST, List.of(), hosts(),
                "Host header values besides the bound address that are served (name, or name:port; * = any); "
                        + "others get 403 (DNS rebinding).");

        t.section("Schema of the firehose (GET /api/bullet/schema, the console's schema panel)");
        t.define(SCHEMA_FILE, STRING, "", ANY,
                "A schema file in the original Bullet's JSON format (a classpath resource or a path); empty = infer "
                        + "the schema from a sample of the stream.");
        t.define(SCHEMA_SAMPLE_ENABLE, BOOLEAN, true, ANY,
                "Without a schema file, sample the stream through the topology with a small internal RAW query.");
        t.define(SCHEMA_SAMPLE_SIZE, INT, 100, between(1, 1_000),
                "Records one sampling query takes (it ends as soon as it has them).");
        t.define(SCHEMA_SAMPLE_DURATION_MS, LONG, 2_000, between(1, 60_000),
                "Longest a sampling query runs, ms (at low record rates it ends by this).");
        t.define(SCHEMA_SAMPLE_INTERVAL_MS, LONG, 15_000, between(1_000, 3_600_000),
                "Time between sampling queries, ms (from 2 s, doubling, while samples come back empty).");
        t.define(SCHEMA_SAMPLE_HISTORY, INT, 40, between(1, 1_000),
                "Samples the inferred schema is made of (the latest ones); a field absent from all of them is "
                        + "dropped.");

        DEFINITIONS = Collections.unmodifiableMap(t.definitions);

        CROSS_RULES = List.of(
                new CrossRule(List.of(QUERY_DEFAULT_DURATION, QUERY_MAX_DURATION), s ->
                        notAbove(s, QUERY_DEFAULT_DURATION, QUERY_MAX_DURATION)),
                new CrossRule(List.of(QUERY_AGGREGATION_DEFAULT_SIZE, QUERY_AGGREGATION_MAX_SIZE), s ->
                        notAbove(s, QUERY_AGGREGATION_DEFAULT_SIZE, QUERY_AGGREGATION_MAX_SIZE)),
                new CrossRule(List.of(QUERY_WINDOW_MIN_EMIT_EVERY, QUERY_MAX_DURATION), s ->
                        notAbove(s, QUERY_WINDOW_MIN_EMIT_EVERY, QUERY_MAX_DURATION)),
                new CrossRule(List.of(TICK_SPOUT_INTERVAL_MS, TICK_INTERVAL_SECS, QUERY_WINDOW_MIN_EMIT_EVERY), s ->
                        s.tickIntervalMs() <= s.getLong(QUERY_WINDOW_MIN_EMIT_EVERY) ? Optional.empty()
                                : Optional.of("the tick interval (" + s.tickIntervalMs() + " ms) must not be longer than "
                                + QUERY_WINDOW_MIN_EMIT_EVERY + " (" + s.getLong(QUERY_WINDOW_MIN_EMIT_EVERY)
                                + " ms), or windows could not close on time")),
                new CrossRule(List.of(DATASOURCE_SPOUT_ARGS, DATASOURCE_SPOUT_CLASS_NAME), s ->
                        s.getList(DATASOURCE_SPOUT_ARGS).isEmpty() || !s.getString(DATASOURCE_SPOUT_CLASS_NAME).isBlank()
                                ? Optional.empty()
                                : Optional.of(DATASOURCE_SPOUT_ARGS + " (--bullet-spout-arg) are for your own spout: set "
                                + DATASOURCE_SPOUT_CLASS_NAME + " (--bullet-spout), or leave them out for the built-in"
                                + " Kafka spout")),
                new CrossRule(List.of(PUBSUB_KAFKA_REQUEST_TOPIC_NAME, PUBSUB_KAFKA_RESPONSE_TOPIC_NAME), s ->
                        !s.getString(PUBSUB_KAFKA_REQUEST_TOPIC_NAME).equals(s.getString(PUBSUB_KAFKA_RESPONSE_TOPIC_NAME))
                                ? Optional.empty()
                                : Optional.of(PUBSUB_KAFKA_REQUEST_TOPIC_NAME + " and " + PUBSUB_KAFKA_RESPONSE_TOPIC_NAME
                                + " must be different topics, both are \"" + s.getString(PUBSUB_KAFKA_REQUEST_TOPIC_NAME)
                                + "\"")),
                new CrossRule(List.of(PUBSUB_KAFKA_QUERIES_TOPIC_NAME, PUBSUB_KAFKA_REQUEST_TOPIC_NAME,
                                      PUBSUB_KAFKA_RESPONSE_TOPIC_NAME), s -> {
                    String store = s.getString(PUBSUB_KAFKA_QUERIES_TOPIC_NAME).trim();
                    return store.equals(s.getString(PUBSUB_KAFKA_REQUEST_TOPIC_NAME))
                           || store.equals(s.getString(PUBSUB_KAFKA_RESPONSE_TOPIC_NAME))
                            ? Optional.of(PUBSUB_KAFKA_QUERIES_TOPIC_NAME + " \"" + store + "\" must be a topic of its "
                            + "own, not the request or response topic") : Optional.empty();
                }),
                new CrossRule(List.of(REST_RESPONSE_PARTITIONS, PUBSUB_KAFKA_RESPONSE_PARTITIONS), s -> {
                    int partitions = s.getInt(PUBSUB_KAFKA_RESPONSE_PARTITIONS);
                    List<String> outside = s.getList(REST_RESPONSE_PARTITIONS).stream()
                            .filter(p -> Integer.parseInt(p.trim()) >= partitions).toList();
                    return outside.isEmpty() ? Optional.empty()
                            : Optional.of(REST_RESPONSE_PARTITIONS + " " + outside + " are not partitions of the response "
                            + "topic, which has " + partitions + " (" + PUBSUB_KAFKA_RESPONSE_PARTITIONS + ")");
                }),
                new CrossRule(List.of(METRICS_ENABLE, METRICS_CLASSES), s ->
                        !s.getBoolean(METRICS_ENABLE) || !s.getList(METRICS_CLASSES).isEmpty() ? Optional.empty()
                                : Optional.of(METRICS_ENABLE + " is true but " + METRICS_CLASSES
                                + " is empty: name at least one metrics consumer (e.g. json-log)")));
    }

    private SettingsTable() {
    }

    /** A rule over several keys, checked only when each of its keys is valid on its own. */
    record CrossRule(List<String> keys, Function<BulletSettings, Optional<String>> check) {
    }

    /** The definition of {@code key}, or empty for a key this table does not define. */
    static Optional<Setting> definition(String key) {
        return Optional.ofNullable(DEFINITIONS.get(key));
    }

    /** The defined key closest to an unknown one (a likely typo), or empty when none is close. */
    static Optional<String> closestKey(String unknown) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String key : DEFINITIONS.keySet()) {
            int distance = editDistance(unknown, key);
            if (distance < bestDistance) {
                best = key;
                bestDistance = distance;
            }
        }
        int tolerance = Math.max(3, unknown.length() / 5);
        return bestDistance <= tolerance ? Optional.of(best) : Optional.empty();
    }

    /**
     * The documented settings file: every key with its default and a comment, grouped in sections. This is
     * {@code conf/bullet_settings.yaml} and the jar's {@code bullet_defaults.yaml}.
     */
    public static String toYaml() {
        StringBuilder out = new StringBuilder()
                .append("# Bullet on Storm settings (SPEC section 4).\n")
                .append("#\n")
                .append("# Every user-facing setting with its default and what it does. Copy this file, edit what you\n")
                .append("# need and pass it with --bullet-conf; keys you leave out keep their defaults, and command-line\n")
                .append("# flags win over this file. An unknown \"bullet.\" key is an error (with a suggestion for a typo);\n")
                .append("# other keys, e.g. Storm's \"topology.*\", are not checked here and are passed through to Storm.\n")
                .append("# Maps are merged with their defaults entry by entry; lists replace theirs. Comments give\n")
                .append("# [type; allowed values].\n")
                .append("#\n")
                .append("# Generated from dev.bullet.config.SettingsTable (a test fails if they differ). Regenerate with:\n")
                .append("#   java -cp target/classes dev.bullet.config.SettingsTable > conf/bullet_settings.yaml\n")
                .append("#   cp conf/bullet_settings.yaml src/main/resources/bullet_defaults.yaml\n");
        String section = null;
        for (Setting setting : DEFINITIONS.values()) {
            if (!setting.section().equals(section)) {
                section = setting.section();
                out.append("\n# ").append("=".repeat(100)).append('\n')
                        .append("# ").append(section).append('\n')
                        .append("# ").append("=".repeat(100)).append('\n');
            }
            String rule = setting.validator().describe();
            out.append('\n').append(comment(setting.doc() + " [" + setting.type().description()
                    + (rule.isEmpty() ? "" : "; " + rule) + "]"));
            String line = setting.name() + ":" + renderValue(setting.documentedValue());
            if (setting.commented()) {
                line = "# " + line.replace("\n", "\n# ");
            }
            out.append(line).append('\n');
        }
        out.append("\n# ").append("=".repeat(100)).append('\n')
                .append("# Storm: how idle executors wait (Bullet's choice, set for the topology; uncomment to change)\n")
                .append("# ").append("=".repeat(100)).append('\n');
        StormDefaults.values().forEach((key, value) -> out.append('\n').append(comment(StormDefaults.doc(key)))
                .append("# ").append(key).append(":").append(renderValue(value)).append('\n'));
        return out.toString();
    }

    /** Prints {@link #toYaml()}: {@code java -cp target/classes dev.bullet.config.SettingsTable > conf/bullet_settings.yaml}. */
    public static void main(String[] args) {
        System.out.print(toYaml());
    }

    private static void defineComponent(Table t, Component c, ComponentSpec defaults) {
        String name = c.title();
        t.define(c.parallelismKey(), INT, defaults.parallelism(), atLeast(1),
                name + ": number of executors.");
        t.define(c.cpuLoadKey(), DOUBLE, defaults.cpuLoad(), atLeast(0.0),
                name + ": CPU per executor, percent of a core.");
        t.define(c.onHeapMemoryKey(), DOUBLE, defaults.onHeapMemoryMiB(), atLeast(0.0),
                name + ": on-heap memory per executor, MiB.");
        t.define(c.offHeapMemoryKey(), DOUBLE, defaults.offHeapMemoryMiB(), atLeast(0.0),
                name + ": off-heap memory per executor, MiB.");
    }

    /** A list of distinct partition numbers (integers from 0). */
    private static Validator partitionNumbers() {
        return Validator.of("partition numbers >= 0", v -> {
            List<?> list = (List<?>) v;
            Set<Integer> seen = new HashSet<>();
            for (int i = 0; i < list.size(); i++) {
                String element = ((String) list.get(i)).trim();
                int partition;
                try {
                    partition = Integer.parseInt(element);
                } catch (NumberFormatException e) {
                    return Optional.of("element " + i + " must be a partition number, got \"" + element + "\"");
                }
                if (partition < 0) {
                    return Optional.of("element " + i + " must be at least 0, got " + partition);
                }
                if (!seen.add(partition)) {
                    return Optional.of("partition " + partition + " is listed twice");
                }
            }
            return Optional.empty();
        });
    }

    private static Optional<String> notAbove(BulletSettings s, String lowKey, String highKey) {
        Number low = (Number) s.value(lowKey);
        Number high = (Number) s.value(highKey);
        return low.longValue() <= high.longValue() ? Optional.empty()
                : Optional.of(lowKey + " (" + low + ") must not be larger than " + highKey + " (" + high + ")");
    }

    private static String renderValue(Object value) {
        if (value instanceof String s) {
            return " " + quote(s);
        }
        if (value instanceof List<?> list) {
            if (list.isEmpty()) {
                return " []";
            }
            StringBuilder out = new StringBuilder();
            for (Object element : list) {
                out.append("\n  - ").append(quote((String) element));
            }
            return out.toString();
        }
        if (value instanceof Map<?, ?> map) {
            if (map.isEmpty()) {
                return " {}";
            }
            StringBuilder out = new StringBuilder();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                String name = (String) entry.getKey();
                out.append("\n  ").append(name.matches("[A-Za-z0-9_.-]+") ? name : quote(name)).append(':')
                        .append(renderValue(entry.getValue()));
            }
            return out.toString();
        }
        return " " + value;
    }

    /** {@code text} as comment lines of at most {@value #WIDTH} characters. */
    private static String comment(String text) {
        StringBuilder out = new StringBuilder();
        StringBuilder line = new StringBuilder("#");
        for (String word : text.split(" ")) {
            if (line.length() > 1 && line.length() + 1 + word.length() > WIDTH) {
                out.append(line).append('\n');
                line = new StringBuilder("#");
            }
            line.append(' ').append(word);
        }
        return out.append(line).append('\n').toString();
    }

    private static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /** Collects definitions in order, tagging each with the current section. */
    private static final class Table {
        private final Map<String, Setting> definitions = new LinkedHashMap<>();
        private String section = "";

        void section(String title) {
            section = title;
        }

        void define(String name, SettingType type, Object defaultValue, Validator validator, String doc) {
            add(new Setting(name, type, defaultValue, validator, doc, section, null));
        }

        /** A key shown commented out in the settings file (with {@code shown}), so that it stays unset there. */
        void defineCommented(String name, SettingType type, Object defaultValue, Object shown, Validator validator,
                             String doc) {
            add(new Setting(name, type, defaultValue, validator, doc, section, shown));
        }

        private void add(Setting setting) {
            if (definitions.putIfAbsent(setting.name(), setting) != null) {
                throw new IllegalStateException("Setting defined twice: " + setting.name());
            }
        }
    }
}

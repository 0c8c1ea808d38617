package dev.bullet.bench;

import dev.bullet.common.Cli;
import dev.bullet.common.Clock;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.Component;
import dev.bullet.config.SettingsTable;
import dev.bullet.generator.RecordGenerator;
import dev.bullet.local.EmbeddedKafka;
import dev.bullet.metrics.MetricPoint;
import dev.bullet.record.JsonCodec;
import dev.bullet.rest.QueryService;
import dev.bullet.rest.RestServer;
import dev.bullet.storm.BulletMetrics;
import dev.bullet.testing.TopologyHarness;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Benchmarks P4 (throughput) and P5 (queries vs latency) of BENCHMARKS.md on the whole local pipeline: an embedded
 * Kafka broker, the topology in LocalCluster, Q simultaneous RAW queries that match nothing, and a fixed-rate load
 * (each send scheduled at start + i / rate; lateness is reported, never hidden). Per step it measures what the
 * topology consumed (committed offsets of its consumer group), the consumer lag, the filter latency (record read →
 * filtered, p50 / p99 from the Filter bolts' HdrHistograms), process CPU (cores used, broker and load generator
 * included: it is one JVM) and the heap. Each point is run {@code --repeats} times; the median is reported with the
 * min and max. Writes JSON and a PNG plot. {@code scripts/bench-throughput.sh} and {@code scripts/bench-curve.sh}.
 */
public final class PipelineBenchmark {
    private final TopologyHarness stack;
    private final List<byte[]> pool;
    private final List<String> running = new ArrayList<>();
    private final ResultFlow flow;
    private final MetricSource metrics;
    /** With {@code --cluster}: the Storm home whose processes are measured with this JVM; null in local mode. */
    private final String clusterHome;

    private PipelineBenchmark(TopologyHarness stack, List<byte[]> pool, ResultFlow flow, MetricSource metrics,
                              String clusterHome) {
        this.stack = stack;
        this.pool = pool;
        this.flow = flow;
        this.metrics = metrics;
        this.clusterHome = clusterHome;
    }

    /** Where the Filter's latency data points are read: this JVM's metrics consumer, or a cluster's json-log file. */
    @FunctionalInterface
    interface MetricSource {
        List<MetricPoint> between(String name, long from, long to);
    }

    /** The command line of {@code scripts/bench-throughput.sh} ({@code --mode throughput}) and {@code bench-curve.sh}. */
    @Command(name = "PipelineBenchmark", sortOptions = false,
             customSynopsis = {"PipelineBenchmark --mode throughput|curve [--queries 0,100,1000,10000] [--rates 10000,25000,50000]",
                               "                         [--rate 10000] [--step-seconds 15] [--warmup-seconds 10] [--repeats 3]",
                               "                         [--out FILE.json] [--png FILE.png] [--filter-parallelism N]",
                               "                         [--mix id|realistic] [--queries-file FILE] [--via pubsub|rest]",
                               "                         [--cluster [--workers N] [--supervisors 1|2] [--jfr DIR]]"},
             description = {
                 "The main of scripts/bench-throughput.sh (--mode throughput) and scripts/bench-curve.sh (--mode curve).",
                 "",
                 "throughput (P4): for each query count, the highest of the given rates the pipeline sustains",
                 "                 (consumed >= 95%% of the rate, lag not growing, p99 filter latency < 200 ms).",
                 "curve (P5):      at one fixed rate, filter latency p50/p99 for each query count.",
                 ""})
    static final class Options implements Cli.Validated {
        @Option(names = "--mode", paramLabel = "throughput|curve", description = "the benchmark (default curve)")
        String mode = "curve";
        @Option(names = "--queries", paramLabel = "N,N,...",
                description = {"simultaneous query counts (default 0,100,1000,10000 for throughput,",
                               "1,10,100,1000,2500,5000,10000 for curve)"})
        String queries;
        @Option(names = "--rates", paramLabel = "N,N,...",
                description = "throughput: the records/s to try (default 10000,25000,50000,75000,100000)")
        String rates = "10000,25000,50000,75000,100000";
        @Option(names = "--rate", paramLabel = "N", description = "curve: the fixed records/s (default 10000)")
        int rate = 10_000;
        @Option(names = "--step-seconds", paramLabel = "S", description = "measured seconds per step (default 15)")
        double stepSeconds = 15;
        @Option(names = "--warmup-seconds", paramLabel = "S", description = "warm-up seconds before the first step (default 10)")
        double warmupSeconds = 10;
        @Option(names = "--repeats", paramLabel = "N", description = "runs per point; the median is reported with min and max (default 3)")
        int repeats = 3;
        @Option(names = "--out", paramLabel = "FILE.json", description = "also write the JSON result to this file")
        String out;
        @Option(names = "--png", paramLabel = "FILE.png", description = "plot the result to this file")
        String png;
        @Option(names = "--filter-parallelism", paramLabel = "N", description = "Filter bolt tasks (default 1)")
        int filterParallelism = 1;
        @Option(names = "--mix", paramLabel = "id|realistic",
                description = {"id (default): N RAW queries on an id no record has (nothing matches,",
                               "no results). realistic: N queries cycled from the realistic mix, results",
                               "flowing to a client reading the response topic; a query that completes is",
                               "submitted again. Records carry their intended send time, so latency is from",
                               "the producer: produce -> filtered and produce -> result arrival (p50, p99,",
                               "p99.9, max), and in P4 'sustained' uses p99 produce -> filtered < 200 ms."})
        String mix = "id";
        @Option(names = "--queries-file", paramLabel = "FILE",
                description = "as --mix realistic, with the queries of FILE (as the engine benchmark reads them)")
        String queriesFile;
        @Option(names = "--via", paramLabel = "pubsub|rest",
                description = {"how the workload's client talks to the topology: pubsub (default) reads",
                               "the response topic itself; rest starts the REST service in this JVM and",
                               "runs each query through its sse-query endpoint, the results arriving as",
                               "the stream's events (one connection per query)."})
        String via = "pubsub";
        @Option(names = "--join-snapshots", paramLabel = "on|off|on,off,...",
                description = {"keep the Join's state in its Kafka topic (bullet.topology.join.snapshot.enable;",
                               "default: the setting's default, on). A list runs each in turn in this JVM, each",
                               "on a stack of its own, warmed up anew but with the JIT's work shared; the JSON",
                               "then holds one entry of 'variants' each"})
        String joinSnapshots;
        @Option(names = "--join-snapshot-interval-ms", paramLabel = "MS",
                description = "bullet.topology.join.snapshot.interval.ms (default: the setting's default, 100)")
        Long joinSnapshotIntervalMs;
        @Option(names = "--tick-ms", paramLabel = "MS",
                description = "bullet.topology.tick.spout.interval.ms: how often the Filter emits its partials (default 100)")
        Integer tickMs;
        @Option(names = "--kafka-property", paramLabel = "KEY=VALUE",
                description = "a property of every Kafka client of the PubSub (bullet.pubsub.kafka.properties), e.g. compression.type=lz4; repeatable")
        Map<String, String> kafkaProperties;
        @Option(names = "--cluster",
                description = {"run the topology on a real multi-process Storm cluster on loopback (ZooKeeper,",
                               "Nimbus, Supervisors, worker JVMs: scripts/storm-cluster.sh on free ports) instead",
                               "of Storm's local mode; broker, load and client stay in this JVM. Cores are summed",
                               "over this JVM and every process of the cluster (/proc)"})
        boolean cluster;
        @Option(names = "--workers", paramLabel = "N", description = "with --cluster: worker JVMs (bullet.topology.workers; default 1)")
        int workers = 1;
        @Option(names = "--supervisors", paramLabel = "1|2", description = "with --cluster: Supervisors (default 1)")
        int supervisors = 1;
        @Option(names = "--jfr", paramLabel = "DIR",
                description = {"with --cluster: every worker records a JFR profile (settings=profile) into",
                               "DIR/worker-PORT.jfr, written when the cluster stops"})
        String jfr;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        boolean help;

        @Override
        public void validate() {
            csv("--queries", queries);
            csv("--rates", rates);
            if (!List.of("throughput", "curve").contains(mode)) {
                throw new Cli.UsageException("--mode is throughput or curve, not '" + mode + "'");
            }
            if (!List.of("id", "realistic").contains(mix)) {
                throw new Cli.UsageException("--mix is id or realistic, not '" + mix + "'");
            }
            if (!List.of("pubsub", "rest").contains(via)) {
                throw new Cli.UsageException("--via is pubsub or rest, not '" + via + "'");
            }
            if (queriesFile != null && !Files.isReadable(Path.of(queriesFile))) {
                throw new Cli.UsageException("--queries-file " + queriesFile + " cannot be read");
            }
            if (joinSnapshots != null && !List.of("on", "off").containsAll(List.of(joinSnapshots.split(",", -1)))) {
                throw new Cli.UsageException("--join-snapshots is on, off or a list of them (on,off,...), not '"
                                             + joinSnapshots + "'");
            }
            if (joinSnapshots != null && joinSnapshots.contains(",") && cluster) {
                throw new Cli.UsageException("--join-snapshots with a list runs in local mode only");
            }
            validateCluster();
        }

        private void validateCluster() {
            if (workers < 1 || workers > ClusterBench.SLOTS) {
                throw new Cli.UsageException("--workers must be between 1 and " + ClusterBench.SLOTS + ", got " + workers);
            }
            if (supervisors < 1 || supervisors > 2) {
                throw new Cli.UsageException("--supervisors is 1 or 2, got " + supervisors);
            }
            if (!cluster && (workers != 1 || supervisors != 1 || jfr != null)) {
                throw new Cli.UsageException("--workers, --supervisors and --jfr need --cluster (local mode is one JVM)");
            }
            if (jfr != null && !Files.isDirectory(Path.of(jfr))) {
                throw new Cli.UsageException("--jfr " + jfr + " is not a directory");
            }
        }

        private static void csv(String flag, String value) {
            if (value == null) {
                return;
            }
            try {
                ints(value);
            } catch (NumberFormatException e) {
                throw new Cli.UsageException(flag + " needs a comma-separated list of numbers, not '" + value + "'");
            }
        }

        int[] queryCounts() {
            return ints(queries != null ? queries : mode.equals("throughput") ? "0,100,1000,10000" : "1,10,100,1000,2500,5000,10000");
        }
    }

    /** The workload of --queries-file or --mix realistic; null for the default (RAW queries that match nothing). */
    static List<String> workload(Options o) throws IOException {
        if (o.queriesFile != null) {
            return QueryFile.read(Path.of(o.queriesFile));
        }
        return switch (o.mix) {
            case "id" -> null;
            case "realistic" -> RealisticQueries.load();
            default -> throw new IllegalArgumentException("--mix is id or realistic, got " + o.mix);
        };
    }

    public static void main(String[] args) throws Exception {
        Options o = new Options();
        int early = Cli.parse(o, args, System.out, System.err);
        if (early != Cli.RUN) {
            System.exit(early);
        }
        String mode = o.mode;
        int[] queries = o.queryCounts();
        int[] rates = ints(o.rates);
        Path dir = Files.createTempDirectory("bullet-bench-");
        // the broker's log of a run at 10,000 records/s grows by ~20 MB a second: gone when the run ends, however it ends
        Runtime.getRuntime().addShutdownHook(new Thread(() -> EmbeddedKafka.deleteDirectory(dir), "bench-cleanup"));
        List<String> workload = workload(o);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("benchmark", mode.equals("throughput") ? "P4" : "P5");
        result.put("workload", o.queriesFile != null ? "file:" + o.queriesFile : o.mix);
        result.put("date", Instant.now().toString());
        result.put("cpus", Runtime.getRuntime().availableProcessors());
        result.put("max_heap_mib", Runtime.getRuntime().maxMemory() >> 20);
        result.put("results_via", workload == null ? "none" : o.via);
        result.put("storm", o.cluster ? "cluster" : "local");
        if (o.cluster) {
            result.put("workers", o.workers);
            result.put("supervisors", o.supervisors);
        }
        List<String> variants = o.joinSnapshots == null ? Collections.singletonList(null)
                : List.of(o.joinSnapshots.split(","));
        List<Map<String, Object>> runs = new ArrayList<>();
        for (int v = 0; v < variants.size(); v++) {
            // each variant on a stack of its own (broker, topology, client), one after the other in this JVM: the
            // JIT's work on broker, Storm and engine is done once and shared, so the variants are compared warm
            Path stackDir = Files.createDirectories(dir.resolve("stack-" + v));
            runs.add(runStack(o, workload, settings(o, workload != null, variants.get(v)), stackDir, queries, rates));
            EmbeddedKafka.deleteDirectory(stackDir);
        }
        if (runs.size() == 1) {
            result.putAll(runs.get(0));
        } else {
            result.put("variants", runs);
        }
        String json = JsonCodec.toJson(result);
        System.out.println(json);
        if (o.out != null) {
            Files.writeString(Path.of(o.out), json + "\n");
        }
        if (o.png != null) {
            plot(mode, result, Path.of(o.png));
        }
        System.exit(0);
    }

    /** One stack started with {@code overrides}, warmed up, and measured at every query count. */
    private static Map<String, Object> runStack(Options o, List<String> workload, Map<String, Object> overrides, Path dir,
                                                int[] queries, int[] rates) throws Exception {
        String mode = o.mode;
        Map<String, Object> result = new LinkedHashMap<>();
        Path metricsFile = dir.resolve(ClusterBench.METRICS_FILE);
        try (TopologyHarness stack = o.cluster
                ? ClusterBench.start(dir, ClusterBench.settings(overrides, o.workers, metricsFile, o.jfr == null ? null : Path.of(o.jfr)),
                                     o.supervisors, stormHome())
                : TopologyHarness.start(dir, overrides);
             RestFront rest = workload != null && o.via.equals("rest") ? RestFront.start(stack) : null;
             ResultFlow flow = workload == null ? null
                     : new ResultFlow(stack, workload, stack.settings().getString(SettingsTable.RECORD_INJECT_TIMESTAMP_KEY),
                                      rest == null ? null : rest.base())) {
            result.put("join_snapshots", stack.settings().getBoolean(SettingsTable.TOPOLOGY_JOIN_SNAPSHOT_ENABLE));
            result.put("join_snapshot_interval_ms", stack.settings().getLong(SettingsTable.TOPOLOGY_JOIN_SNAPSHOT_INTERVAL_MS));
            PipelineBenchmark bench = o.cluster
                    ? new PipelineBenchmark(stack, records(20_000), flow, new JsonMetricsFile(metricsFile)::between,
                                            stormHome().toAbsolutePath().toString())
                    : new PipelineBenchmark(stack, records(20_000), flow, BenchMetricsSink::between, null);
            List<Map<String, Object>> points = new ArrayList<>();
            boolean warm = false;
            for (int q : queries) {
                bench.setQueries(q);
                if (!warm) { // with the first query count running: the JIT compiles the filter path of this workload
                    int warmRate = mode.equals("throughput") ? rates[0] : o.rate;
                    bench.load(warmRate, o.warmupSeconds);
                    result.put("warmup_seconds", o.warmupSeconds + bench.settle(warmRate, MAX_SETTLE_SECONDS));
                    result.put("warmup_drain_seconds", bench.drain(MAX_DRAIN_SECONDS));
                    warm = true;
                }
                if (mode.equals("throughput")) {
                    points.add(bench.throughput(q, rates, o.stepSeconds, o.repeats));
                } else {
                    points.add(bench.point(q, o.rate, o.stepSeconds, o.repeats));
                }
                System.err.println(JsonCodec.toJson(points.get(points.size() - 1)));
            }
            result.put("points", points);
        }
        return result;
    }

    /** {@link #settings(Options, boolean, String)} with {@code --join-snapshots} as given (one value, or none). */
    static Map<String, Object> settings(Options o, boolean workload) {
        return settings(o, workload, o.joinSnapshots);
    }

    /**
     * The topology's settings for a run: metrics on (the Filter's latency every second, the rest every minute, so that
     * on a cluster Storm's own metrics do not cross workers every second), a day's query duration, and with a
     * workload the match time injected into records and a response partition of its own.
     */
    static Map<String, Object> settings(Options o, boolean workload, String joinSnapshots) {
        Map<String, Object> overrides = new LinkedHashMap<>();
        overrides.put(SettingsTable.METRICS_ENABLE, true);
        overrides.put(SettingsTable.METRICS_BUILT_IN_ENABLE, true);
        overrides.put(SettingsTable.METRICS_BUILT_IN_EMIT_INTERVAL_MAPPING,
                      Map.of(SettingsTable.DEFAULT_METRIC_ENTRY, 60, BulletMetrics.FILTER_LATENCY, 1));
        overrides.put(SettingsTable.METRICS_CLASSES, List.of(BenchMetricsSink.class.getName()));
        overrides.put(SettingsTable.TOPOLOGY_NAME, "bench");
        overrides.put(Component.FILTER_BOLT.parallelismKey(), o.filterParallelism);
        overrides.put(SettingsTable.QUERY_MAX_DURATION, 86_400_000L);
        if (joinSnapshots != null) {
            overrides.put(SettingsTable.TOPOLOGY_JOIN_SNAPSHOT_ENABLE, "on".equals(joinSnapshots));
        }
        if (o.joinSnapshotIntervalMs != null) {
            overrides.put(SettingsTable.TOPOLOGY_JOIN_SNAPSHOT_INTERVAL_MS, o.joinSnapshotIntervalMs);
        }
        if (o.kafkaProperties != null) {
            overrides.put(SettingsTable.PUBSUB_KAFKA_PROPERTIES, new LinkedHashMap<>(o.kafkaProperties));
        }
        if (o.tickMs != null) {
            overrides.put(SettingsTable.TICK_SPOUT_INTERVAL_MS, o.tickMs);
        }
        if (workload) {
            overrides.put(SettingsTable.RECORD_INJECT_TIMESTAMP_ENABLE, true);
            overrides.put(SettingsTable.PUBSUB_KAFKA_RESPONSE_PARTITIONS, ResultFlow.PARTITION + 1);
        }
        return overrides;
    }

    /** The cluster's Storm home: {@code STORM_HOME}, else the project's target/storm-home (its jars already there). */
    static Path stormHome() {
        String env = System.getenv("STORM_HOME");
        return env != null && !env.isBlank() ? Path.of(env)
                : Path.of(System.getProperty("bullet.home", ".")).resolve("target").resolve("storm-home");
    }

    private static int[] ints(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).mapToInt(Integer::parseInt).toArray();
    }

    private static List<byte[]> records(int n) {
        RecordGenerator generator = new RecordGenerator(42L, Clock.SYSTEM);
        List<byte[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(generator.next());
        }
        return out;
    }

    /** Brings the number of running queries to {@code q}: RAW queries on an id no record has. */
    private void setQueries(int q) {
        if (flow != null) {
            flow.setQueries(q);
            if (q > 0) {
                stack.awaitQueriesRegistered();
            }
            return;
        }
        while (running.size() > q) {
            stack.kill(running.remove(running.size() - 1));
        }
        while (running.size() < q) {
            running.add(stack.submit("{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"none-"
                                     + running.size() + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":86400000}"));
        }
        if (q > 0) {
            stack.awaitQueriesRegistered();
        }
    }

    /** P4 for one query count: every rate, lowest first, until one is not sustained. */
    private Map<String, Object> throughput(int q, int[] rates, double step, int repeats) throws Exception {
        Map<String, Object> best = null;
        List<Map<String, Object>> tried = new ArrayList<>();
        for (int rate : rates) {
            Map<String, Object> p = point(q, rate, step, repeats);
            tried.add(p);
            if (!Boolean.TRUE.equals(p.get("sustained"))) {
                break;
            }
            best = p;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("queries", q);
        out.put("max_sustained_rate", best == null ? 0 : best.get("rate"));
        out.put("at_max", best);
        out.put("steps", tried);
        return out;
    }

    /** One point, repeated: medians with min and max. */
    private Map<String, Object> point(int q, int rate, double step, int repeats) throws Exception {
        List<Map<String, Object>> runs = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            runs.add(measure(rate, step));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("queries", q);
        out.put("rate", rate);
        List<String> keys = new ArrayList<>(List.of("consumed_per_second", "sent_per_second", "filter_latency_p50_ms",
                "filter_latency_p99_ms", "lag_end", "cores_used", "records_per_core", "jit_compile_ms", "heap_used_max_mib",
                "rss_mib", "send_lateness_max_ms"));
        if (clusterHome != null) {
            keys.addAll(CLUSTER_CORES);
        }
        if (flow != null) {
            keys.addAll(List.of("results_per_second", "result_bytes_per_second", "restarts_per_second",
                    "produce_to_filtered_p50_ms", "produce_to_filtered_p99_ms", "produce_to_filtered_p999_ms",
                    "produce_to_filtered_max_ms", "produce_to_result_p50_ms", "produce_to_result_p99_ms",
                    "produce_to_result_p999_ms", "produce_to_result_max_ms"));
        }
        for (String key : keys) {
            double[] v = runs.stream().mapToDouble(m -> ((Number) m.get(key)).doubleValue()).sorted().toArray();
            out.put(key, Map.of("median", v[v.length / 2], "min", v[0], "max", v[v.length - 1]));
        }
        if (runs.get(runs.size() - 1).containsKey("cores_by_role")) {
            out.put("cores_by_role_last_run", runs.get(runs.size() - 1).get("cores_by_role"));
        }
        long sustained = runs.stream().filter(m -> Boolean.TRUE.equals(m.get("sustained"))).count();
        out.put("sustained", sustained * 2 > runs.size());
        return out;
    }

    /** Drives the load at {@code rate} for {@code seconds} and measures the pipeline. */
    private Map<String, Object> measure(int rate, double seconds) throws Exception {
        long committedBefore = committed();
        long cpuBefore = EngineBenchmark.processCpuNanos();
        Map<Long, ProcessCpu.Proc> procsBefore = clusterHome == null ? Map.of() : ProcessCpu.sample(clusterHome);
        long from = System.currentTimeMillis();
        long[] heapMax = new long[1];
        Thread heapSampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
                heapMax[0] = Math.max(heapMax[0], used);
                LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
            }
        }, "bench-heap-sampler");
        heapSampler.setDaemon(true);
        heapSampler.start();
        ResultFlow.Interval interval = flow == null ? null : flow.begin();
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long jitBefore = jit == null ? 0 : jit.getTotalCompilationTime();
        long start = System.nanoTime();
        Map<String, Object> load = load(rate, seconds);
        long elapsedNs = System.nanoTime() - start;
        long jitMs = jit == null ? 0 : jit.getTotalCompilationTime() - jitBefore;
        long to = System.currentTimeMillis();
        heapSampler.interrupt();
        long cpu = EngineBenchmark.processCpuNanos() - cpuBefore;
        Map<Long, ProcessCpu.Proc> procsAfter = clusterHome == null ? Map.of() : ProcessCpu.sample(clusterHome);
        long committedAfter = committed();
        long end = endOffset();
        // latency data points are per second; give the last interval time to arrive
        long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (System.nanoTime() < deadline && metrics.between(BulletMetrics.FILTER_LATENCY, to - 1000, to + 5000).isEmpty()) {
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
        List<Double> p50 = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        for (MetricPoint p : metrics.between(BulletMetrics.FILTER_LATENCY, from + 1000, to + 1000)) {
            Map<?, ?> v = (Map<?, ?>) p.value();
            p50.add(((Number) v.get("p50")).doubleValue());
            p99.add(((Number) v.get("p99")).doubleValue());
        }
        double consumed = (committedAfter - committedBefore) / (elapsedNs / 1e9);
        long lag = end - committedAfter;
        double p99max = p99.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        Map<String, Object> m = new LinkedHashMap<>(load);
        m.put("consumed_per_second", Math.round(consumed));
        m.put("lag_end", lag);
        m.put("filter_latency_p50_ms", p50.isEmpty() ? 0 : p50.stream().sorted().toList().get(p50.size() / 2));
        m.put("filter_latency_p99_ms", p99max);
        m.putAll(cores(cpu, ProcessCpu.cpuNanosBetween(procsBefore, procsAfter), elapsedNs, consumed));
        m.put("rss_mib", (selfRssKib() >> 10) + ProcessCpu.rssMib(procsAfter));
        m.put("jit_compile_ms", jitMs); // compiler time inside the step: near 0 once warm
        m.put("heap_used_max_mib", heapMax[0] >> 20);
        double p99Limit = p99max;
        if (flow != null) {
            Map<String, Object> f = flow.end(interval);
            m.put("results_per_second", f.get("results_per_second"));
            m.put("result_bytes_per_second", f.get("result_bytes_per_second"));
            m.put("restarts_per_second", f.get("restarts_per_second"));
            for (String leg : List.of("produce_to_filtered", "produce_to_result")) {
                Map<?, ?> h = (Map<?, ?>) f.get(leg + "_ms");
                for (String q : List.of("p50", "p99", "p999", "max")) {
                    m.put(leg + "_" + q + "_ms", h.get(q));
                }
                m.put(leg + "_count", h.get("count"));
            }
            if (((Number) m.get("produce_to_filtered_count")).longValue() > 0) {
                p99Limit = ((Number) m.get("produce_to_filtered_p99_ms")).doubleValue();
            }
        }
        // the spout commits every 500 ms, so up to ~half a second of records is always uncommitted
        m.put("sustained", consumed >= 0.9 * rate && lag <= Math.max(rate, 2000) && p99Limit < 200);
        return m;
    }

    /** The cores of a cluster run by process: this JVM (broker, load, client), the workers, Storm's daemons. */
    static final List<String> CLUSTER_CORES = List.of("cores_bench_jvm", "cores_workers", "cores_storm_daemons");

    /**
     * Cores used in a step: this JVM's CPU plus, on a cluster, every process of the cluster ({@code byRole}, empty in
     * local mode), split as {@link #CLUSTER_CORES}; and records/s per busy core.
     */
    static Map<String, Object> cores(long selfNanos, Map<String, Long> byRole, long elapsedNs, double consumed) {
        long workers = byRole.getOrDefault("worker", 0L);
        long daemons = byRole.values().stream().mapToLong(Long::longValue).sum() - workers;
        double total = (double) (selfNanos + workers + daemons) / elapsedNs;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores_used", Math.round(100.0 * total) / 100.0);
        m.put("records_per_core", total > 0 ? Math.round(consumed / total) : 0);
        if (!byRole.isEmpty()) {
            m.put("cores_bench_jvm", Math.round(100.0 * selfNanos / elapsedNs) / 100.0);
            m.put("cores_workers", Math.round(100.0 * workers / elapsedNs) / 100.0);
            m.put("cores_storm_daemons", Math.round(100.0 * daemons / elapsedNs) / 100.0);
            m.put("cores_by_role", byRole.entrySet().stream().collect(LinkedHashMap::new,
                    (out, e) -> out.put(e.getKey(), Math.round(100.0 * e.getValue() / elapsedNs) / 100.0), Map::putAll));
        }
        return m;
    }

    /** This JVM's resident memory, KiB (0 off Linux). */
    private static long selfRssKib() {
        try {
            return ProcessCpu.rssKib(Files.readString(Path.of("/proc/self/status")));
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static final long MIN_PARK_NANOS = 1_000_000L;
    /** How long the warm-up may wait for the topology to read the records it sent. */
    static final double MAX_DRAIN_SECONDS = 120;
    /** The backlog left when the warm-up counts as read (the spout commits every 500 ms). */
    private static final long DRAINED_RECORDS = 5_000;

    /**
     * Waits, at most {@code max} seconds, until the topology read what the warm-up sent: a backlog left by workers
     * still compiling (a cluster's JIT is not this JVM's, so {@link #settle} cannot see it) would otherwise be counted
     * against the first step. Returns the seconds waited.
     */
    private double drain(double max) throws Exception {
        long start = System.nanoTime();
        long deadline = start + (long) (max * 1e9);
        while (System.nanoTime() < deadline && endOffset() - committed() > DRAINED_RECORDS) {
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos()); // poll interval
        }
        double waited = (System.nanoTime() - start) / 1e9;
        System.err.printf("warm-up: the backlog was read in %.1f s%n", waited);
        return waited;
    }
    /** How long the warm-up may go on waiting for the JIT to settle, past --warmup-seconds. */
    static final double MAX_SETTLE_SECONDS = 240;
    private static final double SETTLE_CHUNK_SECONDS = 5;
    /** The JIT is settled when it compiled for less than this share of a chunk's time. */
    private static final double SETTLED_JIT_SHARE = 0.03;

    /**
     * Goes on loading at the rate, 5 s at a time, until the JIT compiles for less than 3 % of a chunk (at most
     * {@code max} seconds): on 2 cores the C2 compiler threads still take most of a core a minute into a run of the
     * broker, Storm and the topology in one JVM, and a step measured then counts the compiler as the pipeline's cost.
     * Returns the seconds it added.
     */
    private double settle(int rate, double max) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        double added = 0;
        while (jit != null && jit.isCompilationTimeMonitoringSupported() && added < max) {
            long before = jit.getTotalCompilationTime();
            load(rate, SETTLE_CHUNK_SECONDS);
            added += SETTLE_CHUNK_SECONDS;
            long compiledMs = jit.getTotalCompilationTime() - before;
            System.err.printf("warm-up: the JIT compiled for %d ms of the last %.0f s%n", compiledMs, SETTLE_CHUNK_SECONDS);
            if (compiledMs < SETTLED_JIT_SHARE * SETTLE_CHUNK_SECONDS * 1000) {
                break;
            }
        }
        return added;
    }

    /** Sends at a fixed schedule for {@code seconds}; reports the achieved rate and the worst lateness. */
    private Map<String, Object> load(int rate, double seconds) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "2");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 * 1024));
        p.put(ProducerConfig.ACKS_CONFIG, "1");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        long total = (long) (rate * seconds);
        AtomicLong late = new AtomicLong();
        long start = System.nanoTime();
        long startMs = System.currentTimeMillis();
        long sent = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            String topic = stack.firehoseTopic();
            for (long i = 0; i < total; i++) {
                long intended = start + (long) (i * 1e9 / rate);
                long now = System.nanoTime();
                if (now < intended) {
                    // at least 1 ms: the records due meanwhile go out together when it wakes (each still measured from
                    // its own intended time), so the generator does not wake 10,000 times a second on the 2 cores
                    LockSupport.parkNanos(Math.max(intended - now, MIN_PARK_NANOS));
                } else {
                    late.accumulateAndGet(now - intended, Math::max);
                }
                byte[] record = pool.get((int) (i % pool.size()));
                if (flow != null) { // the intended send time travels in the record, for latency from the producer
                    record = ResultFlow.stamp(record, startMs + (long) (i * 1000.0 / rate));
                }
                producer.send(new ProducerRecord<>(topic, record));
                sent++;
            }
            producer.flush();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rate", rate);
        m.put("sent_per_second", Math.round(sent / elapsed));
        m.put("send_lateness_max_ms", late.get() / 1_000_000);
        return m;
    }

    private Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
        return Admin.create(p);
    }

    private long committed() throws Exception {
        try (Admin admin = admin()) {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(
                    stack.settings().getString(SettingsTable.DATASOURCE_KAFKA_GROUP_ID)).partitionsToOffsetAndMetadata().get();
            return offsets.values().stream().filter(Objects::nonNull).mapToLong(OffsetAndMetadata::offset).sum();
        }
    }

    private long endOffset() throws Exception {
        try (Admin admin = admin()) {
            TopicPartition tp = new TopicPartition(stack.firehoseTopic(), 0);
            ListOffsetsResult r = admin.listOffsets(Map.of(tp, OffsetSpec.latest()));
            return r.partitionResult(tp).get().offset();
        }
    }

    @SuppressWarnings("unchecked")
    private static void plot(String mode, Map<String, Object> result, Path png) throws Exception {
        // with several variants (--join-snapshots on,off): the first one's
        List<Map<String, Object>> points = (List<Map<String, Object>>) (result.containsKey("points") ? result
                : ((List<Map<String, Object>>) result.get("variants")).get(0)).get("points");
        XYChart chart;
        double[] x = points.stream().mapToDouble(p -> ((Number) p.get("queries")).doubleValue()).toArray();
        if (mode.equals("throughput")) {
            chart = new XYChartBuilder().width(800).height(500).title("P4: max sustained records/s vs simultaneous queries")
                                        .xAxisTitle("queries").yAxisTitle("records/s").build();
            chart.addSeries("max sustained records/s", x,
                            points.stream().mapToDouble(p -> ((Number) p.get("max_sustained_rate")).doubleValue()).toArray());
        } else {
            chart = new XYChartBuilder().width(800).height(500).title("P5: filter latency vs simultaneous queries at "
                                                                      + points.get(0).get("rate") + " records/s")
                                        .xAxisTitle("queries").yAxisTitle("filter latency (ms)").build();
            chart.addSeries("p50", x, points.stream().mapToDouble(p -> median(p, "filter_latency_p50_ms")).toArray());
            chart.addSeries("p99", x, points.stream().mapToDouble(p -> median(p, "filter_latency_p99_ms")).toArray());
        }
        chart.getStyler().setXAxisLogarithmic(x.length > 0 && Arrays.stream(x).allMatch(v -> v > 0));
        BitmapEncoder.saveBitmap(chart, png.toString().replaceAll("\\.png$", ""), BitmapEncoder.BitmapFormat.PNG);
    }

    @SuppressWarnings("unchecked")
    private static double median(Map<String, Object> p, String key) {
        return ((Number) ((Map<String, Object>) p.get(key)).get("median")).doubleValue();
    }

    /** The REST service over the bench's topology, answering on the workload's response partition. */
    record RestFront(QueryService service, RestServer server)
            implements AutoCloseable {
        static RestFront start(TopologyHarness stack) {
            BulletSettings settings = stack.settings().withOverrides(Map.of(
                    SettingsTable.REST_PORT, 0,
                    SettingsTable.REST_RESPONSE_PARTITIONS, List.of(String.valueOf(ResultFlow.PARTITION))));
            QueryService service = QueryService.start(settings);
            try {
                return new RestFront(service, RestServer.start(service));
            } catch (RuntimeException e) {
                service.close();
                throw e;
            }
        }

        URI base() {
            return URI.create("http://127.0.0.1:" + server.port());
        }

        @Override
        public void close() {
            service.close(); // first, so that open streams get its answer (RestServer#close)
            server.close();
        }
    }
}

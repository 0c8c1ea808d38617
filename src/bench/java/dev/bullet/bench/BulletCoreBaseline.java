package dev.bullet.bench;

import com.google.gson.Gson;
import com.google.gson.reflect.TypeToken;
import com.yahoo.bullet.common.BulletConfig;
import com.yahoo.bullet.pubsub.Metadata;
import com.yahoo.bullet.query.Projection;
import com.yahoo.bullet.query.Query;
import com.yahoo.bullet.query.Window;
import com.yahoo.bullet.query.aggregations.Raw;
import com.yahoo.bullet.query.expressions.BinaryExpression;
import com.yahoo.bullet.query.expressions.Expression;
import com.yahoo.bullet.query.expressions.FieldExpression;
import com.yahoo.bullet.query.expressions.Operation;
import com.yahoo.bullet.query.expressions.ValueExpression;
import com.yahoo.bullet.querying.Querier;
import com.yahoo.bullet.querying.QueryCategorizer;
import com.yahoo.bullet.querying.QueryManager;
import com.yahoo.bullet.querying.RunningQuery;
import com.yahoo.bullet.record.BulletRecord;
import com.yahoo.bullet.record.BulletRecordProvider;
import com.yahoo.bullet.typesystem.TypedObject;
import dev.bullet.common.Cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Type;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The side-by-side baseline of benchmark E1 (BENCHMARKS.md): the original engine, bullet-core 1.5.2, on one thread,
 * fed the same JSON records and the same N RAW {@code id == <absent value>} queries as our engine.
 *
 * <p>Per record it does what a bullet-storm 1.x deployment did: the JSON message is decoded the way bullet-dsl's
 * schemaless JSON converter did (gson into a {@code Map<String, Object>}, then every non-null entry
 * {@code typedSet} into a record from the configured {@link BulletRecordProvider}, bullet-core's default
 * {@code TypedAvroBulletRecordProvider}), and then handed to the {@link QueryManager} the way the 1.x FilterBolt's
 * {@code onRecord} did: {@code manager.categorize(record)} (= {@code partition(record)} and {@code consume(record)}
 * on each candidate {@link Querier}, then classification), emitting and removing done and rate-limited queriers
 * and resetting closed ones. Queriers are created in {@link Querier.Mode#PARTITION}, as the FilterBolt did.
 *
 * <p>{@code partitioned} turns on bullet-core's opt-in {@code SimpleEqualityPartitioner} on the field {@code id}
 * ({@code bullet.query.partitioner.enable: true}, {@code bullet.query.partitioner.class.name},
 * {@code bullet.query.partitioner.equality.fields: [id]}).
 *
 * <p>Run: {@code java -cp "target/classes:target/test-classes:$(cat target/classpath.txt)"
 * dev.bullet.bench.BulletCoreBaseline --records FILE --queries N --seconds S [--warmup S] [--partitioned]
 * [--pre-decoded]}; prints one JSON object.
 */
public final class BulletCoreBaseline {
    public static final String ENGINE = "bullet-core 1.5.2";
    /** The partitioned field, as in the E1 queries. */
    public static final String ID_FIELD = "id";
    /** Query duration, ms: long enough that no query times out during a run. */
    public static final long QUERY_DURATION_MS = 86_400_000L;
    /** The prefix of the E1 query values: generated ids are lowercase hex, so a '-' never matches one. */
    public static final String ABSENT_PREFIX = "absent-";

    private static final Gson GSON = new Gson();
    private static final Type MAP_TYPE = new TypeToken<Map<String, Object>>() { }.getType();
    private static final String CORE_DEFAULTS = "bullet_defaults.yaml";
    private static final double DEFAULT_WARMUP_SECONDS = 3.0;
    /** Cap on the records decoded up front in pre-decoded mode (decoded records are ~10x their JSON in heap). */
    private static final int MAX_PRE_DECODED = 20_000;

    private BulletCoreBaseline() {
    }

    /**
     * E1 baseline: {@code queries} RAW queries {@code id == "absent-<i>"} (no record has such an id), decode included.
     *
     * @param records JSON records, one object per element (UTF-8)
     * @param queries number of simultaneous queries (&gt;= 1)
     * @param partitioned whether bullet-core's equality partitioner on {@code id} is enabled
     * @param seconds measured time, after the warm-up
     * @param warmupSeconds warm-up time (same loop, not measured)
     * @return the result; see the class comment
     */
    public static Map<String, Object> run(List<byte[]> records, int queries, boolean partitioned, double seconds,
                                          double warmupSeconds) {
        return run(records, absentValues(queries), partitioned, seconds, warmupSeconds, true);
    }

    /** The E1 query values: {@code absent-000000}, {@code absent-000001}, ... */
    public static List<String> absentValues(int queries) {
        if (queries < 1) {
            throw new IllegalArgumentException("queries must be >= 1, got " + queries);
        }
        List<String> values = new ArrayList<>(queries);
        for (int i = 0; i < queries; i++) {
            values.add(String.format("%s%06d", ABSENT_PREFIX, i));
        }
        return values;
    }

    /**
     * The general form: one RAW (size 1) query {@code id == value} per element of {@code idValues} (query ids
     * {@code q0, q1, ...}). With {@code decode} false the records are decoded once up front (at most
     * {@value #MAX_PRE_DECODED}) and the decoded records are reused, so only the query manager is measured.
     *
     * <p>Besides the measured numbers, the result has {@code matched}: query id to the ids of the records its RAW
     * result held when it finished (a query finishes on its first match, as RAW size 1), over warm-up and
     * measurement; for the E1 workload it must be empty.
     */
    public static Map<String, Object> run(List<byte[]> records, List<String> idValues, boolean partitioned,
                                          double seconds, double warmupSeconds, boolean decode) {
        if (records.isEmpty()) {
            throw new IllegalArgumentException("no records");
        }
        if (idValues.isEmpty()) {
            throw new IllegalArgumentException("no queries");
        }
        if (!(seconds > 0) || !(warmupSeconds >= 0) || Double.isInfinite(seconds) || Double.isInfinite(warmupSeconds)) {
            throw new IllegalArgumentException("seconds must be > 0 and warm-up >= 0 (finite)");
        }
        BulletConfig config = config(partitioned);
        Harness harness = new Harness(config, idValues);

        List<BulletRecord<?>> decoded = null;
        if (!decode) {
            int n = Math.min(records.size(), MAX_PRE_DECODED);
            decoded = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                decoded.add(harness.decode(records.get(i)));
            }
        }

        long warmupRecords = harness.loop(records, decoded, warmupSeconds);
        long threadCpu0 = threadCpuNanos();
        long processCpu0 = processCpuNanos();
        long start = System.nanoTime();
        long measured = harness.loop(records, decoded, seconds);
        double elapsed = (System.nanoTime() - start) / 1e9;
        double threadCpu = (threadCpuNanos() - threadCpu0) / 1e9;
        double processCpu = (processCpuNanos() - processCpu0) / 1e9;

        double recordsPerSecond = measured / elapsed;
        long bytes = 0;
        for (byte[] r : records) {
            bytes += r.length;
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("engine", ENGINE);
        result.put("mode", partitioned ? "partitioned" : "default");
        result.put("decode_included", decode);
        result.put("queries", idValues.size());
        result.put("records_per_second", recordsPerSecond);
        result.put("query_evaluations_per_second", recordsPerSecond * idValues.size());
        result.put("records", measured);
        result.put("seconds", elapsed);
        // On a shared machine wall-clock rates depend on the load; CPU-time rates much less so. Process CPU time
        // includes the GC and JIT threads (the whole cost of the single-threaded work); negative if unavailable.
        result.put("thread_cpu_seconds", threadCpu);
        result.put("process_cpu_seconds", processCpu);
        result.put("records_per_thread_cpu_second", threadCpu > 0 ? measured / threadCpu : -1.0);
        result.put("records_per_process_cpu_second", processCpu > 0 ? measured / processCpu : -1.0);
        result.put("warmup_records", warmupRecords);
        result.put("warmup_seconds", warmupSeconds);
        result.put("distinct_records", decoded == null ? records.size() : decoded.size());
        result.put("mean_record_bytes", (double) bytes / records.size());
        result.put("record_provider", config.getAs(BulletConfig.RECORD_PROVIDER_CLASS_NAME, String.class));
        result.put("partitioner", partitioned
                ? config.getAs(BulletConfig.QUERY_PARTITIONER_CLASS_NAME, String.class) + " on [" + ID_FIELD + "]"
                : "none");
        result.put("queries_active_at_end", harness.manager.size());
        result.put("matched", harness.matched);
        return result;
    }

    private static long threadCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : -1_000_000_000L;
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1_000_000_000L;
    }

    /**
     * A validated bullet-core config from bullet-core's own defaults. Gotcha: {@code new BulletConfig()} loads
     * {@code /bullet_defaults.yaml} from the classpath, and this project ships its own file of that name in
     * target/classes, which comes first on the classpath and shadows bullet-core's (bullet-core then warns about
     * every one of its keys and falls back to its validator defaults). So bullet-core's own file is copied out of
     * the bullet-core jar and given as the config file, which overrides every bullet-core key; the project's keys
     * that come along are unknown to bullet-core and unused.
     */
    static BulletConfig config(boolean partitioned) {
        BulletConfig config = new BulletConfig(coreDefaultsFile().toString());
        config.set(BulletConfig.QUERY_PARTITIONER_ENABLE, partitioned);
        if (partitioned) {
            config.set(BulletConfig.QUERY_PARTITIONER_CLASS_NAME,
                       "com.yahoo.bullet.querying.partitioning.SimpleEqualityPartitioner");
            config.set(BulletConfig.EQUALITY_PARTITIONER_FIELDS, List.of(ID_FIELD));
        }
        return config.validate();
    }

    private static Path coreDefaultsFile;

    private static synchronized Path coreDefaultsFile() {
        if (coreDefaultsFile == null) {
            URL location = BulletConfig.class.getProtectionDomain().getCodeSource().getLocation();
            try (JarFile jar = new JarFile(Path.of(location.toURI()).toFile());
                 InputStream in = jar.getInputStream(jar.getEntry(CORE_DEFAULTS))) {
                Path file = Files.createTempFile("bullet-core-1.5.2-defaults", ".yaml");
                file.toFile().deleteOnExit();
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                coreDefaultsFile = file;
            } catch (Exception e) {
                throw new IllegalStateException("cannot read " + CORE_DEFAULTS + " from the bullet-core jar at "
                                                + location, e);
            }
        }
        return coreDefaultsFile;
    }

    /** One QueryManager with its queriers, fed one record at a time the way the 1.x FilterBolt did. */
    private static final class Harness {
        private final BulletConfig config;
        private final BulletRecordProvider provider;
        private final QueryManager manager;
        private final Map<String, List<String>> matched = new LinkedHashMap<>();
        private long emitted;

        Harness(BulletConfig config, List<String> idValues) {
            this.config = config;
            this.provider = config.getBulletRecordProvider();
            this.manager = new QueryManager(config);
            for (int i = 0; i < idValues.size(); i++) {
                String id = "q" + i;
                Query query = query(idValues.get(i));
                Querier querier = new Querier(Querier.Mode.PARTITION, new RunningQuery(id, query, new Metadata()), config);
                manager.addQuery(id, querier);
            }
        }

        private Query query(String value) {
            Expression filter = new BinaryExpression(new FieldExpression(ID_FIELD), new ValueExpression(value),
                                                     Operation.EQUALS);
            Query query = new Query(new Projection(), filter, new Raw(1), null, new Window(), QUERY_DURATION_MS);
            query.configure(config);
            return query;
        }

        /** gson into a Map, then each non-null entry typedSet into a fresh record (bullet-dsl's schemaless path). */
        BulletRecord<?> decode(byte[] message) {
            String json = new String(message, StandardCharsets.UTF_8);
            Map<String, Object> map = GSON.fromJson(json, MAP_TYPE);
            BulletRecord<?> record = provider.getInstance();
            for (Map.Entry<String, Object> entry : map.entrySet()) {
                Object value = entry.getValue();
                if (value != null) {
                    record.typedSet(entry.getKey(), new TypedObject((Serializable) value));
                }
            }
            return record;
        }

        /** FilterBolt 1.x onRecord: categorize (partition + consume + classify), then emit/remove/reset. */
        void onRecord(BulletRecord<?> record) {
            QueryCategorizer category = manager.categorize(record);
            Map<String, Querier> done = category.getDone();
            if (!done.isEmpty()) {
                for (Map.Entry<String, Querier> entry : done.entrySet()) {
                    List<String> ids = new ArrayList<>();
                    for (BulletRecord<?> r : entry.getValue().getRecords()) {
                        ids.add(String.valueOf(r.typedGet(ID_FIELD).getValue()));
                    }
                    matched.computeIfAbsent(entry.getKey(), k -> new ArrayList<>()).addAll(ids);
                    emit(entry.getValue());
                }
                manager.removeQueries(Set.copyOf(done.keySet()));
            }
            Map<String, Querier> rateLimited = category.getRateLimited();
            if (!rateLimited.isEmpty()) {
                rateLimited.values().forEach(q -> q.getRateLimitError());
                manager.removeQueries(Set.copyOf(rateLimited.keySet()));
            }
            for (Querier closed : category.getClosed().values()) {
                emit(closed);
                closed.reset();
            }
        }

        private void emit(Querier querier) {
            byte[] data = querier.getData();
            if (data != null) {
                emitted += data.length;
            }
        }

        /** Cycles over the records for {@code seconds} (checked after every record); returns the records handled. */
        long loop(List<byte[]> records, List<BulletRecord<?>> decoded, double seconds) {
            long deadline = System.nanoTime() + (long) (seconds * 1e9);
            int size = decoded == null ? records.size() : decoded.size();
            long count = 0;
            int i = 0;
            if (seconds <= 0) {
                return 0;
            }
            do {
                BulletRecord<?> record = decoded == null ? decode(records.get(i)) : decoded.get(i);
                onRecord(record);
                count++;
                if (++i == size) {
                    i = 0;
                }
            } while (System.nanoTime() < deadline);
            return count;
        }
    }

    // ------------------------------------------------------------------------------------------------ command line

    /** The command line of the baseline on its own. */
    @Command(name = "BulletCoreBaseline", sortOptions = false,
             customSynopsis = "BulletCoreBaseline --records FILE --queries N --seconds S [--warmup S] [--partitioned] [--pre-decoded]",
             description = {
                 "E1 baseline (BENCHMARKS.md): bullet-core 1.5.2 on one thread, N RAW queries with an == filter on id for",
                 "values no record has, over the JSON lines of FILE, cycled. Decode (gson -> Map -> BulletRecord) included",
                 "unless --pre-decoded. Prints one JSON object.",
                 ""},
             footer = {"", "Exit status: 0 measured, 1 the records cannot be read or there are none, 2 bad command line."})
    static final class Options implements Cli.Validated {
        @Option(names = "--records", paramLabel = "FILE", description = "JSON lines (one record per non-blank line)")
        String records;
        @Option(names = "--queries", paramLabel = "N", description = "number of simultaneous queries (>= 1)")
        Integer queries;
        @Option(names = "--seconds", paramLabel = "S", description = "measured seconds")
        Double seconds;
        @Option(names = "--warmup", paramLabel = "S", description = "warm-up seconds before measuring (default 3)")
        double warmup = DEFAULT_WARMUP_SECONDS;
        @Option(names = "--partitioned", description = "enable bullet-core's SimpleEqualityPartitioner on [id]")
        boolean partitioned;
        @Option(names = "--pre-decoded",
                description = "decode the records once up front (at most 20,000) and measure the query manager only")
        boolean preDecoded;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
        boolean help;

        @Override
        public void validate() {
            if (records == null || queries == null || seconds == null) {
                throw new Cli.UsageException("--records, --queries and --seconds are required");
            }
            if (queries < 1 || !(seconds > 0) || !(warmup >= 0)) {
                throw new Cli.UsageException("--queries must be >= 1, --seconds > 0, --warmup >= 0");
            }
        }
    }

    public static void main(String[] args) {
        Options o = new Options();
        int early = Cli.parse(o, args, System.out, System.err);
        if (early != Cli.RUN) {
            System.exit(early);
        }
        List<byte[]> records;
        try {
            records = readLines(Path.of(o.records));
        } catch (IOException e) {
            System.exit(Cli.failed(System.err, "cannot read " + o.records + ": " + e));
            return;
        }
        if (records.isEmpty()) {
            System.exit(Cli.failed(System.err, "no records in " + o.records));
            return;
        }
        Map<String, Object> result = run(records, absentValues(o.queries), o.partitioned, o.seconds, o.warmup,
                                         !o.preDecoded);
        result.put("records_file", o.records);
        System.out.println(GSON.toJson(result));
    }

    static List<byte[]> readLines(Path file) throws IOException {
        List<byte[]> records = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                records.add(line.getBytes(StandardCharsets.UTF_8));
            }
        }
        return records;
    }
}

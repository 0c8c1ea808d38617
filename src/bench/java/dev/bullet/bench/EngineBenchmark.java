package dev.bullet.bench;

import dev.bullet.common.Cli;
import dev.bullet.index.IndexFeature;
import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.FilterEngine;
import dev.bullet.record.JsonCodec;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Benchmark E1 (BENCHMARKS.md): the engine offline on one thread — records/s and query evaluations/s with N
 * simultaneous queries of one mix, decode included (or excluded), after a warm-up; with the original engine
 * (bullet-core 1.5.2, default and equality-partitioned) run on the same records and query count in the same JVM
 * run, and the ratios. {@code scripts/bench-engine.sh} is its command line.
 */
public final class EngineBenchmark {
    private static final List<String> MIXES = List.of("id", "nested", "range", "rlike", "or", "group", "count-distinct",
                                                      "distribution", "top-k", "realistic", "rlike-realistic");

    private EngineBenchmark() {
    }

    /** The command line of {@code scripts/bench-engine.sh}. */
    @Command(name = "bench-engine.sh", sortOptions = false,
             customSynopsis = {"bench-engine.sh --records FILE [--queries N] [--seconds S] [--warmup S] [--mix NAME]",
                               "                       [--queries-file FILE] [--no-decode] [--no-baseline] [--no-reference]",
                               "                       [--without LIST] [--batch N] [--repeats N]"},
             description = {
                 "E1: N simultaneous queries over the records (JSON lines), one thread, decode included, warm-up first.",
                 "Without --records the script uses 20,000 generator records (seed 42), made once under target/bench.",
                 "Prints one JSON object with records_per_second and query_evaluations_per_second (= records/s x N),",
                 "cores used and heap, and - unless --no-baseline - the same work on bullet-core 1.5.2 (default query",
                 "manager and equality partitioner) with the ratios. For any other mix or a queries file the same run",
                 "also measures 1,000 RAW 'id == <absent>' queries (the equality reference) and reports",
                 "ratio_vs_equality.", ""},
             footer = {"", "Exit status: 0 measured, 2 bad command line or unusable records or queries."})
    static final class Options implements Cli.Validated {
        static {
            // the --without help lists the features of this build
            System.setProperty("bullet.bench.features", featureNames());
        }

        @Option(names = "--records", paramLabel = "FILE", description = "the records, JSON lines (required)")
        String records;
        @Option(names = "--queries", paramLabel = "N",
                description = {"simultaneous queries (default 1000; with --queries-file or --mix realistic: the",
                               "file's queries, repeated or cut to N when given)"})
        Integer queries;
        @Option(names = "--seconds", paramLabel = "S", description = "measured time per engine (default 10)")
        double seconds = 10;
        @Option(names = "--warmup", paramLabel = "S",
                description = {"warm-up per engine, at least (default 10): it goes on, up to 3 x S, until two",
                               "successive 1 s windows agree within 10 %% and the JIT compiled for under 100 ms in",
                               "the last one (a large mix keeps the JIT busy longer)"})
        double warmup = 10;
        @Option(names = "--mix", paramLabel = "NAME",
                description = {"id (RAW == on id, none match; default) | nested (== on a map key)",
                               "| range (numeric >) | rlike | or (OR of == on two fields) | group",
                               "| count-distinct | distribution | top-k",
                               "| realistic (the checked-in 1,000-query mix of docs/PERFORMANCE.md)",
                               "| rlike-realistic (1,000 distinct RAW RLIKE queries with the mix's",
                               "  log-search patterns)"})
        String mix = "id";
        @Option(names = "--queries-file", paramLabel = "FILE",
                description = {"the queries: one a line (JSON or BQL), or JSON objects or an array of them;",
                               "a RAW query that found its size records is",
                               "started again so N stay running; windows and durations are ignored offline"})
        String queriesFile;
        @Option(names = "--no-decode", description = "decode the records once up front (measures filtering alone)")
        boolean noDecode;
        @Option(names = "--no-baseline", description = "skip bullet-core")
        boolean noBaseline;
        @Option(names = "--no-reference", description = "skip the 1,000 == queries reference")
        boolean noReference;
        @Option(names = "--without", paramLabel = "LIST",
                description = {"also run, interleaved, an engine without these optimisations (comma list of",
                               "${sys:bullet.bench.features:-IndexFeature names} or 'all') and report ratio_vs_without"})
        String without;
        @Option(names = "--batch", paramLabel = "N", description = "records per batch handed to the engine (default 1000)")
        int batch = 1000;
        @Option(names = "--repeats", paramLabel = "N",
                description = {"measure each engine N times, alternating, and report the median with",
                               "min-max (default 3)"})
        int repeats = 3;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        boolean help;

        EnumSet<IndexFeature> withoutFeatures;

        @Override
        public void validate() {
            if (records == null) {
                throw new Cli.UsageException("--records FILE is required");
            }
            readable("--records", records);
            if (queriesFile != null) {
                readable("--queries-file", queriesFile);
            }
            if (queries != null && queries < 0) {
                throw new Cli.UsageException("--queries must be a whole number, not '" + queries + "'");
            }
            seconds("--seconds", seconds);
            seconds("--warmup", warmup);
            atLeastOne("--batch", batch);
            atLeastOne("--repeats", repeats);
            if (!MIXES.contains(mix)) {
                throw new Cli.UsageException("--mix is one of " + String.join(", ", MIXES) + ", not '" + mix + "'");
            }
            if (without != null) {
                try {
                    withoutFeatures = IndexFeature.parse(without);
                } catch (IllegalArgumentException e) {
                    throw new Cli.UsageException("--without takes a comma list of " + featureNames()
                                                 + " or 'all', not '" + without + "'");
                }
            }
        }

        private static void readable(String flag, String file) {
            if (!Files.isReadable(Path.of(file))) {
                throw new Cli.UsageException(flag + ": no such file: " + file);
            }
        }

        private static void seconds(String flag, double value) {
            if (!(value >= 0) || Double.isInfinite(value)) {
                throw new Cli.UsageException(flag + " must be a number of seconds, not '" + value + "'");
            }
        }

        private static void atLeastOne(String flag, int value) {
            if (value < 1) {
                throw new Cli.UsageException(flag + " must be a whole number of at least 1, not '" + value + "'");
            }
        }
    }

    /** The optimisations {@code --without} can turn off, comma-separated. */
    static String featureNames() {
        return Arrays.toString(IndexFeature.values()).replaceAll("[\\[\\] ]", "");
    }

    public static void main(String[] args) throws IOException {
        Options o = new Options();
        int early = Cli.parse(o, args, System.out, System.err);
        if (early != Cli.RUN) {
            System.exit(early);
        }
        String mix = o.queriesFile != null ? "file" : o.mix;
        List<byte[]> records;
        Workload workload;
        try {
            records = readRecords(Path.of(o.records));
            workload = workload(o, mix);
        } catch (IOException | IllegalArgumentException e) { // an unreadable file, no record, no valid query
            System.err.println("error: " + e.getMessage());
            System.exit(Cli.EXIT_USAGE);
            return;
        }
        double seconds = o.seconds;
        double warmup = o.warmup;
        int batch = o.batch;
        boolean decode = !o.noDecode;
        EnumSet<IndexFeature> without = o.withoutFeatures;
        EnumSet<IndexFeature> reduced = null;
        if (without != null) {
            reduced = IndexFeature.all();
            reduced.removeAll(without);
        }

        int repeats = o.repeats;
        boolean baseline = !o.noBaseline && mix.equals("id");
        boolean reference = !o.noReference && !mix.equals("id");
        Workload equality = reference ? Workload.of("id", idQueries(1000), null) : null;
        List<Map<String, Object>> ours = new ArrayList<>();
        List<Map<String, Object>> plain = new ArrayList<>();
        List<Map<String, Object>> partitioned = new ArrayList<>();
        List<Map<String, Object>> references = new ArrayList<>();
        List<Map<String, Object>> befores = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            ours.add(run(records, workload, IndexFeature.all(), decode, batch, seconds, warmup));
            System.err.println("run " + (r + 1) + ": " + ours.get(r).get("records_per_second") + " records/s (warm-up "
                               + ours.get(r).get("warmup_seconds") + " s, JIT while measured "
                               + ours.get(r).get("jit_ms_while_measured") + " ms)");
            if (reduced != null) {
                befores.add(run(records, workload, reduced, decode, batch, seconds, warmup));
            }
            if (reference) {
                references.add(run(records, equality, IndexFeature.all(), decode, batch, seconds, warmup));
                System.err.println("run " + (r + 1) + ", == reference: " + references.get(r).get("records_per_second")
                                   + " records/s");
            }
            if (baseline) {
                int queries = workload.queries.size();
                plain.add(BulletCoreBaseline.run(records, queries, false, seconds, warmup));
                partitioned.add(BulletCoreBaseline.run(records, queries, true, seconds, warmup));
            }
        }
        Map<String, Object> result = summarize(ours);
        if (reduced != null) {
            Map<String, Object> before = summarize(befores);
            before.put("without", without.toString());
            result.put("without_features", before);
            result.put("ratio_vs_without", round(rate(result) / rate(before)));
            result.put("ratio_vs_without_per_cpu", round(cpuRate(result) / cpuRate(before)));
        }
        if (reference) {
            Map<String, Object> ref = summarize(references);
            result.put("equality_reference", ref);
            result.put("ratio_vs_equality", round(rate(result) / rate(ref)));
            result.put("ratio_vs_equality_per_cpu", round(cpuRate(result) / cpuRate(ref)));
        }
        if (baseline) {
            Map<String, Object> p = summarize(plain);
            Map<String, Object> q = summarize(partitioned);
            result.put("bullet_core_default", p);
            result.put("bullet_core_partitioned", q);
            for (String rate : List.of("records_per_second", "records_per_thread_cpu_second")) {
                double mine = ((Number) result.get(rate)).doubleValue();
                result.put("ratio_vs_bullet_core_default" + (rate.contains("cpu") ? "_per_cpu" : ""),
                           round(mine / ((Number) p.get(rate)).doubleValue()));
                result.put("ratio_vs_bullet_core_partitioned" + (rate.contains("cpu") ? "_per_cpu" : ""),
                           round(mine / ((Number) q.get(rate)).doubleValue()));
            }
        }
        System.out.println(JsonCodec.toJson(result));
    }

    private static double rate(Map<String, Object> run) {
        return ((Number) run.get("records_per_second")).doubleValue();
    }

    private static double cpuRate(Map<String, Object> run) {
        return ((Number) run.get("records_per_thread_cpu_second")).doubleValue();
    }

    private static List<String> idQueries(int n) {
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(query("id", i));
        }
        return out;
    }

    private static Workload workload(Options o, String mix) throws IOException {
        Workload workload;
        if (o.queriesFile != null) {
            workload = Workload.of("file:" + o.queriesFile, QueryFile.read(Path.of(o.queriesFile)), o.queries);
        } else if (mix.equals("realistic")) {
            workload = Workload.of("realistic", RealisticQueries.load(), o.queries);
        } else if (mix.equals("rlike-realistic")) {
            workload = Workload.of("rlike-realistic", RealisticQueries.rlikeOnly(), o.queries);
        } else {
            int n = o.queries == null ? 1000 : o.queries;
            List<String> texts = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                texts.add(query(mix, i));
            }
            workload = Workload.of(mix, texts, null);
        }
        return workload;
    }

    /**
     * The queries of one run, parsed once: windows are dropped (time does not pass offline), so a RAW query ends
     * when it found its records and is then started again. Invalid lines are reported on stderr and skipped.
     */
    static final class Workload {
        final String name;
        final List<Query> queries = new ArrayList<>();
        int invalid;

        private Workload(String name) {
            this.name = name;
        }

        static Workload of(String name, List<String> texts, Integer count) {
            Workload w = new Workload(name);
            QueryParser parser = new QueryParser(QuerySettings.defaults());
            List<Query> valid = new ArrayList<>();
            for (int i = 0; i < texts.size(); i++) {
                QueryParser.Result parsed = parser.parse(texts.get(i));
                if (!parsed.isValid()) {
                    w.invalid++;
                    System.err.println("warning: query " + (i + 1) + " is invalid and skipped: " + parsed.errors());
                    continue;
                }
                Query q = parsed.query();
                valid.add(new Query(q.filter(), q.where(), q.projection(), q.computed(), q.aggregation(),
                                    q.postAggregations(), null, q.durationMs(), q.original(), q.warnings()));
            }
            if (valid.isEmpty()) {
                throw new IllegalArgumentException("no valid queries in " + name);
            }
            int n = count == null ? valid.size() : count;
            for (int i = 0; i < n; i++) {
                w.queries.add(valid.get(i % valid.size()));
            }
            return w;
        }
    }

    /** The last run's details, with the rates replaced by the median of all runs and their min-max added. */
    static Map<String, Object> summarize(List<Map<String, Object>> runs) {
        Map<String, Object> out = new LinkedHashMap<>(runs.get(runs.size() - 1));
        for (String key : List.of("records_per_second", "query_evaluations_per_second", "records_per_thread_cpu_second")) {
            if (!out.containsKey(key)) {
                continue;
            }
            double[] v = runs.stream().mapToDouble(m -> ((Number) m.get(key)).doubleValue()).sorted().toArray();
            out.put(key, Math.round(v[v.length / 2]));
            out.put(key + "_min", Math.round(v[0]));
            out.put(key + "_max", Math.round(v[v.length - 1]));
        }
        out.put("runs", runs.size());
        return out;
    }

    static List<byte[]> readRecords(Path file) throws IOException {
        List<byte[]> records = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                records.add(line.getBytes(StandardCharsets.UTF_8));
            }
        }
        if (records.isEmpty()) {
            throw new IllegalArgumentException("no records in " + file);
        }
        return records;
    }

    /** The queries of a mix: the i-th query of N. None of the RAW ones matches the generator's records. */
    static String query(String mix, int i) {
        String never = "zz" + Integer.toHexString(i) + "q";
        switch (mix) {
            case "id":
                return "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"" + never
                       + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":86400000}";
            case "nested":
                return "{\"filters\":[{\"field\":\"m_00.k0\",\"operation\":\"==\",\"values\":[\"" + never
                       + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":86400000}";
            case "range":
                return "{\"filters\":[{\"field\":\"l_0\",\"operation\":\">\",\"values\":[\"" + (Long.MAX_VALUE - i)
                       + "\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":86400000}";
            case "rlike":
                return "{\"filters\":[{\"field\":\"s_01\",\"operation\":\"RLIKE\",\"values\":[\"^" + never
                       + ".*x$\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":86400000}";
            case "or":
                return "{\"filters\":[{\"operation\":\"OR\",\"clauses\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\""
                       + never + "\"]},{\"field\":\"s_02\",\"operation\":\"==\",\"values\":[\"" + never
                       + "\"]}]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":86400000}";
            case "group":
                return "{\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"s_00\":\"kind\"},\"attributes\":{\"operations\":"
                       + "[{\"type\":\"COUNT\"},{\"type\":\"SUM\",\"field\":\"l_0\"}]}},\"duration\":86400000}";
            case "count-distinct":
                return "{\"aggregation\":{\"type\":\"COUNT DISTINCT\",\"fields\":{\"s_01\":\"v\"}},\"duration\":86400000}";
            case "distribution":
                return "{\"aggregation\":{\"type\":\"DISTRIBUTION\",\"fields\":{\"l_0\":\"v\"},\"attributes\":"
                       + "{\"type\":\"QUANTILE\",\"points\":[0.5,0.99]}},\"duration\":86400000}";
            case "top-k":
                return "{\"aggregation\":{\"type\":\"TOP K\",\"size\":10,\"fields\":{\"s_01\":\"v\"}},\"duration\":86400000}";
            default:
                throw new IllegalArgumentException("unknown mix '" + mix + "'");
        }
    }

    /** The measured loop over a fresh engine holding the workload, decode included ({@link EngineAB}'s sides). */
    static Object loop(List<byte[]> raw, Workload workload, int batch) {
        FilterEngine engine = new FilterEngine(QuerySettings.defaults());
        for (int i = 0; i < workload.queries.size(); i++) {
            engine.add("q" + i, workload.queries.get(i), 0L);
        }
        return new Loop(engine, workload.queries, new RecordDecoder(), raw, null, batch);
    }

    /** Runs our engine: warm-up, then measures for {@code seconds}; one thread. */
    static Map<String, Object> run(List<byte[]> raw, Workload workload, EnumSet<IndexFeature> features,
                                   boolean decode, int batch, double seconds, double warmup) {
        FilterEngine engine = new FilterEngine(QuerySettings.defaults(), features);
        List<Query> queries = workload.queries;
        for (int i = 0; i < queries.size(); i++) {
            engine.add("q" + i, queries.get(i), 0L);
        }
        RecordDecoder decoder = new RecordDecoder();
        List<Record> predecoded = null;
        if (!decode) {
            predecoded = new ArrayList<>(raw.size());
            for (byte[] r : raw) {
                predecoded.add(decoder.decode(r));
            }
        }
        Loop loop = new Loop(engine, queries, decoder, raw, predecoded, batch);
        double warmedUp = loop.warmUp((long) (warmup * 1e9));
        loop.reset();
        long cpuBefore = processCpuNanos();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long threadBefore = threads.getCurrentThreadCpuTime();
        long jitBefore = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
        long start = System.nanoTime();
        loop.run((long) (seconds * 1e9));
        long jitMs = ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jitBefore;
        long elapsed = System.nanoTime() - start;
        long cpu = processCpuNanos() - cpuBefore;
        long threadCpu = threads.getCurrentThreadCpuTime() - threadBefore;
        double rps = loop.records / (elapsed / 1e9);
        Runtime rt = Runtime.getRuntime();
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("engine", "bullet-storm (this project)");
        result.put("mix", workload.name);
        result.put("queries", queries.size());
        if (workload.invalid > 0) {
            result.put("invalid_queries_skipped", workload.invalid);
        }
        result.put("features", features.toString());
        result.put("decode_included", decode);
        result.put("records", loop.records);
        result.put("seconds", round(elapsed / 1e9));
        result.put("warmup_seconds", round(warmedUp));
        result.put("jit_ms_while_measured", jitMs);
        result.put("records_per_second", Math.round(rps));
        result.put("query_evaluations_per_second", Math.round(rps * queries.size()));
        result.put("records_per_thread_cpu_second", Math.round(loop.records / (threadCpu / 1e9)));
        result.put("partials_per_second", Math.round(loop.partials / (elapsed / 1e9)));
        result.put("restarts_per_second", Math.round(loop.restarts / (elapsed / 1e9)));
        result.put("cores_used", round(cpu / (double) elapsed));
        result.put("heap_used_mib", (rt.totalMemory() - rt.freeMemory()) >> 20);
        result.put("heap_max_mib", rt.maxMemory() >> 20);
        return result;
    }

    /**
     * Feeds batches to the engine; ticks every ten batches (non-RAW partials flow, as every tick in the Filter bolt);
     * restarts every RAW query that found its records, so the number of running queries stays N.
     */
    private static final class Loop {
        private static final int TICK_EVERY_BATCHES = 10;
        final FilterEngine engine;
        final List<Query> queries;
        final RecordDecoder decoder;
        final List<byte[]> raw;
        final List<Record> predecoded;
        final int batch;
        final List<Record> chunk;
        final List<FilterEngine.Partial> out = new ArrayList<>();
        int next;
        long batches;
        long records;
        long partials;
        long restarts;
        /**
         * Whether the engine's partials say that their query is filled: then a partial needs no lookup of its query.
         * {@code bench-ab.sh} runs this loop over older builds too, whose partials do not say it.
         */
        final boolean partialsSayFilled = hasComponent(FilterEngine.Partial.class, "filled");

        Loop(FilterEngine engine, List<Query> queries, RecordDecoder decoder, List<byte[]> raw, List<Record> predecoded,
             int batch) {
            this.engine = engine;
            this.queries = queries;
            this.decoder = decoder;
            this.raw = raw;
            this.predecoded = predecoded;
            this.batch = batch;
            this.chunk = new ArrayList<>(batch);
        }

        /**
         * Runs at least {@code minNanos}, then on in 1 s windows until two successive ones agree within 10 % in records
         * per thread-CPU second (at most twice as long again); returns the seconds it took.
         */
        double warmUp(long minNanos) {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
            long start = System.nanoTime();
            run(minNanos);
            double previous = -1;
            while (System.nanoTime() - start < 3 * minNanos) {
                long before = records;
                long cpu = threads.getCurrentThreadCpuTime();
                long compiling = jit.getTotalCompilationTime();
                run(Math.min(1_000_000_000L, minNanos));
                double rate = (records - before) / Math.max(1e-9, (threads.getCurrentThreadCpuTime() - cpu) / 1e9);
                boolean jitQuiet = jit.getTotalCompilationTime() - compiling < JIT_QUIET_MS;
                if (previous > 0 && Math.abs(rate - previous) <= 0.1 * previous && jitQuiet) {
                    break;
                }
                previous = rate;
            }
            return (System.nanoTime() - start) / 1e9;
        }

        /**
         * A warm-up window in which the JIT compiled for less than this is quiet: a large mix keeps the compilers
         * busy for a while after its rate first looks steady, and a run measured then is half as fast as the next.
         */
        static final long JIT_QUIET_MS = 100;

        void reset() {
            records = 0;
            partials = 0;
            restarts = 0;
        }

        void run(long nanos) {
            long end = System.nanoTime() + nanos;
            int n = raw.size();
            while (System.nanoTime() < end) {
                chunk.clear();
                for (int k = 0; k < batch; k++, next = (next + 1) % n) {
                    chunk.add(predecoded != null ? predecoded.get(next) : decoder.decode(raw.get(next)));
                }
                engine.consume(chunk, 1L, out);
                if (++batches % TICK_EVERY_BATCHES == 0) {
                    engine.tick(1L, out);
                }
                drain();
                records += batch;
            }
        }

        private void drain() {
            partials += out.size();
            for (FilterEngine.Partial p : out) {
                if (partialsSayFilled ? p.filled() : engine.isSatisfied(p.id())) {
                    engine.remove(p.id());
                    engine.add(p.id(), queries.get(Integer.parseInt(p.id().substring(1))), 0L);
                    restarts++;
                }
            }
            out.clear();
        }
    }

    private static boolean hasComponent(Class<?> record, String name) {
        for (RecordComponent c : record.getRecordComponents()) {
            if (c.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean
                ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : 0L;
    }

    static double round(double v) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.3f", v));
    }
}

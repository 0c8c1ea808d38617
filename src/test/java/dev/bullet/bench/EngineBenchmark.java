package dev.bullet.bench;

import dev.bullet.query.QuerySettings;
import dev.bullet.querying.FilterEngine;
import dev.bullet.record.JsonCodec;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
    static final String USAGE = String.join("\n",
            "Usage: bench-engine.sh --records FILE [--queries N] [--seconds S] [--warmup S] [--mix NAME]",
            "                       [--no-decode] [--no-baseline] [--batch N]",
            "",
            "E1: N simultaneous queries over the records (JSON lines), one thread, decode included, warm-up first.",
            "Prints one JSON object with records_per_second and query_evaluations_per_second (= records/s x N),",
            "cores used and heap, and - unless --no-baseline - the same work on bullet-core 1.5.2 (default query",
            "manager and equality partitioner) with the ratios.",
            "",
            "  --queries N    simultaneous queries (default 1000)",
            "  --seconds S    measured time per engine (default 10)",
            "  --warmup S     warm-up per engine (default 5)",
            "  --mix NAME     id (RAW == on id, none match; default) | nested (== on a map key) | range (numeric >)",
            "                 | rlike | or (OR of == on two fields) | group | count-distinct | distribution | top-k",
            "  --no-decode    decode the records once up front (measures filtering alone)",
            "  --no-baseline  skip bullet-core",
            "  --batch N      records per batch handed to the engine (default 1000)",
            "  --repeats N    measure each engine N times, alternating, and report the median with min-max (default 3)");

    private EngineBenchmark() {
    }

    public static void main(String[] args) throws IOException {
        Map<String, String> opts = new LinkedHashMap<>();
        List<String> flags = List.of("--no-decode", "--no-baseline", "--help", "-h");
        for (int i = 0; i < args.length; i++) {
            if (flags.contains(args[i])) {
                opts.put(args[i], "true");
            } else if (args[i].startsWith("--") && i + 1 < args.length) {
                opts.put(args[i], args[++i]);
            } else {
                fail("unknown or incomplete argument '" + args[i] + "'");
            }
        }
        if (opts.containsKey("--help") || opts.containsKey("-h")) {
            System.out.println(USAGE);
            return;
        }
        for (String k : opts.keySet()) {
            if (!List.of("--records", "--queries", "--seconds", "--warmup", "--mix", "--no-decode", "--no-baseline",
                         "--batch", "--repeats").contains(k)) {
                fail("unknown argument '" + k + "'");
            }
        }
        if (!opts.containsKey("--records")) {
            fail("--records FILE is required");
        }
        List<byte[]> records = readRecords(Path.of(opts.get("--records")));
        int queries = Integer.parseInt(opts.getOrDefault("--queries", "1000"));
        double seconds = Double.parseDouble(opts.getOrDefault("--seconds", "10"));
        double warmup = Double.parseDouble(opts.getOrDefault("--warmup", "5"));
        String mix = opts.getOrDefault("--mix", "id");
        int batch = Integer.parseInt(opts.getOrDefault("--batch", "1000"));
        boolean decode = !opts.containsKey("--no-decode");

        int repeats = Integer.parseInt(opts.getOrDefault("--repeats", "3"));
        boolean baseline = !opts.containsKey("--no-baseline") && mix.equals("id");
        List<Map<String, Object>> ours = new ArrayList<>();
        List<Map<String, Object>> plain = new ArrayList<>();
        List<Map<String, Object>> partitioned = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            ours.add(run(records, queries, mix, decode, batch, seconds, warmup));
            if (baseline) {
                plain.add(BulletCoreBaseline.run(records, queries, false, seconds, warmup));
                partitioned.add(BulletCoreBaseline.run(records, queries, true, seconds, warmup));
            }
        }
        Map<String, Object> result = summarize(ours);
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

    private static void fail(String message) {
        System.err.println("error: " + message);
        System.err.println(USAGE);
        System.exit(2);
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

    /** Runs our engine: warm-up, then measures for {@code seconds}; one thread. */
    static Map<String, Object> run(List<byte[]> raw, int queries, String mix, boolean decode, int batch,
                                   double seconds, double warmup) {
        FilterEngine engine = new FilterEngine(QuerySettings.defaults());
        for (int i = 0; i < queries; i++) {
            if (!engine.add("q" + i, query(mix, i), 0L)) {
                throw new IllegalStateException("benchmark query rejected: " + query(mix, i));
            }
        }
        RecordDecoder decoder = new RecordDecoder();
        List<Record> predecoded = null;
        if (!decode) {
            predecoded = new ArrayList<>(raw.size());
            for (byte[] r : raw) {
                predecoded.add(decoder.decode(r));
            }
        }
        List<FilterEngine.Partial> out = new ArrayList<>();
        List<Record> chunk = new ArrayList<>(batch);
        long[] counter = new long[1];
        loop(engine, decoder, raw, predecoded, chunk, out, batch, (long) (warmup * 1e9), counter);
        counter[0] = 0;
        long cpuBefore = processCpuNanos();
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long threadBefore = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        loop(engine, decoder, raw, predecoded, chunk, out, batch, (long) (seconds * 1e9), counter);
        long elapsed = System.nanoTime() - start;
        long cpu = processCpuNanos() - cpuBefore;
        long threadCpu = threads.getCurrentThreadCpuTime() - threadBefore;
        double rps = counter[0] / (elapsed / 1e9);
        Runtime rt = Runtime.getRuntime();
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("engine", "bullet-storm (this project)");
        result.put("mix", mix);
        result.put("queries", queries);
        result.put("decode_included", decode);
        result.put("records", counter[0]);
        result.put("seconds", round(elapsed / 1e9));
        result.put("records_per_second", Math.round(rps));
        result.put("query_evaluations_per_second", Math.round(rps * queries));
        result.put("records_per_thread_cpu_second", Math.round(counter[0] / (threadCpu / 1e9)));
        result.put("cores_used", round(cpu / (double) elapsed));
        result.put("heap_used_mib", (rt.totalMemory() - rt.freeMemory()) >> 20);
        result.put("heap_max_mib", rt.maxMemory() >> 20);
        return result;
    }

    private static void loop(FilterEngine engine, RecordDecoder decoder, List<byte[]> raw, List<Record> predecoded,
                             List<Record> chunk, List<FilterEngine.Partial> out, int batch, long nanos, long[] counter) {
        long end = System.nanoTime() + nanos;
        int n = raw.size();
        int i = 0;
        while (System.nanoTime() < end) {
            chunk.clear();
            for (int k = 0; k < batch; k++, i = (i + 1) % n) {
                chunk.add(predecoded != null ? predecoded.get(i) : decoder.decode(raw.get(i)));
            }
            engine.consume(chunk, 1L, out);
            out.clear();
            counter[0] += batch;
        }
        engine.tick(1L, out);
        out.clear();
    }

    static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean
                ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : 0L;
    }

    static double round(double v) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.3f", v));
    }
}

package dev.bullet.bench;

import dev.bullet.common.Cli;
import dev.bullet.query.MemoryBounds;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.FilterEngine;
import dev.bullet.querying.JoinEngine;
import dev.bullet.querying.WorkerMemory;
import dev.bullet.record.JsonCodec;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The heap of one Filter task and one Join task (the engines, in one JVM, on a simulated clock) under queries that
 * would fill it: a RAW query with a RECORD window of 2,000,000,000 records, a RAW query of size 500 over records of
 * ~1 MB, a GROUP over a unique field, and 20 COUNT dashboards, at 10,000 records/s for some simulated minutes; every
 * query that ends is sent again at once, as a user retrying would. Prints the heap used after a full GC at every
 * simulated 30 s, with and without the bounds on what a query holds ({@code scripts/bench-heap-bound.sh}).
 */
public final class HeapBoundBenchmark {
    private static final long T0 = 1_700_000_000_000L;
    private static final int BATCH = 1_000;
    private static final long TICK_MS = 100;
    private static final String HOSTILE_WINDOW = "{\"aggregation\":{\"type\":\"RAW\",\"size\":500},"
            + "\"window\":{\"emit\":{\"type\":\"RECORD\",\"every\":2000000000}},\"duration\":600000}";
    private static final String RAW_LARGE = "{\"filters\":[{\"field\":\"kind\",\"operation\":\"==\",\"values\":[\"large\"]}],"
            + "\"aggregation\":{\"type\":\"RAW\",\"size\":500},\"duration\":600000}";
    private static final String GROUP_UNIQUE = "{\"aggregation\":{\"type\":\"GROUP\",\"size\":500,\"fields\":{\"id\":\"id\"},"
            + "\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}},\"duration\":600000}";
    private static final String COUNT = "{\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":"
            + "[{\"type\":\"COUNT\"}]}},\"duration\":60000}";

    private HeapBoundBenchmark() {
    }

    /** The command line of {@code scripts/bench-heap-bound.sh}. */
    @Command(name = "bench-heap-bound.sh", sortOptions = false,
             description = {"The Filter and Join engines under queries that would fill the heap, at 10,000 records/s on a",
                            "simulated clock; the heap used after a full GC every simulated 30 s. Prints JSON.", ""},
             footer = {"", "Exit status: 0 measured, 2 bad command line."})
    static final class Options implements Cli.Validated {
        @Option(names = "--minutes", paramLabel = "M", description = "simulated minutes (default 5)")
        int minutes = 5;
        @Option(names = "--large-per-second", paramLabel = "N", description = "records of ~1 MB per second (default 5)")
        int largePerSecond = 5;
        @Option(names = "--no-bounds", description = "run without bullet.query.max.bytes (the heap a query may take)")
        boolean noBounds;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        boolean help;

        @Override
        public void validate() {
            if (minutes < 1 || largePerSecond < 0 || largePerSecond > 10_000) {
                throw new Cli.UsageException("--minutes must be >= 1 and --large-per-second in 0..10000");
            }
        }
    }

    public static void main(String[] args) {
        Options o = new Options();
        int early = Cli.parse(o, args, System.out, System.err);
        if (early != Cli.RUN) {
            System.exit(early);
        }
        MemoryBounds bounds = o.noBounds ? MemoryBounds.NONE : MemoryBounds.defaults();
        QuerySettings settings = QuerySettings.defaults();
        FilterEngine filter = new FilterEngine(settings, bounds);
        WorkerMemory memory = new WorkerMemory(bounds.workerBytes(Runtime.getRuntime().maxMemory()));
        JoinEngine join = new JoinEngine(settings, 1, 500, bounds, 1, memory);
        Map<String, String> standing = new LinkedHashMap<>();
        standing.put("hostile-window", HOSTILE_WINDOW);
        standing.put("raw-large", RAW_LARGE);
        standing.put("group-unique", GROUP_UNIQUE);
        for (int i = 0; i < 20; i++) {
            standing.put("count-" + i, COUNT);
        }
        Map<String, Integer> generation = new LinkedHashMap<>();
        long now = T0;
        for (Map.Entry<String, String> q : standing.entrySet()) {
            submit(q.getKey(), 0, q.getValue(), now, filter, join);
            generation.put(q.getKey(), 0);
        }

        RecordDecoder decoder = new RecordDecoder();
        byte[] large = ("{\"kind\":\"large\",\"pad\":\"" + "x".repeat(1_000_000 - 40) + "\"}").getBytes(StandardCharsets.UTF_8);
        List<Long> samples = new ArrayList<>();
        long endedByBytes = 0;
        long results = 0;
        long records = 0;
        long end = T0 + o.minutes * 60_000L;
        long nextSample = T0;
        long started = System.nanoTime();
        List<FilterEngine.Partial> partials = new ArrayList<>();
        List<JoinEngine.Emitted> emitted = new ArrayList<>();
        int largeEvery = o.largePerSecond == 0 ? Integer.MAX_VALUE : Math.max(1, 10_000 / o.largePerSecond);
        while (now < end) {
            List<Record> batch = new ArrayList<>(BATCH);
            for (int i = 0; i < BATCH; i++, records++) {
                batch.add(decoder.decode(records % largeEvery == 0 ? large.clone() // each message its own bytes, as from Kafka
                        : ("{\"kind\":\"small\",\"id\":\"" + records + "\",\"pad\":\"" + "y".repeat(400) + "\"}")
                              .getBytes(StandardCharsets.UTF_8)));
            }
            filter.consume(batch, now, partials);
            filter.tick(now, partials);
            for (FilterEngine.Partial p : partials) {
                join.combine(p.id(), p.payload(), p.last(), 0, new long[0], false, now, emitted);
            }
            partials.clear();
            join.tick(now, emitted);
            for (JoinEngine.Emitted e : emitted) {
                results++;
                if (e.result().isFinal()) {
                    if (e.result().toJson().contains("bullet.query.max.bytes")) {
                        endedByBytes++;
                    }
                    filter.remove(e.id());
                    String name = e.id().substring(0, e.id().lastIndexOf('#'));
                    int next = generation.merge(name, 1, Integer::sum);
                    submit(name, next, standing.get(name), now, filter, join); // the user sends it again
                }
            }
            emitted.clear();
            now += TICK_MS;
            if (now >= nextSample) {
                samples.add(heapUsedAfterGc());
                nextSample += 30_000;
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("bounds", o.noBounds ? "none" : "defaults (bullet.query.max.bytes 33554432)");
        out.put("simulatedMinutes", o.minutes);
        out.put("records", records);
        out.put("results", results);
        out.put("queriesEndedByBytes", endedByBytes);
        out.put("heapUsedAfterGcMiB", samples.stream().map(b -> b / (1024 * 1024)).toList());
        out.put("maxHeapUsedAfterGcMiB", samples.stream().mapToLong(Long::longValue).max().orElse(0) / (1024 * 1024));
        out.put("maxHeapMiB", Runtime.getRuntime().maxMemory() / (1024 * 1024));
        out.put("seconds", (System.nanoTime() - started) / 1_000_000_000.0);
        System.out.println(JsonCodec.toJson(out));
    }

    private static void submit(String name, int generation, String json, long now, FilterEngine filter, JoinEngine join) {
        String id = name + "#" + generation;
        filter.add(id, json, now);
        join.add(id, json, now, 0);
    }

    @SuppressWarnings("java:S1215") // a full GC before each sample is the point: the heap that stays, not garbage
    private static long heapUsedAfterGc() {
        System.gc();
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }
}

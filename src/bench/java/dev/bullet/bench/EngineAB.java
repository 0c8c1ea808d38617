package dev.bullet.bench;

import dev.bullet.common.Cli;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Before/after of the engine in one JVM (scripts/bench-ab.sh): two builds of the project, each in its own class
 * loader, run the same query set over the same records in alternating short slices, and the ratio of their CPU per
 * record is taken slice by slice. On a shared machine whose speed drifts by ±25 % between invocations, two runs
 * minutes apart cannot tell a 5 % change; slices a few hundred milliseconds apart see the same machine. Each side
 * is the loop of {@link EngineBenchmark} (batches of 1,000 decoded records, queries started again when they
 * complete), one thread, CPU time of that thread.
 */
public final class EngineAB {
    private EngineAB() {
    }

    /** The command line; {@code scripts/bench-ab.sh} turns its {@code --base REV} into the two build directories. */
    @Command(name = "bench-ab.sh", sortOptions = false,
             customSynopsis = {"bench-ab.sh --base REV [--records FILE] --queries-file FILE [--queries-file FILE ...]",
                               "                   [--base-queries-file FILE] [--rounds N] [--slice-ms MS]"},
             description = {"Before/after of the engine in one JVM: the working tree against --base REV, each build in its",
                            "own class loader, alternating short slices over the same records and queries.", "",
                            "      --base REV            the revision to compare the working tree with (built once into",
                            "                            target/ab/REV; bench-ab.sh passes it on as --base-dir)", ""},
             footer = {"", "Prints one JSON object per query set: each side's median microseconds of CPU per record, and the",
                       "median, min and max over the slices of current / base (below 1: the working tree is faster)."})
    static final class Options implements Cli.Validated {
        @Option(names = "--base-dir", paramLabel = "DIR",
                description = {"the base build: DIR/target/classes and DIR/target/classpath.txt",
                               "(set by bench-ab.sh)"})
        String baseDir;
        @Option(names = "--current-dir", paramLabel = "DIR",
                description = "the working tree's build, as --base-dir (set by bench-ab.sh)")
        String currentDir;
        @Option(names = "--records", paramLabel = "FILE",
                description = "JSON lines (default: 20,000 generator records, seed 42, made once)")
        String records;
        @Option(names = "--queries-file", paramLabel = "FILE",
                description = "the queries, as the engine benchmark reads them; several: each set compared in turn")
        List<String> queriesFiles = new ArrayList<>();
        @Option(names = "--base-queries-file", paramLabel = "FILE",
                description = {"the base runs this set instead, against each --queries-file: two forms of one mix",
                               "compared (with --base HEAD, the same code on both sides)"})
        String baseQueriesFile;
        @Option(names = "--rounds", paramLabel = "N", description = "measured slices per side (default 30, after 4 warm-up slices)")
        int rounds = 30;
        @Option(names = "--slice-ms", paramLabel = "MS", description = "length of one slice (default 300)")
        long sliceMs = 300;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        boolean help;

        @Override
        public void validate() {
            if (baseDir == null || currentDir == null) {
                throw new Cli.UsageException("--base-dir and --current-dir are required (bench-ab.sh sets them from --base)");
            }
            if (records == null) {
                throw new Cli.UsageException("--records is required");
            }
            if (queriesFiles.isEmpty()) {
                throw new Cli.UsageException("--queries-file is required");
            }
            if (rounds < 1 || sliceMs < 10) {
                throw new Cli.UsageException("--rounds must be at least 1 and --slice-ms at least 10");
            }
            List<String> files = new ArrayList<>(queriesFiles);
            files.add(records);
            if (baseQueriesFile != null) {
                files.add(baseQueriesFile);
            }
            for (String file : files) {
                if (!Files.isReadable(Path.of(file))) {
                    throw new Cli.UsageException("cannot read " + file);
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Options o = new Options();
        int early = Cli.parse(o, args, System.out, System.err);
        if (early != Cli.RUN) {
            System.exit(early);
        }
        int rounds = o.rounds;
        long sliceMs = o.sliceMs;
        List<byte[]> records = EngineBenchmark.readRecords(Path.of(o.records));
        String[] homes = {o.baseDir, o.currentDir};
        for (String queriesFile : o.queriesFiles) {
            List<String> lines = QueryFile.read(Path.of(queriesFile));
            List<String> baseLines = o.baseQueriesFile == null ? lines : QueryFile.read(Path.of(o.baseQueriesFile));
            Object[] sides = new Object[2];
            Method[] run = new Method[2];
            for (int s = 0; s < 2; s++) {
                ClassLoader loader = loader(homes[s]);
                Class<?> side = Class.forName(Side.class.getName(), true, loader);
                sides[s] = side.getConstructor(List.class, List.class).newInstance(s == 0 ? baseLines : lines, records);
                run[s] = side.getMethod("run", long.class);
            }
            double[][] micros = new double[2][rounds];
            double[] ratios = new double[rounds];
            for (int r = -4; r < rounds; r++) {
                for (int k = 0; k < 2; k++) {
                    int s = (r + 4 + k) % 2; // each side goes first every other round
                    double us = (double) run[s].invoke(sides[s], sliceMs);
                    if (r >= 0) {
                        micros[s][r] = us;
                    }
                }
                if (r >= 0) {
                    ratios[r] = micros[1][r] / micros[0][r];
                }
            }
            Arrays.sort(ratios);
            Arrays.sort(micros[0]);
            Arrays.sort(micros[1]);
            System.out.println(String.format(Locale.ROOT,
                    "{\"queries_file\":\"%s\",%s\"queries\":%d,\"rounds\":%d,\"slice_ms\":%d,"
                    + "\"base_us_per_record\":%.2f,\"current_us_per_record\":%.2f,"
                    + "\"current_over_base\":%.3f,\"current_over_base_min\":%.3f,\"current_over_base_max\":%.3f}",
                    quoted(queriesFile),
                    o.baseQueriesFile == null ? "" : "\"base_queries_file\":\"" + quoted(o.baseQueriesFile) + "\",",
                    lines.size(), rounds, sliceMs,
                    micros[0][rounds / 2], micros[1][rounds / 2], ratios[rounds / 2], ratios[0], ratios[rounds - 1]));
        }
    }

    private static String quoted(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /**
     * A loader for one build: its classes and dependencies first (only {@code target/classes} and
     * {@code target/classpath.txt} of {@code home}, so any earlier build works as the base), then the folder this
     * class was loaded from, the benchmark classes of the running build (for {@link Side} only, which uses nothing
     * but the engine's public API); the JDK's platform classes as parent.
     */
    static ClassLoader loader(String home) throws Exception {
        List<URL> urls = new ArrayList<>();
        urls.add(new File(home, "target/classes/").toURI().toURL());
        String classpath = Files.readString(Path.of(home, "target", "classpath.txt")).trim();
        for (String jar : classpath.split(File.pathSeparator)) {
            if (!jar.isEmpty()) {
                urls.add(new File(jar).toURI().toURL());
            }
        }
        URL self = EngineAB.class.getProtectionDomain().getCodeSource().getLocation();
        urls.add(self);
        return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    /** One side: {@link EngineBenchmark}'s loop over one build's engine. Public for the other class loader. */
    public static final class Side {
        private final EngineBenchmark.Workload workload;
        private final Object loop;
        private final Method runFor;
        private final Field records;

        public Side(List<String> queries, List<byte[]> raw) throws Exception {
            workload = EngineBenchmark.Workload.of("ab", queries, null);
            loop = EngineBenchmark.loop(raw, workload, 1000);
            runFor = loop.getClass().getDeclaredMethod("run", long.class);
            runFor.setAccessible(true);
            records = loop.getClass().getDeclaredField("records");
            records.setAccessible(true);
        }

        /** Runs about {@code millis}; returns this thread's CPU microseconds per record. */
        public double run(long millis) throws Exception {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long before = (long) records.get(loop);
            long cpu = threads.getCurrentThreadCpuTime();
            runFor.invoke(loop, millis * 1_000_000L);
            long n = (long) records.get(loop) - before;
            return (threads.getCurrentThreadCpuTime() - cpu) / 1e3 / Math.max(1, n);
        }
    }
}

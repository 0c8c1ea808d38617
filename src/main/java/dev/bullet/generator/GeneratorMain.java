package dev.bullet.generator;

import dev.bullet.common.Cli;
import dev.bullet.common.Clock;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The data generator's command line ({@code scripts/generate.sh}): feeds the pipeline's firehose topic with
 * {@link RecordGenerator} records at a fixed rate, or with the lines of a file, or writes records to a file.
 * See {@link GeneratorOptions} (or {@code --help}) for the flags.
 *
 * <p>{@link #run} is the programmatic entry (tests call it); only {@link #main} exits the JVM.
 */
public final class GeneratorMain {
    static final int EXIT_OK = Cli.EXIT_OK;
    static final int EXIT_FAILED = Cli.EXIT_FAILED;
    static final int EXIT_USAGE = Cli.EXIT_USAGE;

    private GeneratorMain() {
    }

    public static void main(String[] args) {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch finished = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop.set(true);
            try {
                finished.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "generator-shutdown"));
        int code;
        try {
            code = run(args, System.in, System.out, System.err, stop::get, Clock.SYSTEM, System::nanoTime);
        } finally {
            finished.countDown();
        }
        System.exit(code);
    }

    /** Runs the generator with the system clocks; returns the exit code instead of exiting. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, System.in, out, err, () -> false, Clock.SYSTEM, System::nanoTime);
    }

    static int run(String[] args, InputStream in, PrintStream out, PrintStream err, BooleanSupplier stop,
                   Clock clock, LongSupplier nanoClock) {
        GeneratorOptions options = new GeneratorOptions();
        int early = Cli.parse(options, args, out, err);
        if (early != Cli.RUN) {
            return early;
        }
        JsonLinesSource lines = null;
        try {
            SendLoop.Source source;
            if (options.records() != null) {
                lines = openLines(options.records(), in, err);
                source = lines;
            } else {
                RecordGenerator generator = new RecordGenerator(options.seed(), clock);
                source = generator::next;
            }
            try (RecordSink sink = openSink(options, out)) {
                FixedRateSchedule schedule = new FixedRateSchedule(options.ratePerSecond(), nanoClock,
                    LockSupport::parkNanos);
                SendLoop loop = new SendLoop(source, sink, schedule, nanoClock, stop, err);
                SendLoop.Result result = loop.run(options.maxRecords(), options.durationNanos());
                printSummary(err, result, sink, lines);
            }
            return EXIT_OK;
        } catch (NoSuchFileException e) {
            err.println("generate: --records file not found: " + e.getFile());
            return EXIT_USAGE;
        } catch (SinkException e) {
            err.println("generate: failed: " + e.getMessage());
            return EXIT_FAILED;
        } catch (IOException e) {
            err.println("generate: failed: I/O error: " + e);
            return EXIT_FAILED;
        } finally {
            if (lines != null && !options.records().equals(GeneratorOptions.STDIO)) {
                closeQuietly(lines, err);
            }
        }
    }

    private static JsonLinesSource openLines(String records, InputStream in, PrintStream err) throws IOException {
        BufferedReader reader = records.equals(GeneratorOptions.STDIO)
            ? new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))
            : Files.newBufferedReader(Path.of(records), StandardCharsets.UTF_8);
        String name = records.equals(GeneratorOptions.STDIO) ? "stdin" : records;
        return new JsonLinesSource(reader, name, err);
    }

    private static RecordSink openSink(GeneratorOptions options, PrintStream out) throws SinkException {
        if (options.toKafka()) {
            return KafkaRecordSink.connect(options.bootstrap(), options.topic(), KafkaRecordSink.DEFAULT_TIMEOUT);
        }
        if (options.out().equals(GeneratorOptions.STDIO)) {
            return FileRecordSink.toStream(out, "stdout");
        }
        return FileRecordSink.toFile(options.outPath());
    }

    private static void printSummary(PrintStream err, SendLoop.Result result, RecordSink sink,
                                     JsonLinesSource lines) {
        err.printf(Locale.ROOT,
            "generate: %s %,d records (%,d delivered) to %s in %.2f s: %,.0f records/s, %.1f MiB/s, max lag %,d ms%n",
            result.stopped() ? "stopped after" : "done:", result.sent(), result.delivered(), sink.describe(),
            result.elapsedNanos() / 1e9, result.recordsPerSecond(), result.mebibytesPerSecond(),
            result.maxLagNanos() / 1_000_000);
        if (lines != null && lines.suspiciousLines() > 0) {
            err.printf(Locale.ROOT, "generate: warning: %,d line(s) were not JSON objects%n", lines.suspiciousLines());
        }
    }

    private static void closeQuietly(JsonLinesSource lines, PrintStream err) {
        try {
            lines.close();
        } catch (IOException e) {
            err.println("generate: warning: cannot close the --records input: " + e.getMessage());
        }
    }
}

package dev.bullet.generator;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The generator's main loop: takes records from a {@link Source}, sends each when the
 * {@link FixedRateSchedule} says it is due, reports progress to stderr about once a second, and flushes
 * the sink at the end. Bounded by a record count, by a duration, by the end of the source, and by a stop
 * request (Ctrl-C), whichever comes first.
 */
final class SendLoop {
    private static final long REPORT_INTERVAL_NANOS = 1_000_000_000L;
    private static final long BEHIND_NANOS = 100_000_000L;
    /** Longest wait between checks for a stop request. */
    private static final long MAX_WAIT_NANOS = 100_000_000L;

    /** Where records come from: the {@link RecordGenerator} or the lines of a {@code --records} file. */
    interface Source {
        /** The next record, or null when there are no more. */
        byte[] next() throws IOException;
    }

    /** What a run did. Lags are how late records were sent relative to the schedule. */
    record Result(long sent, long delivered, long bytes, long elapsedNanos, long maxLagNanos, boolean stopped) {
        double recordsPerSecond() {
            return elapsedNanos == 0 ? 0 : sent * 1e9 / elapsedNanos;
        }

        double mebibytesPerSecond() {
            return elapsedNanos == 0 ? 0 : bytes * 1e9 / elapsedNanos / (1024.0 * 1024.0);
        }
    }

    private final Source source;
    private final RecordSink sink;
    private final FixedRateSchedule schedule;
    private final LongSupplier nanoClock;
    private final BooleanSupplier stopRequested;
    private final PrintStream progress;
    private long lastReportNanos;
    private long sentAtLastReport;

    SendLoop(Source source, RecordSink sink, FixedRateSchedule schedule, LongSupplier nanoClock,
             BooleanSupplier stopRequested, PrintStream progress) {
        this.source = source;
        this.sink = sink;
        this.schedule = schedule;
        this.nanoClock = nanoClock;
        this.stopRequested = stopRequested;
        this.progress = progress;
    }

    /**
     * Runs once.
     *
     * @param maxRecords    records to send at most, or -1 for no count bound
     * @param durationNanos how long to send for, or 0 for no time bound
     */
    Result run(long maxRecords, long durationNanos) throws SinkException, IOException {
        long sent = 0;
        long bytes = 0;
        long maxLag = 0;
        boolean stopped = false;
        schedule.start();
        lastReportNanos = schedule.startNanos();
        while (maxRecords < 0 || sent < maxRecords) {
            if (stopRequested.getAsBoolean()) {
                stopped = true;
                break;
            }
            long lag = schedule.awaitDue(sent, MAX_WAIT_NANOS);
            if (lag < 0) {
                continue;
            }
            long now = nanoClock.getAsLong();
            if (durationNanos > 0 && now - schedule.startNanos() >= durationNanos) {
                break;
            }
            byte[] record = source.next();
            if (record == null) {
                break;
            }
            sink.send(record);
            sent++;
            bytes += record.length;
            maxLag = Math.max(maxLag, lag);
            if (now - lastReportNanos >= REPORT_INTERVAL_NANOS) {
                reportProgress(now, sent, lag);
            }
        }
        sink.flush();
        return new Result(sent, sink.delivered(), bytes, schedule.elapsedNanos(), maxLag, stopped);
    }

    private void reportProgress(long now, long sent, long lagNanos) {
        double rate = (sent - sentAtLastReport) * 1e9 / (now - lastReportNanos);
        progress.printf(Locale.ROOT, "generate: %,d sent, %,.0f records/s, %,d delivered, lag %,d ms%s%n",
            sent, rate, sink.delivered(), lagNanos / 1_000_000,
            lagNanos > BEHIND_NANOS ? " (behind schedule: the sink cannot keep up with --rate)" : "");
        sentAtLastReport = sent;
        lastReportNanos = now;
    }
}

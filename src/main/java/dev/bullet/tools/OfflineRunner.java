package dev.bullet.tools;

import dev.bullet.common.BulletError;
import dev.bullet.common.Clock;
import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.FilterQuerier;
import dev.bullet.querying.JoinQuerier;
import dev.bullet.querying.Result;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs one query over a stream of JSON lines as if they arrived live (SPEC §6.11), through the same Filter/Join
 * protocol as the topology (one partition): every closed window, then the final result, go to the sink. At the end
 * of the input the duration counts as elapsed. Malformed lines are counted, reported and skipped.
 */
public final class OfflineRunner {
    /** What a run did. */
    public record Outcome(boolean valid, long records, long matched, long malformed) {
    }

    private final QuerySettings settings;
    private final Clock clock;

    public OfflineRunner(QuerySettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    /** Runs a query given as JSON or BQL (told apart by {@link QueryParser#parse(String)}). */
    public Outcome run(String query, BufferedReader records, Consumer<Result> sink, PrintStream diagnostics)
            throws IOException {
        return run(query, false, records, sink, diagnostics);
    }

    /** Runs a query; with {@code bql} the text is read as BQL whatever it looks like. */
    public Outcome run(String queryText, boolean bql, BufferedReader records, Consumer<Result> sink, PrintStream diagnostics)
            throws IOException {
        QueryParser parser = new QueryParser(settings);
        QueryParser.Result parsed = bql ? parser.parseBql(queryText) : parser.parse(queryText);
        if (!parsed.isValid()) {
            sink.accept(Result.errors(parsed.errors()));
            return new Outcome(false, 0, 0, 0);
        }
        Query query = parsed.query();
        long start = clock.now();
        String id = "offline-" + Long.toHexString(start);
        FilterQuerier filter = new FilterQuerier(id, query, start, settings);
        JoinQuerier join = new JoinQuerier(id, query, start, settings, 1, 0);
        RecordDecoder decoder = new RecordDecoder(settings.limits());
        boolean raw = query.isRaw();
        long count = 0;
        long matched = 0;
        long malformed = 0;
        long lineNumber = 0;
        String line;
        while (!join.isDone() && (line = records.readLine()) != null) {
            lineNumber++;
            if (line.isBlank()) {
                continue;
            }
            byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
            Record record = decoder.decode(bytes);
            if (record == null) {
                malformed++;
                diagnostics.println("line " + lineNumber + ": " + decoder.rejection(bytes) + ", skipped");
                continue;
            }
            count++;
            long now = clock.now();
            if (join.isExpired(now)) {
                // arrived after the query's duration: not part of it
                break;
            }
            if (join.isWindowDue(now)) {
                // a time window closed before this record arrived: it holds everything consumed until then
                emit(join.combine(filter.takePartial(), false, now), sink);
                emit(join.tick(now), sink);
                if (join.isDone()) {
                    break;
                }
            }
            if (filter.isSatisfied()) {
                continue;
            }
            boolean match;
            try {
                match = filter.consume(record, now);
            } catch (RuntimeException | StackOverflowError e) {
                // contained to this record: counted, reported, skipped
                malformed++;
                diagnostics.println("line " + lineNumber + ": could not be processed (" + e + "), skipped");
                continue;
            }
            if (match) {
                matched++;
                if (raw) {
                    emit(join.combine(filter.takePartial(), false, now), sink);
                }
            } else if (filter.failure() != null) {
                emit(join.combine(filter.failure(), false, -1, now), sink); // ends the query with its error
            }
        }
        long now = clock.now();
        if (!join.isDone()) {
            emit(join.combine(filter.takePartial(), true, now), sink);
        }
        if (!join.isDone()) {
            sink.accept(join.finish(now));
        }
        if (malformed > 0) {
            diagnostics.println(malformed + " malformed line(s) skipped");
        }
        return new Outcome(true, count, matched, malformed);
    }

    private static void emit(List<Result> results, Consumer<Result> sink) {
        results.forEach(sink);
    }

    /** The result printed for an invalid query. */
    public static Result invalid(List<BulletError> errors) {
        return Result.errors(errors);
    }
}

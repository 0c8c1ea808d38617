package dev.bullet.schema;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import dev.bullet.common.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Samples the stream for {@link SchemaInference}: every {@code bullet.schema.sample.interval.ms} it runs one small internal query through the
 * topology, {@code {"aggregation": {"type": "RAW", "size": N}, "duration": D}}, which ends as soon as it holds N
 * records, and hands the records to the inference. While samples come back empty (no records flowing, or the topology
 * not up yet) the wait starts at {@value #FIRST_INTERVAL_MS} ms and doubles up to the interval, so a stream that
 * starts is seen within an interval and an idle one costs a query per interval. One query at a time; a query that
 * does not come back is not repeated until it ended or was given up: a sample's result may come up to
 * {@value #FIRST_PATIENCE_MS} ms after its duration, doubling with each sample in a row that came back empty or not at
 * all (up to the service's {@code bullet.rest.result.grace.ms}). So a first sample sent before the topology could read
 * it (at a cold start of the stack) is sent again seconds later, not after the whole grace, and a loaded topology
 * still gets the time it needs. The REST service runs it like a health probe: not listed, no quota.
 *
 * <p>Thread-safe; {@link #tick()} is what the sampler's thread calls once a second (tests call it directly).
 */
public final class SchemaSampler implements AutoCloseable {
    /**
     * Runs an internal query; {@code onEnd} gets its final result's JSON, or null when it had none, including when it
     * did not come within {@code patienceMs} after the query's duration (the runner may wait less). Never blocks.
     */
    @FunctionalInterface
    public interface InternalQueries {
        void run(String query, long patienceMs, Consumer<String> onEnd);
    }

    static final long FIRST_INTERVAL_MS = 2_000;
    /** How long after its duration the first sample's result is waited for; doubled for each empty one in a row. */
    static final long FIRST_PATIENCE_MS = 5_000;
    /** The most doublings of {@link #FIRST_PATIENCE_MS}. */
    private static final int PATIENCE_DOUBLINGS = 4;
    private static final long TICK_MS = 500;
    private static final Logger LOG = LoggerFactory.getLogger(SchemaSampler.class);

    private final SchemaInference inference;
    private final InternalQueries queries;
    private final Clock clock;
    private final String query;
    private final long intervalMs;
    private final AtomicBoolean inFlight = new AtomicBoolean();
    private volatile long nextDue = Long.MIN_VALUE;
    /** Samples in a row that came back without a record: the wait before the next doubles with each, up to the interval. */
    private int emptyStreak;
    private ScheduledExecutorService thread;

    public SchemaSampler(SchemaInference inference, InternalQueries queries, Clock clock, int size, long durationMs,
                         long intervalMs) {
        this.inference = inference;
        this.queries = queries;
        this.clock = clock;
        this.query = sampleQuery(size, durationMs);
        this.intervalMs = intervalMs;
    }

    /** The sampling query. */
    static String sampleQuery(int size, long durationMs) {
        return "{\"aggregation\":{\"type\":\"RAW\",\"size\":" + size + "},\"duration\":" + durationMs + "}";
    }

    /** Starts the sampler's daemon thread. */
    public SchemaSampler start() {
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bullet-schema-sampler");
            t.setDaemon(true);
            return t;
        });
        thread.scheduleWithFixedDelay(this::tickSafely, 0, TICK_MS, TimeUnit.MILLISECONDS);
        return this;
    }

    private void tickSafely() {
        try {
            tick();
        } catch (RuntimeException e) {
            LOG.warn("The schema sampler failed to send its query; it tries again", e);
            inFlight.set(false);
        }
    }

    /** Sends the sampling query if one is due and none is in flight; true if it sent one. */
    public boolean tick() {
        long now = clock.now();
        if (now < nextDue || !inFlight.compareAndSet(false, true)) {
            return false;
        }
        queries.run(query, patienceMs(), this::onEnd);
        return true;
    }

    /** How long after its duration the next sample's result is waited for (read after {@link #inFlight} is taken). */
    private long patienceMs() {
        return FIRST_PATIENCE_MS << Math.min(emptyStreak, PATIENCE_DOUBLINGS);
    }

    private void onEnd(String resultJson) {
        List<JsonObject> records = records(resultJson);
        long now = clock.now();
        inference.accept(records, now);
        emptyStreak = records.isEmpty() ? Math.min(emptyStreak + 1, 16) : 0;
        boolean known = inference.snapshot().ready();
        long wait = known && emptyStreak == 0 ? intervalMs
                : Math.min(intervalMs, FIRST_INTERVAL_MS << Math.max(0, emptyStreak - 1));
        nextDue = now + wait;
        inFlight.set(false);
    }

    /** The records of a result; none for null, an error result or anything unreadable. */
    static List<JsonObject> records(String resultJson) {
        if (resultJson == null) {
            return List.of();
        }
        try {
            JsonElement root = JsonParser.parseString(resultJson);
            JsonElement records = root.isJsonObject() ? root.getAsJsonObject().get("records") : null;
            if (records == null || !records.isJsonArray()) {
                return List.of();
            }
            List<JsonObject> out = new ArrayList<>();
            for (JsonElement r : (JsonArray) records) {
                if (r.isJsonObject()) {
                    out.add(r.getAsJsonObject());
                }
            }
            return out;
        } catch (JsonParseException e) {
            LOG.warn("A schema sample's result is not JSON; it is skipped: {}", e.getMessage());
            return List.of();
        }
    }

    @Override
    public void close() {
        if (thread != null) {
            thread.shutdownNow();
        }
    }
}

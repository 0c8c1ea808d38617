package dev.bullet.rest;

import com.google.gson.JsonElement;
import dev.bullet.bql.Bql;
import dev.bullet.common.BulletError;
import dev.bullet.common.Clock;
import dev.bullet.config.BulletSettings;
import dev.bullet.pubsub.KafkaPubSub;
import dev.bullet.pubsub.KafkaPubSubConfig;
import dev.bullet.pubsub.PubSubException;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.rest.QueryListener.Ending;
import dev.bullet.storm.KafkaPubSubFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The REST service without HTTP (SPEC §7.2): validates a query, enforces the concurrent-query limit, publishes the
 * query to the PubSub stamped with one of this instance's response partitions, and routes the results that come
 * back on those partitions to the query's {@link QueryListener} by query id. So several instances can share one
 * topology: each reads only its own partitions ({@code bullet.rest.response.partitions}).
 *
 * <p>One reader thread polls the response subscriber, hands each result to its listener, and ends queries whose
 * final result is overdue (duration + {@code bullet.rest.result.grace.ms}): their listener gets
 * {@link Ending#TIMED_OUT} and the topology a KILL. Until the reader has its subscriber (Kafka reachable, topic
 * there) the service refuses queries as unavailable rather than lose their results.
 *
 * <p>Thread-safe. {@link #submit} and {@link #kill} block while Kafka acknowledges the message; call them off
 * the network threads.
 */
public final class QueryService implements AutoCloseable {
    /** What the client wants back. */
    public enum Mode {
        /** One final result (http-query): windowed queries are refused. */
        SINGLE_RESULT,
        /** Every window's result, then the final one (sse-query). */
        STREAM
    }

    /** Why a query was not accepted. */
    public enum Refusal {
        /** Malformed or invalid query. */
        INVALID,
        /** {@code bullet.rest.max.concurrent.queries} are running already. */
        TOO_MANY_QUERIES,
        /** Kafka cannot be reached. */
        UNAVAILABLE
    }

    /** The outcome of {@link #submit}. */
    public sealed interface Submission {
    }

    /** The query is running; its listener will hear of its results and its end. */
    public record Accepted(String id) implements Submission {
    }

    /** The query is not running; {@code errorJson} says why, in the result shape. Its listener was never called. */
    public record Refused(Refusal reason, String errorJson) implements Submission {
    }

    /**
     * The outcome of {@link #validate}: valid when there are no errors. Warnings report clamped values;
     * {@code jsonForm} is the JSON query a valid BQL query became (null for a JSON query).
     */
    public record Validation(List<BulletError> errors, List<BulletError> warnings, JsonElement jsonForm) {
        public boolean valid() {
            return errors.isEmpty();
        }
    }

    /** A running query submitted through this instance. */
    public record RunningQuery(String id, JsonElement query, long startTime) {
    }

    /** Whether the PubSub and the topology answer. */
    public record Health(boolean up, String detail) {
    }

    /** The health probe: the smallest query the topology answers (at its next tick, with or without data). */
    static final String PROBE_QUERY = "{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":1}";
    /** How long a good health answer is reused before the topology is probed again. */
    static final long HEALTH_CACHE_MS = 5_000;
    static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
    private static final long RECONNECT_DELAY_MS = 1_000;
    private static final long ERROR_PAUSE_MS = 100;
    private static final long SHUTDOWN_KILL_BUDGET_MS = 5_000;
    private static final Logger LOG = LoggerFactory.getLogger(QueryService.class);

    private final RestSettings settings;
    private final QueryParser parser;
    private final Publisher publisher;
    private final Supplier<Subscriber> subscriberFactory;
    private final Clock clock;
    private final ExecutorService signals;
    private final String kafkaDescription;
    private final Map<String, Running> running = new ConcurrentHashMap<>();
    /** Client queries (not probes) registered in {@link #running}; the concurrent-query limit applies to it. */
    private final AtomicInteger clientQueries = new AtomicInteger();
    private final AtomicInteger partitionCursor = new AtomicInteger();

    private final Object healthLock = new Object();
    private CompletableFuture<Health> probeInFlight;
    private Health lastGoodHealth;
    private long healthyUntil = Long.MIN_VALUE;

    /** Owned by the reader thread (a Kafka consumer is single-threaded). */
    private Subscriber subscriber;
    private volatile boolean connected;
    private volatile String connectProblem = "not connected yet";
    private volatile boolean closed;
    private Thread reader;
    private long receiveFailures;

    /**
     * @param subscriberFactory makes the response subscriber (reading this instance's partitions); called by the
     *                          reader thread until it succeeds
     * @param signals           runs publishes that nobody waits for (KILLs of overdue queries, health probes)
     */
    QueryService(RestSettings settings, QuerySettings querySettings, Publisher publisher,
                 Supplier<Subscriber> subscriberFactory, Clock clock, ExecutorService signals, String kafkaDescription) {
        this.settings = settings;
        this.parser = new QueryParser(querySettings);
        this.publisher = publisher;
        this.subscriberFactory = subscriberFactory;
        this.clock = clock;
        this.signals = signals;
        this.kafkaDescription = kafkaDescription;
    }

    /**
     * A service on the Kafka PubSub of {@code settings}, with its reader thread started. Returns at once: the
     * reader connects in the background (creating the PubSub topics if they are missing) and keeps retrying while
     * Kafka cannot be reached; meanwhile {@link #health()} is down and queries are refused as unavailable.
     */
    public static QueryService start(BulletSettings settings) {
        KafkaPubSubConfig config = KafkaPubSubFactory.config(settings);
        KafkaPubSub pubSub = new KafkaPubSub(config);
        RestSettings rest = RestSettings.from(settings);
        Supplier<Subscriber> subscribers = () -> {
            try {
                // first, so that a missing response topic is not auto-created with the broker's partition count
                pubSub.createTopics();
            } catch (PubSubException e) {
                LOG.debug("Cannot create the PubSub topics (they may exist, or this client may not create topics)", e);
            }
            return pubSub.responseSubscriber(rest.responsePartitions());
        };
        String where = "Kafka at " + config.bootstrapServers() + " (topics " + config.requestTopic() + ", "
                       + config.responseTopic() + ")";
        QueryService service = new QueryService(rest, QuerySettings.from(settings), pubSub.requestPublisher(),
                                                subscribers, Clock.SYSTEM, signalExecutor(), where);
        service.startReader();
        return service;
    }

    private static ExecutorService signalExecutor() {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                                                             r -> {
                                                                 Thread t = new Thread(r, "bullet-rest-signals");
                                                                 t.setDaemon(true);
                                                                 return t;
                                                             });
        return executor;
    }

    /** Starts the reader thread (a daemon). */
    void startReader() {
        reader = new Thread(this::readLoop, "bullet-rest-results");
        reader.setDaemon(true);
        reader.start();
    }

    public RestSettings settings() {
        return settings;
    }

    // ---- queries ----

    /**
     * Validates the query, and if it is valid and may run, publishes it.
     *
     * @param listenerFactory makes the query's listener from its id; called only when the query is about to be
     *                        published. A listener may hear results (even the end) before this method returns.
     * @return {@link Accepted}, or {@link Refused} with the error to answer (the listener is then never called)
     */
    public Submission submit(String body, Mode mode, Function<String, QueryListener> listenerFactory) {
        QueryParser.Result parsed = parser.parse(body);
        if (!parsed.isValid()) {
            return new Refused(Refusal.INVALID, ErrorResults.of(parsed.errors()));
        }
        Query query = parsed.query();
        if (mode == Mode.SINGLE_RESULT && query.window() != null) {
            return new Refused(Refusal.INVALID, ErrorResults.of(
                    "http-query returns one final result, but this query has a window ("
                    + query.window().kind().displayName() + ") that emits a result per window",
                    "Send it to POST /api/bullet/queries/sse-query to receive each window's result as an event",
                    "Or remove \"window\" to get one result when the duration ends"));
        }
        if (!connected) {
            return new Refused(Refusal.UNAVAILABLE, unavailable());
        }
        if (!reserveSlot()) {
            return new Refused(Refusal.TOO_MANY_QUERIES, ErrorResults.of(
                    settings.maxConcurrentQueries() + " queries are running through this REST instance already, its "
                    + "limit (bullet.rest.max.concurrent.queries)",
                    "Retry when some have finished",
                    "Kill queries you no longer need: DELETE /api/bullet/queries/{id} (GET /api/bullet/queries lists them)",
                    "Or raise bullet.rest.max.concurrent.queries"));
        }
        String id = UUID.randomUUID().toString();
        long now = clock.now();
        Running r = new Running(id, query.original(), now, now + query.durationMs() + settings.resultGraceMs(),
                                nextPartition(), false, listenerFactory.apply(id));
        running.put(id, r);
        try {
            publisher.send(PubSubMessage.query(id, body, r.partition));
        } catch (PubSubException e) {
            if (running.remove(id, r)) {
                clientQueries.decrementAndGet();
                return new Refused(Refusal.UNAVAILABLE, ErrorResults.forQuery(id,
                        "Kafka did not take the query: " + e.getMessage(),
                        "Check that Kafka is running (" + kafkaDescription + "), then retry",
                        "GET /api/bullet/health shows whether the PubSub and the topology answer"));
            }
            // It ended meanwhile (service shutting down): its listener has answered.
            return new Accepted(id);
        }
        r.published = true;
        return new Accepted(id);
    }

    /** Parses and validates the query without running it. */
    public Validation validate(String body) {
        QueryParser.Result parsed = parser.parse(body);
        if (!parsed.isValid()) {
            return new Validation(parsed.errors(), List.of(), null);
        }
        String bql = QueryParser.bqlOf(body);
        return new Validation(List.of(), parsed.query().warnings(), bql == null ? null : Bql.translate(bql).query());
    }

    /** The queries submitted through this instance that are running, oldest first. */
    public List<RunningQuery> running() {
        List<RunningQuery> out = new ArrayList<>();
        for (Running r : running.values()) {
            if (!r.probe && r.published) {
                out.add(new RunningQuery(r.id, r.query, r.startTime));
            }
        }
        out.sort(Comparator.comparingLong(RunningQuery::startTime).thenComparing(RunningQuery::id));
        return out;
    }

    /**
     * Kills a running query: sends KILL to the topology (which drops it from every Filter and Join task without a
     * result), then ends its listener with {@link Ending#KILLED}.
     *
     * @return false if no query of this instance has that id (unknown, or already ended)
     * @throws PubSubException if Kafka did not take the KILL; the query is then left running
     */
    public boolean kill(String id) {
        Running r = running.get(id);
        if (r == null || r.probe) {
            return false;
        }
        publisher.send(PubSubMessage.signal(id, Signal.KILL, r.partition));
        return finish(r, Ending.KILLED, ErrorResults.forQuery(id,
                "The query was killed before it finished",
                "It was killed with DELETE /api/bullet/queries/" + id + "; submit it again if you still need it"));
    }

    /** How many client queries run through this instance now. */
    public int runningCount() {
        return clientQueries.get();
    }

    // ---- health ----

    /**
     * Whether Kafka and the topology answer: a tiny probe query ({@value #PROBE_QUERY}) must come back within
     * {@code bullet.rest.health.timeout.ms}. A good answer is reused for {@value #HEALTH_CACHE_MS} ms; concurrent
     * callers share one probe. Never blocks.
     */
    public CompletableFuture<Health> health() {
        if (!connected) {
            return CompletableFuture.completedFuture(new Health(false, "cannot read results from " + kafkaDescription
                                                                       + ": " + connectProblem));
        }
        CompletableFuture<Health> probe;
        synchronized (healthLock) {
            if (clock.now() < healthyUntil) {
                return CompletableFuture.completedFuture(lastGoodHealth);
            }
            if (probeInFlight != null) {
                return probeInFlight;
            }
            probe = new CompletableFuture<>();
            probeInFlight = probe;
        }
        probe.whenComplete((health, failure) -> {
            synchronized (healthLock) {
                probeInFlight = null;
                if (health != null && health.up()) {
                    lastGoodHealth = health;
                    healthyUntil = clock.now() + HEALTH_CACHE_MS;
                }
            }
        });
        long sent = clock.now();
        String id = "health-" + UUID.randomUUID();
        Running r = new Running(id, null, sent, sent + settings.healthTimeoutMs(), nextPartition(), true,
                                new ProbeListener(probe, sent));
        running.put(id, r);
        try {
            signals.execute(() -> {
                try {
                    publisher.send(PubSubMessage.query(id, PROBE_QUERY, r.partition));
                    r.published = true;
                } catch (PubSubException e) {
                    if (running.remove(id, r)) {
                        probe.complete(new Health(false, "Kafka did not take the probe query (" + kafkaDescription + "): "
                                                         + e.getMessage()));
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            running.remove(id, r);
            probe.complete(new Health(false, "the service is shutting down"));
        }
        return probe;
    }

    /** Completes a health probe from the probe query's end. */
    private final class ProbeListener implements QueryListener {
        private final CompletableFuture<Health> probe;
        private final long sent;

        ProbeListener(CompletableFuture<Health> probe, long sent) {
            this.probe = probe;
            this.sent = sent;
        }

        @Override
        public void onResult(String resultJson) {
            // a probe has no windows
        }

        @Override
        public void onEnd(Ending ending, String resultJson) {
            probe.complete(switch (ending) {
                case COMPLETED -> new Health(true, "the topology answered a probe query in " + (clock.now() - sent) + " ms");
                case TIMED_OUT -> new Health(false, "the topology did not answer a probe query within "
                                                    + settings.healthTimeoutMs() + " ms (is it running, and reading "
                                                    + kafkaDescription + "?)");
                case KILLED, SHUT_DOWN -> new Health(false, "the service is shutting down");
            });
        }
    }

    // ---- the reader ----

    private void readLoop() {
        try {
            while (!closed) {
                try {
                    if (subscriber == null && !connect()) {
                        expire(clock.now());
                        pause(RECONNECT_DELAY_MS);
                        continue;
                    }
                    pollOnce(POLL_TIMEOUT);
                } catch (org.apache.kafka.common.errors.InterruptException e) {
                    if (!closed) {
                        LOG.warn("The result reader was interrupted; going on");
                    }
                } catch (RuntimeException e) {
                    LOG.error("Unexpected failure in the result reader; going on", e);
                    pause(ERROR_PAUSE_MS);
                }
            }
        } finally {
            if (subscriber != null) {
                try {
                    subscriber.close();
                } catch (RuntimeException e) {
                    LOG.warn("Cannot close the response subscriber cleanly", e);
                }
            }
        }
    }

    /** Tries once to make the response subscriber; true when the service is connected. Reader thread only. */
    boolean connect() {
        try {
            subscriber = subscriberFactory.get();
        } catch (RuntimeException e) {
            String problem = String.valueOf(e.getMessage());
            if (!problem.equals(connectProblem)) {
                LOG.warn("Cannot read results from {} yet (retrying every {} ms): {}", kafkaDescription,
                         RECONNECT_DELAY_MS, problem);
            }
            connectProblem = problem;
            return false;
        }
        connected = true;
        LOG.info("Reading results from {}, response partitions {}", kafkaDescription, settings.responsePartitions());
        return true;
    }

    /** One round of the reader: results in, overdue queries out. Reader thread only. */
    void pollOnce(Duration timeout) {
        List<PubSubMessage> messages;
        try {
            messages = subscriber.receive(timeout);
        } catch (PubSubException e) {
            if (receiveFailures++ % 100 == 0) {
                LOG.warn("Cannot read results from {} ({} failures so far): {}", kafkaDescription, receiveFailures,
                         e.getMessage());
            }
            messages = List.of();
            pause(ERROR_PAUSE_MS);
        }
        for (PubSubMessage m : messages) {
            deliver(m);
        }
        expire(clock.now());
    }

    private void deliver(PubSubMessage m) {
        Running r = running.get(m.id());
        if (r == null) {
            return; // ended already (killed, timed out), or sent before a restart
        }
        if (m.signal() == Signal.COMPLETE || m.signal() == Signal.FAIL) {
            String payload = m.payload() == null || m.payload().isEmpty()
                             ? ErrorResults.forQuery(m.id(), "The topology ended the query without a result",
                                                     "Submit it again") : m.payload();
            finish(r, Ending.COMPLETED, payload);
        } else if (!m.hasSignal()) {
            r.result(m.payload());
        }
    }

    /** Ends the queries whose final result is overdue. */
    void expire(long now) {
        for (Running r : running.values()) {
            if (now < r.deadline) {
                continue;
            }
            if (r.probe) {
                finish(r, Ending.TIMED_OUT, "");
                continue;
            }
            String error = ErrorResults.forQuery(r.id,
                    "No final result from the topology within the query's duration plus "
                    + settings.resultGraceMs() + " ms (bullet.rest.result.grace.ms)",
                    "Check that the topology is running and reading " + kafkaDescription
                    + ": GET /api/bullet/health", "Submit the query again");
            if (finish(r, Ending.TIMED_OUT, error)) {
                try {
                    signals.execute(() -> sendKill(r));
                } catch (RejectedExecutionException e) {
                    LOG.debug("Not killing overdue query {}: shutting down", r.id);
                }
            }
        }
    }

    private void sendKill(Running r) {
        try {
            publisher.send(PubSubMessage.signal(r.id, Signal.KILL, r.partition));
        } catch (PubSubException e) {
            LOG.warn("Cannot send KILL for overdue query {}: {}", r.id, e.getMessage());
        }
    }

    /** Removes the query and ends its listener; false if it had ended already. */
    private boolean finish(Running r, Ending ending, String json) {
        if (!running.remove(r.id, r)) {
            return false;
        }
        if (!r.probe) {
            clientQueries.decrementAndGet();
        }
        r.end(ending, json);
        return true;
    }

    private boolean reserveSlot() {
        while (true) {
            int n = clientQueries.get();
            if (n >= settings.maxConcurrentQueries()) {
                return false;
            }
            if (clientQueries.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    private int nextPartition() {
        List<Integer> partitions = settings.responsePartitions();
        return partitions.get(Math.floorMod(partitionCursor.getAndIncrement(), partitions.size()));
    }

    private String unavailable() {
        return ErrorResults.of("The service cannot read results from " + kafkaDescription + ": " + connectProblem,
                               "Check that Kafka is running and reachable, then retry",
                               "GET /api/bullet/health shows whether the PubSub and the topology answer");
    }

    private void pause(long ms) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        long left;
        while (!closed && (left = until - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    // ---- shutdown ----

    /**
     * Stops the reader, ends every running query's listener with {@link Ending#SHUT_DOWN}, sends the topology a
     * KILL for each (for at most a few seconds; the rest end by their duration), and closes the PubSub clients.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (reader != null) {
            try {
                reader.join(POLL_TIMEOUT.toMillis() * 20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        long killDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SHUTDOWN_KILL_BUDGET_MS);
        boolean kafkaAnswers = true;
        int notKilled = 0;
        for (Running r : new ArrayList<>(running.values())) {
            boolean ended = finish(r, Ending.SHUT_DOWN, ErrorResults.forQuery(r.id,
                    "The REST service is shutting down", "Submit the query again when the service is back"));
            if (!ended || r.probe || !r.published) {
                continue;
            }
            if (kafkaAnswers && System.nanoTime() < killDeadline) {
                try {
                    publisher.send(PubSubMessage.signal(r.id, Signal.KILL, r.partition));
                    continue;
                } catch (PubSubException e) {
                    kafkaAnswers = false;
                }
            }
            notKilled++;
        }
        if (notKilled > 0) {
            LOG.warn("{} running queries were not killed in the topology at shutdown; they end by their duration",
                     notKilled);
        }
        signals.shutdown();
        try {
            if (!signals.awaitTermination(2, TimeUnit.SECONDS)) {
                signals.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        publisher.close();
    }

    /** A query (or health probe) waiting for its results. */
    private static final class Running {
        final String id;
        final JsonElement query;
        final long startTime;
        final long deadline;
        final int partition;
        final boolean probe;
        private final QueryListener listener;
        volatile boolean published;
        private boolean ended;

        Running(String id, JsonElement query, long startTime, long deadline, int partition, boolean probe,
                QueryListener listener) {
            this.id = id;
            this.query = query;
            this.startTime = startTime;
            this.deadline = deadline;
            this.partition = partition;
            this.probe = probe;
            this.listener = listener;
        }

        synchronized void result(String json) {
            if (ended) {
                return;
            }
            try {
                listener.onResult(json);
            } catch (RuntimeException e) {
                LOG.error("The listener of query {} failed on a result", id, e);
            }
        }

        synchronized void end(Ending ending, String json) {
            if (ended) {
                return;
            }
            ended = true;
            try {
                listener.onEnd(ending, json);
            } catch (RuntimeException e) {
                LOG.error("The listener of query {} failed at its end ({})", id, ending, e);
            }
        }
    }
}

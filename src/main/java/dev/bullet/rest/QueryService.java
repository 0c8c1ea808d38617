package dev.bullet.rest;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import dev.bullet.common.BulletError;
import dev.bullet.common.Clock;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.pubsub.KafkaPubSub;
import dev.bullet.pubsub.KafkaPubSubConfig;
import dev.bullet.pubsub.KafkaStateStore;
import dev.bullet.pubsub.PubSubException;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.rest.QueryListener.Ending;
import dev.bullet.rest.RunningQueries.Running;
import dev.bullet.schema.FirehoseSchema;
import dev.bullet.pubsub.KafkaPubSubFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The REST service without HTTP (SPEC §7.2), a facade over the registry of running queries ({@link RunningQueries}),
 * the result reader ({@link ResultReader}) and the health probe ({@link HealthProbe}). It validates a query, enforces
 * the concurrent-query limit, publishes the
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

    /**
     * The query is not running; {@code errorJson} says why, in the result shape. Its listener was never called.
     * {@code retryAfterSeconds} is when to retry (0: the answer carries no {@code Retry-After}).
     */
    public record Refused(Refusal reason, String errorJson, long retryAfterSeconds) implements Submission, Reservation {
        public Refused(Refusal reason, String errorJson) {
            this(reason, errorJson, reason == Refusal.INVALID ? 0 : 1);
        }
    }

    /** The outcome of {@link #reserve}: a {@link Slot} to submit the query with, or {@link Refused}. */
    public sealed interface Reservation permits Reserved, Refused {
    }

    /** A place under the concurrent-query limits, for {@link #submit(Reserved, String, Mode, Function)}. */
    public static final class Reserved implements Reservation {
        private final Slot slot;

        private Reserved(Slot slot) {
            this.slot = slot;
        }

        /** Gives the place back if no query was submitted with it (idempotent; a no-op after a submit). */
        public void abandon() {
            slot.abandon();
        }
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

    /** Whether the PubSub and the topology answer. */
    public record Health(boolean up, String detail) {
    }

    /** The health probe's query (see {@link HealthProbe}). */
    static final String PROBE_QUERY = HealthProbe.PROBE_QUERY;
    static final long HEALTH_CACHE_MS = HealthProbe.HEALTH_CACHE_MS;
    private static final long SHUTDOWN_KILL_BUDGET_MS = 5_000;
    private static final Logger LOG = LoggerFactory.getLogger(QueryService.class);

    private final RestSettings settings;
    private final QueryParser parser;
    private final Publisher publisher;
    private final ExecutorService signals;
    private final String kafkaDescription;
    private final RunningQueries queries;
    private final ResultReader reader;
    private final HealthProbe healthProbe;
    /** Per-tenant quotas; null without authentication (then only the instance's limit applies). */
    private final TenantQuotas quotas;
    private volatile boolean closed;
    private final Clock clock;
    /** The firehose's schema: answers GET /api/bullet/schema and adds its warnings to queries (none until started). */
    private volatile FirehoseSchema schema = FirehoseSchema.none();
    private final InternalQuery internalQueries;

    /**
     * @param subscriberFactory makes the response subscriber (reading this instance's partitions); called by the
     *                          reader thread until it succeeds
     * @param signals           runs publishes that nobody waits for (KILLs of overdue queries, health probes)
     */
    QueryService(RestSettings settings, QuerySettings querySettings, Publisher publisher,
                 Supplier<Subscriber> subscriberFactory, Clock clock, ExecutorService signals, String kafkaDescription) {
        this(settings, querySettings, publisher, subscriberFactory, clock, signals, kafkaDescription,
             KafkaPubSub.DEFAULT_MAX_RESULT_BYTES);
    }

    /** @param maxResultBytes the most one result may have ({@link KafkaPubSubFactory#maxResultBytes}) */
    QueryService(RestSettings settings, QuerySettings querySettings, Publisher publisher,
                 Supplier<Subscriber> subscriberFactory, Clock clock, ExecutorService signals, String kafkaDescription,
                 long maxResultBytes) {
        this.settings = settings;
        this.parser = new QueryParser(querySettings);
        this.publisher = publisher;
        this.clock = clock;
        this.signals = signals;
        this.kafkaDescription = kafkaDescription;
        this.queries = new RunningQueries(settings.responsePartitions(), settings.maxConcurrentQueries());
        this.reader = new ResultReader(subscriberFactory, queries, clock, this::expire, kafkaDescription,
                                       settings.responsePartitions(), maxResultBytes);
        this.healthProbe = new HealthProbe(queries, reader, publisher, signals, clock, settings.healthTimeoutMs(),
                                           kafkaDescription);
        AccessSettings access = settings.access();
        this.quotas = access.authenticated() ? new TenantQuotas(access.tenantMaxConcurrentQueries(),
                                                                access.tenantMaxQueriesPerMinute(), clock) : null;
        this.internalQueries = new InternalQuery(queries, publisher, signals, clock, settings.resultGraceMs());
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
        Publisher requests = pubSub.requestPublisher();
        String storeTopic = KafkaPubSubFactory.queryStoreTopic(settings);
        AtomicBoolean staleKilled = new AtomicBoolean(storeTopic == null);
        Supplier<Subscriber> subscribers = () -> {
            try {
                // first, so that a missing response topic is not auto-created with the broker's partition count
                pubSub.createTopics();
                if (settings.getBoolean(SettingsTable.TOPOLOGY_JOIN_SNAPSHOT_ENABLE)) {
                    KafkaStateStore.createTopic(config, KafkaPubSubFactory.joinStateTopic(settings));
                }
            } catch (PubSubException e) {
                LOG.debug("Cannot create the PubSub topics (they may exist, or this client may not create topics)", e);
            }
            Subscriber subscriber = pubSub.responseSubscriber(rest.responsePartitions());
            if (!staleKilled.get()) { // Kafka answers; before this instance sends a query of its own
                staleKilled.set(StaleQueries.killOnStart(config, storeTopic, rest.responsePartitions(), requests));
            }
            return subscriber;
        };
        String where = "Kafka at " + config.bootstrapServers() + " (topics " + config.requestTopic() + ", "
                       + config.responseTopic() + ")";
        QueryService service = new QueryService(rest, QuerySettings.from(settings), requests,
                                                subscribers, Clock.SYSTEM, signalExecutor(), where,
                                                KafkaPubSubFactory.maxResultBytes(settings));
        service.startReader();
        service.useSchema(FirehoseSchema.start(settings, service::sendInternal, Clock.SYSTEM));
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
        reader.start();
    }

    public RestSettings settings() {
        return settings;
    }

    // ---- the firehose's schema ----

    /** The schema of the firehose (GET /api/bullet/schema); a service made without settings has none. */
    public FirehoseSchema schema() {
        return schema;
    }

    /** Uses this schema (closing the one before): for its endpoint and its warnings. */
    void useSchema(FirehoseSchema newSchema) {
        FirehoseSchema old = schema;
        schema = newSchema;
        old.close();
    }

    /**
     * Sends a query of the service's own (the schema sampler's RAW sample): not listed, no quota, no KILL through the
     * API; {@code onEnd} gets its final result, or null (also when none came within {@code patienceMs} after the
     * query's duration, or within {@code bullet.rest.result.grace.ms} if that is shorter). The caller passes a valid
     * query.
     */
    void sendInternal(String query, long patienceMs, Consumer<String> onEnd) {
        QueryParser.Result parsed = parser.parse(query);
        if (!parsed.isValid() || !reader.connected()) {
            onEnd.accept(null);
            return;
        }
        internalQueries.send("schema", query, parsed.query().durationMs(), patienceMs, onEnd);
    }

    /** The schema's warnings about a valid query (a BQL query is checked in its JSON form). */
    private List<BulletError> schemaWarnings(String body, Query query) {
        String bql = QueryParser.bqlOf(body);
        return schema.warnings(bql == null ? query.original() : parser.translateBql(bql).query());
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
        Reservation reservation = reserve(Tenant.ANONYMOUS);
        if (reservation instanceof Refused refused) {
            return refused;
        }
        return submit((Reserved) reservation, body, mode, listenerFactory);
    }

    /**
     * Takes a place for one query of {@code tenant} under the instance's limit and, with authentication on, the
     * tenant's quotas. Cheap: call it before reading the body, so that a refused query costs no parse.
     */
    public Reservation reserve(Tenant tenant) {
        if (!queries.reserveSlot()) {
            return new Refused(Refusal.TOO_MANY_QUERIES, ErrorResults.of(
                    settings.maxConcurrentQueries() + " queries are running through this REST instance already, its "
                    + "limit (bullet.rest.max.concurrent.queries)",
                    "Retry when some have finished",
                    "Kill queries you no longer need: DELETE /api/bullet/queries/{id} (GET /api/bullet/queries lists them)",
                    "Or raise bullet.rest.max.concurrent.queries"));
        }
        if (quotas != null) {
            TenantQuotas.Refusal over = quotas.acquire(tenant.name());
            if (over != null) {
                queries.releaseSlot();
                LOG.debug("Refused a query of tenant {}: over {}", tenant.name(), over.setting());
                return new Refused(Refusal.TOO_MANY_QUERIES, ErrorResults.of(over.message(),
                        "Retry in " + over.retryAfterSeconds() + " s (the Retry-After header)",
                        "Kill queries you no longer need: DELETE /api/bullet/queries/{id} (GET /api/bullet/queries lists "
                        + "yours)", "Or ask the operator to raise " + over.setting()), over.retryAfterSeconds());
            }
            return new Reserved(new Slot(tenant, () -> {
                queries.releaseSlot();
                quotas.release(tenant.name());
            }));
        }
        return new Reserved(new Slot(tenant, queries::releaseSlot));
    }

    /**
     * Submits with a place taken by {@link #reserve}; the place is given back when the query is refused or ends.
     *
     * @see #submit(String, Mode, Function)
     */
    public Submission submit(Reserved reserved, String body, Mode mode, Function<String, QueryListener> listenerFactory) {
        Slot slot = reserved.slot;
        Submission submission;
        try {
            submission = parseAndSubmit(slot, body, mode, listenerFactory);
        } catch (RuntimeException | Error e) {
            slot.abandon(); // a no-op once a query holds it
            throw e;
        }
        if (submission instanceof Refused) {
            slot.abandon();
        }
        return submission;
    }

    private Submission parseAndSubmit(Slot slot, String body, Mode mode, Function<String, QueryListener> listenerFactory) {
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
        if (!reader.connected()) {
            return new Refused(Refusal.UNAVAILABLE, unavailable());
        }
        if (!slot.claim()) {
            throw new IllegalStateException("a query slot was used twice or after it was given back");
        }
        String id = UUID.randomUUID().toString();
        long now = clock.now();
        Running r = new Running(id, query.original(), now, now + query.durationMs() + settings.resultGraceMs(),
                                queries.nextPartition(), false, slot,
                                SchemaWarnings.wrap(listenerFactory.apply(id), schemaWarnings(body, query)));
        queries.add(r);
        try {
            publisher.send(PubSubMessage.query(id, body, r.partition));
        } catch (PubSubException e) {
            if (queries.withdraw(r)) {
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
        List<BulletError> warnings = new ArrayList<>(parsed.query().warnings());
        warnings.addAll(schemaWarnings(body, parsed.query()));
        return new Validation(List.of(), warnings,
                              bql == null ? JsonParser.parseString(body) : parser.translateBql(bql).query());
    }

    /** The queries submitted through this instance that are running, oldest first. */
    public List<RunningQuery> running() {
        return queries.list();
    }

    /**
     * Kills a running query: sends KILL to the topology (which drops it from every Filter and Join task without a
     * result), then ends its listener with {@link Ending#KILLED}.
     *
     * @return false if no query of this instance has that id (unknown, or already ended)
     * @throws PubSubException if Kafka did not take the KILL; the query is then left running
     */
    public boolean kill(String id) {
        return kill(id, Tenant.ANONYMOUS);
    }

    /**
     * Kills a running query of {@code caller} (of any tenant for an admin), as {@link #kill(String)}.
     *
     * @return false if no query of this instance has that id, or it is another tenant's and the caller is no admin
     */
    public boolean kill(String id, Tenant caller) {
        Running r = queries.get(id);
        if (r == null || r.probe || !caller.mayAccess(r.tenant())) {
            return false;
        }
        publisher.send(PubSubMessage.signal(id, Signal.KILL, r.partition));
        return queries.finish(r, Ending.KILLED, ErrorResults.forQuery(id,
                "The query was killed before it finished",
                "It was killed with DELETE /api/bullet/queries/" + id + "; submit it again if you still need it"));
    }

    /** How many client queries run through this instance now. */
    public int runningCount() {
        return queries.clientCount();
    }

    // ---- health ----

    /** Whether Kafka and the topology answer (see {@link HealthProbe}). Never blocks. */
    public CompletableFuture<Health> health() {
        return healthProbe.check();
    }

    // ---- the reader (package-private hooks for tests) ----

    /** Tries once to connect the result reader; true when connected. */
    boolean connect() {
        return reader.connect();
    }

    /** One round of the result reader. */
    void pollOnce(Duration timeout) {
        reader.pollOnce(timeout);
    }

    /** Ends the queries whose final result is overdue. */
    void expire(long now) {
        for (Running r : queries.overdue(now)) {
            if (r.probe) {
                queries.finish(r, Ending.TIMED_OUT, "");
                continue;
            }
            String error = ErrorResults.forQuery(r.id,
                    "No final result from the topology within the query's duration plus "
                    + settings.resultGraceMs() + " ms (bullet.rest.result.grace.ms)",
                    "Check that the topology is running and reading " + kafkaDescription
                    + ": GET /api/bullet/health", "Submit the query again");
            if (queries.finish(r, Ending.TIMED_OUT, error)) {
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
            LOG.warn("Cannot send KILL for overdue query {} of tenant {}: {}", r.id, r.tenant(), e.getMessage());
        }
    }

    private String unavailable() {
        return ErrorResults.of("The service cannot read results from " + kafkaDescription + ": " + reader.connectProblem(),
                               "Check that Kafka is running and reachable, then retry",
                               "GET /api/bullet/health shows whether the PubSub and the topology answer");
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
        schema.close();
        reader.close();
        long killDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SHUTDOWN_KILL_BUDGET_MS);
        boolean kafkaAnswers = true;
        int notKilled = 0;
        for (Running r : queries.all()) {
            boolean ended = queries.finish(r, Ending.SHUT_DOWN, ErrorResults.forQuery(r.id,
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
}

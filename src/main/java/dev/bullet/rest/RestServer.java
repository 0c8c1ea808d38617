package dev.bullet.rest;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.bullet.BulletException;
import dev.bullet.pubsub.PubSubException;
import dev.bullet.record.JsonCodec;
import dev.bullet.rest.QueryService.Accepted;
import dev.bullet.rest.QueryService.Mode;
import dev.bullet.rest.QueryService.Refused;
import dev.bullet.rest.QueryService.Reservation;
import dev.bullet.rest.QueryService.Reserved;
import dev.bullet.rest.QueryService.Submission;
import dev.bullet.rest.QueryService.Validation;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.HttpContinueReadHandler;
import io.undertow.server.handlers.sse.ServerSentEventHandler;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import io.undertow.util.SameThreadExecutor;
import io.undertow.util.StatusCodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.Options;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The HTTP face of {@link QueryService} (SPEC §7.2), on Undertow:
 * <pre>
 * POST   /api/bullet/queries/http-query      the final result (200); windowed queries 400
 * POST   /api/bullet/queries/sse-query       text/event-stream, one event per result, closed after the final one
 * POST   /api/bullet/queries/validate-query  {"valid": true} (200) or the errors (400)
 * GET    /api/bullet/queries                 the running queries of this instance
 * DELETE /api/bullet/queries/{id}            204, or 404 if not running here
 * GET    /api/bullet/health                  200 when Kafka and the topology answer, else 503
 * GET    /api/bullet/schema                  the fields of the firehose (a schema file's, or inferred from samples)
 * </pre>
 * Every error is in the result shape. Bad input is 400 (malformed or invalid query, every problem listed), 413
 * (body over {@code bullet.rest.max.body.bytes}), 404/405 (unknown path, wrong method); 401 without valid credentials
 * and 403 for a foreign Host or Origin ({@link Gate}); 429 over {@code bullet.rest.max.concurrent.queries} or a
 * tenant's quota; 503 when Kafka or the topology does not answer. 500 means a bug.
 *
 * <p>Every query belongs to the tenant that sent it: the list shows a tenant its own queries (an admin all), a DELETE
 * of another tenant's query is 404, and results go only to the request that submitted the query.
 *
 * <p>Threads: requests are parsed and bodies read on Undertow's IO threads; anything that waits for Kafka runs on
 * its worker threads; waiting for results holds no thread (the service's reader thread answers).
 */
public final class RestServer implements AutoCloseable {
    public static final String API = "/api/bullet";
    public static final String QUERIES = API + "/queries";
    public static final String HTTP_QUERY = QUERIES + "/http-query";
    public static final String SSE_QUERY = QUERIES + "/sse-query";
    public static final String VALIDATE_QUERY = QUERIES + "/validate-query";
    public static final String HEALTH = API + "/health";
    /** The firehose's fields: {@code dev.bullet.schema.FirehoseSchema#toJson()}. */
    public static final String SCHEMA = API + "/schema";
    /** What the browser console needs to know of this service: {@code {"metrics": url or null}}. */
    public static final String CONSOLE_INFO = API + "/console-info";
    private static final String ENDPOINTS = "The endpoints are: POST " + HTTP_QUERY + ", POST " + SSE_QUERY + ", POST "
                                            + VALIDATE_QUERY + ", GET " + QUERIES + ", DELETE " + QUERIES
                                            + "/{id}, GET " + HEALTH + ", GET " + SCHEMA;
    /** Idle keep-alive connections are closed after this long. */
    private static final int IDLE_CONNECTION_MS = 60_000;
    /**
     * Largest request head (request line and headers together), bytes; a larger one is answered 400 and its
     * connection closed. Undertow's default (1 MiB) let a few hundred connections each sending a large head hold
     * the heap; an API call and its token need far less.
     */
    static final int MAX_HEADER_BYTES = 16_384;
    private static final Logger LOG = LoggerFactory.getLogger(RestServer.class);

    private final Undertow undertow;
    private final InetSocketAddress address;
    private final String scheme;

    private RestServer(Undertow undertow, InetSocketAddress address, String scheme) {
        this.undertow = undertow;
        this.address = address;
        this.scheme = scheme;
    }

    /** Serves {@code service} on {@code bullet.rest.host}:{@code bullet.rest.port} of its settings. */
    public static RestServer start(QueryService service) {
        return start(service, service.settings());
    }

    /**
     * Binds and serves.
     *
     * @throws BulletException if the address cannot be bound (e.g. the port is taken), or the access settings do not
     *                         hold (no authentication off loopback, an unreadable tokens file or keystore...)
     */
    public static RestServer start(QueryService service, RestSettings settings) {
        Authenticator authenticator = Authenticators.create(settings);
        Gate gate = new Gate(new HttpContinueReadHandler(new Routes(service, settings)), authenticator, settings);
        AccessSettings.TlsSettings tls = settings.access().tls();
        Undertow.Builder builder = Undertow.builder();
        if (tls.enabled()) {
            builder.addHttpsListener(settings.port(), settings.host(), TlsContexts.server(tls))
                   .setSocketOption(Options.SSL_CLIENT_AUTH_MODE, TlsContexts.clientAuth(tls));
        } else {
            builder.addHttpListener(settings.port(), settings.host());
        }
        Undertow undertow = builder
                .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, IDLE_CONNECTION_MS)
                .setServerOption(UndertowOptions.REQUEST_PARSE_TIMEOUT, (int) settings.requestTimeoutMs())
                .setServerOption(UndertowOptions.MAX_HEADER_SIZE, MAX_HEADER_BYTES)
                .setHandler(gate)
                .build();
        try {
            undertow.start();
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new BulletException("The REST service cannot listen on " + settings.host() + ":" + settings.port()
                                      + ": " + cause.getMessage() + " (is the port taken? choose another one)", e);
        }
        InetSocketAddress bound = (InetSocketAddress) undertow.getListenerInfo().get(0).getAddress();
        gate.bound(bound);
        RestServer server = new RestServer(undertow, bound, tls.enabled() ? "https" : "http");
        LOG.info("REST service listening on {}{} (authentication: {})", server.url(), API,
                 settings.access().authType().trim());
        return server;
    }

    /**
     * Checks the access settings without binding: what {@link #start} would refuse (no authentication off loopback, a
     * missing or bad tokens file, an unreadable keystore...), so that a launcher can stop before it starts anything
     * else.
     *
     * @throws BulletException naming the setting to change
     */
    public static void checkAccess(RestSettings settings) {
        Authenticators.create(settings);
        AccessSettings.TlsSettings tls = settings.access().tls();
        if (tls.enabled()) {
            TlsContexts.server(tls);
        }
    }

    public int port() {
        return address.getPort();
    }

    /** {@code http://host:port} ({@code https} with TLS), without a path. */
    public String url() {
        String host = address.getAddress().getHostAddress();
        return scheme + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
    }

    /** Stops listening and closes every connection. Close the {@link QueryService} first so clients get its answer. */
    @Override
    public void close() {
        undertow.stop();
    }

    /** The routes. Bad input never escapes as an exception; anything else is a bug and answered 500. */
    private static final class Routes implements HttpHandler {
        private final QueryService service;
        private final RestSettings settings;

        Routes(QueryService service, RestSettings settings) {
            this.service = service;
            this.settings = settings;
        }

        @Override
        public void handleRequest(HttpServerExchange exchange) {
            try {
                route(exchange);
            } catch (Exception | StackOverflowError | AssertionError e) {
                Replies.internalError(exchange, e);
            }
        }

        private void route(HttpServerExchange exchange) {
            String path = withoutTrailingSlash(exchange.getRequestPath());
            if (ConsolePages.owns(path)) {
                if (allow(exchange, Methods.GET)) {
                    ConsolePages.serve(exchange, path);
                }
                return;
            }
            switch (path) {
                case CONSOLE_INFO -> {
                    if (allow(exchange, Methods.GET)) {
                        Replies.json(exchange, StatusCodes.OK, consoleInfo());
                    }
                }
                case HTTP_QUERY -> {
                    Reserved slot = allow(exchange, Methods.POST) ? reserve(exchange) : null;
                    if (slot != null) {
                        readBody(exchange, (ex, body) -> httpQuery(ex, body, slot));
                    }
                }
                case SSE_QUERY -> {
                    Reserved slot = allow(exchange, Methods.POST) ? reserve(exchange) : null;
                    if (slot != null) {
                        readBody(exchange, (ex, body) -> sseQuery(ex, body, slot));
                    }
                }
                case VALIDATE_QUERY -> {
                    if (allow(exchange, Methods.POST)) {
                        readBody(exchange, this::validateQuery);
                    }
                }
                case QUERIES -> {
                    if (allow(exchange, Methods.GET)) {
                        listQueries(exchange);
                    }
                }
                case HEALTH -> {
                    if (allow(exchange, Methods.GET)) {
                        health(exchange);
                    }
                }
                case SCHEMA -> {
                    if (allow(exchange, Methods.GET)) {
                        Replies.json(exchange, StatusCodes.OK, service.schema().toJson());
                    }
                }
                default -> {
                    String id = path.startsWith(QUERIES + "/") ? path.substring(QUERIES.length() + 1) : "";
                    if (id.isEmpty() || id.contains("/")) {
                        Replies.json(exchange, StatusCodes.NOT_FOUND, ErrorResults.of(
                                "No endpoint at " + exchange.getRequestMethod() + " " + exchange.getRequestPath(),
                                ENDPOINTS));
                    } else if (allow(exchange, Methods.DELETE)) {
                        kill(exchange, id);
                    }
                }
            }
        }

        private void readBody(HttpServerExchange exchange, BodyReader.Handler handler) {
            BodyReader.read(exchange, settings.maxBodyBytes(), settings.requestTimeoutMs(), handler);
        }

        /**
         * True if the method is the allowed one, or HEAD where GET is (the answer's head alone: Undertow drops a HEAD
         * answer's body and keeps its length); else answers 405 with an {@code Allow} header.
         */
        private static boolean allow(HttpServerExchange exchange, HttpString method) {
            HttpString asked = exchange.getRequestMethod();
            boolean get = method.equals(Methods.GET);
            if (asked.equals(method) || get && asked.equals(Methods.HEAD)) {
                return true;
            }
            exchange.getResponseHeaders().put(Headers.ALLOW, get ? "GET, HEAD" : method.toString());
            Replies.json(exchange, StatusCodes.METHOD_NOT_ALLOWED, ErrorResults.of(
                    "Method " + exchange.getRequestMethod() + " is not allowed on " + exchange.getRequestPath(),
                    "Use " + method + " " + exchange.getRequestPath(), ENDPOINTS));
            return false;
        }

        /**
         * Takes the query's place under the limits before its body is read: null (and answered 429) when there is
         * none. The place is given back when the exchange ends without a query having taken it.
         */
        private Reserved reserve(HttpServerExchange exchange) {
            Reservation reservation = service.reserve(Gate.tenant(exchange));
            if (reservation instanceof Refused refused) {
                if (exchange.getRequestContentLength() != 0) {
                    exchange.setPersistent(false); // the body is not read: close rather than drain it
                }
                refuse(exchange, refused);
                return null;
            }
            Reserved slot = (Reserved) reservation;
            exchange.addExchangeCompleteListener((ex, next) -> {
                slot.abandon();
                next.proceed();
            });
            return slot;
        }

        private void httpQuery(HttpServerExchange exchange, String body, Reserved slot) {
            Executor worker = exchange.getConnection().getWorker();
            Tenant tenant = Gate.tenant(exchange);
            onWorker(exchange, () -> {
                Submission submission = service.submit(slot, body, Mode.SINGLE_RESULT,
                                                       id -> new HttpQueryResponder(exchange, id));
                if (submission instanceof Refused refused) {
                    refuse(exchange, refused);
                    return;
                }
                String id = ((Accepted) submission).id();
                LOG.debug("Query {} of tenant {} runs (http-query)", id, tenant.name());
                exchange.getIoThread().execute(() -> ClientWatch.start(exchange, () -> {
                    LOG.info("The http-query client of query {} (tenant {}) went away", id, tenant.name());
                    killForGoneClient(worker, id, tenant);
                }));
            });
        }

        private void sseQuery(HttpServerExchange exchange, String body, Reserved slot) {
            Executor worker = exchange.getConnection().getWorker();
            Tenant tenant = Gate.tenant(exchange);
            onWorker(exchange, () -> {
                SseStream[] stream = new SseStream[1];
                Submission submission = service.submit(slot, body, Mode.STREAM, id -> {
                    stream[0] = new SseStream(id, tenant.name(), settings.sseKeepAliveMs(), exchange.getIoThread(),
                                              gone -> killForGoneClient(worker, gone, tenant));
                    return stream[0];
                });
                if (submission instanceof Refused refused) {
                    refuse(exchange, refused);
                    return;
                }
                String id = ((Accepted) submission).id();
                LOG.debug("Query {} of tenant {} runs (sse-query)", id, tenant.name());
                SseStream events = stream[0];
                exchange.getIoThread().execute(() -> {
                    try {
                        exchange.getConnection().addCloseListener(connection -> events.clientClosed());
                        exchange.getResponseHeaders().put(Replies.QUERY_ID_HEADER, id);
                        exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-cache");
                        new ServerSentEventHandler((connection, lastEventId) -> events.connected(connection))
                                .handleRequest(exchange);
                    } catch (Exception e) {
                        Replies.internalError(exchange, e);
                        killForGoneClient(worker, id, tenant);
                    }
                });
            });
        }

        private void killForGoneClient(Executor worker, String id, Tenant tenant) {
            try {
                worker.execute(() -> killGone(id, tenant));
            } catch (RejectedExecutionException e) {
                // the server is stopping and closed the stream itself: the query ends by its duration
                LOG.info("Not killing query {} of tenant {} as its stream closes: the REST service is stopping", id,
                         tenant.name());
            }
        }

        private void killGone(String id, Tenant tenant) {
            try {
                if (service.kill(id)) {
                    LOG.info("Killed query {} of tenant {}: its client went away", id, tenant.name());
                }
            } catch (PubSubException e) {
                LOG.warn("Cannot kill query {} of tenant {} whose client went away (it ends by its duration): {}", id,
                         tenant.name(), e.getMessage());
            }
        }

        /** Parsing and translating a large query takes a while: on a worker, as submitting does, not the I/O thread. */
        private void validateQuery(HttpServerExchange exchange, String body) {
            onWorker(exchange, () -> {
                Validation validation = service.validate(body);
                if (!validation.valid()) {
                    Replies.jsonLater(exchange, StatusCodes.BAD_REQUEST, ErrorResults.of(validation.errors()));
                    return;
                }
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("valid", true);
                if (validation.jsonForm() != null) {
                    out.put("query", validation.jsonForm());
                }
                if (!validation.warnings().isEmpty()) {
                    out.put("warnings", validation.warnings());
                }
                Replies.jsonLater(exchange, StatusCodes.OK, JsonCodec.toResultJson(out));
            });
        }

        private void listQueries(HttpServerExchange exchange) {
            Tenant caller = Gate.tenant(exchange);
            JsonArray list = new JsonArray();
            for (RunningQuery q : service.running()) {
                if (!caller.mayAccess(q.tenant())) {
                    continue;
                }
                JsonObject entry = new JsonObject();
                entry.addProperty("id", q.id());
                entry.add("query", q.query());
                entry.addProperty("start_time", q.startTime());
                entry.addProperty("tenant", q.tenant());
                list.add(entry);
            }
            Replies.json(exchange, StatusCodes.OK, JsonCodec.gson().toJson(list));
        }

        private void kill(HttpServerExchange exchange, String id) {
            Tenant caller = Gate.tenant(exchange);
            onWorker(exchange, () -> {
                boolean killed;
                try {
                    killed = service.kill(id, caller);
                } catch (PubSubException e) {
                    Replies.jsonLater(exchange, StatusCodes.SERVICE_UNAVAILABLE, ErrorResults.forQuery(id,
                            "Kafka did not take the KILL: " + e.getMessage(),
                            "Check that Kafka is running, then retry", "GET " + HEALTH + " shows the state"));
                    return;
                }
                if (killed) {
                    LOG.info("Killed query {} at the request of tenant {}", Replies.printable(id, 64), caller.name());
                    Replies.emptyLater(exchange, StatusCodes.NO_CONTENT);
                } else {
                    Replies.jsonLater(exchange, StatusCodes.NOT_FOUND, ErrorResults.of(
                            "No query " + Replies.printable(id, 100) + " of yours is running on this REST instance",
                            "GET " + QUERIES + " lists your running queries; a query that ended is gone"));
                }
            });
        }

        private void health(HttpServerExchange exchange) {
            exchange.dispatch(SameThreadExecutor.INSTANCE, () -> service.health().whenComplete((health, failure) -> {
                if (failure != null) {
                    Replies.internalError(exchange, failure);
                } else if (health.up()) {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("status", "UP");
                    out.put("detail", health.detail());
                    Replies.jsonLater(exchange, StatusCodes.OK, JsonCodec.toResultJson(out));
                } else {
                    Replies.jsonLater(exchange, StatusCodes.SERVICE_UNAVAILABLE, ErrorResults.of(
                            "Bullet is not available: " + health.detail(),
                            "Start Kafka and the topology (locally: scripts/bullet-local.sh), then retry"));
                }
            }));
        }

        private static void refuse(HttpServerExchange exchange, Refused refused) {
            int status = switch (refused.reason()) {
                case INVALID -> StatusCodes.BAD_REQUEST;
                case TOO_MANY_QUERIES -> StatusCodes.TOO_MANY_REQUESTS;
                case UNAVAILABLE -> StatusCodes.SERVICE_UNAVAILABLE;
            };
            Runnable answer = () -> {
                if (refused.retryAfterSeconds() > 0 && !exchange.isResponseStarted()) {
                    exchange.getResponseHeaders().put(Headers.RETRY_AFTER, Long.toString(refused.retryAfterSeconds()));
                }
                Replies.json(exchange, status, refused.errorJson());
            };
            if (exchange.isInIoThread()) {
                answer.run();
            } else {
                exchange.getIoThread().execute(answer);
            }
        }

        /**
         * Runs work that may wait for Kafka on a worker thread. The exchange stays open until a reply is sent
         * (called from an IO-thread callback, within Undertow's handler call).
         */
        /**
         * Runs the work on a worker thread; whatever it throws (a bug, a class missing from a jar replaced under the
         * running service, memory running out) answers the client with an internal error rather than leaving it
         * waiting.
         */
        private static void onWorker(HttpServerExchange exchange, Runnable work) {
            exchange.dispatch(exchange.getConnection().getWorker(), () -> {
                try {
                    work.run();
                } catch (Throwable e) {
                    Replies.internalError(exchange, e);
                }
            });
        }

        /** The Prometheus endpoint, when this process serves one (the local stack with the prometheus sink on). */
        private String consoleInfo() {
            String metrics = settings.metricsUrl();
            return "{\"metrics\": " + (metrics == null ? "null" : JsonCodec.toResultJson(metrics)) + "}";
        }

        private static String withoutTrailingSlash(String path) {
            String p = path;
            while (p.length() > 1 && p.endsWith("/")) {
                p = p.substring(0, p.length() - 1);
            }
            return p;
        }
    }
}

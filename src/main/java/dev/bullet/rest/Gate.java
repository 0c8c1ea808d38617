package dev.bullet.rest;

import dev.bullet.rest.Authenticator.Credentials;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RenegotiationRequiredException;
import io.undertow.server.SSLSessionInfo;
import io.undertow.util.AttachmentKey;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import io.undertow.util.StatusCodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * What every request passes before its route, in this order:
 * <ol>
 * <li>the security headers on every answer ({@code Content-Security-Policy}, {@code X-Content-Type-Options},
 *     {@code Referrer-Policy});</li>
 * <li>the Host check (403): a browser tricked by DNS rebinding sends the attacker's name ({@link HostCheck});</li>
 * <li>CORS for the origins of {@code bullet.rest.allowed.origins}: their requests' answers carry
 *     {@code Access-Control-Allow-Origin}, and their preflights ({@code OPTIONS} with
 *     {@code Access-Control-Request-Method}) are answered 204 here, before authentication (a browser sends no
 *     credentials on a preflight), so that a page there may send a token and read the answer;</li>
 * <li>the Origin check (403) of state-changing requests (POST, DELETE, PUT, PATCH): a request that carries an
 *     {@code Origin} must come from the service's own origin (scheme://the Host it was sent to) or one of
 *     {@code bullet.rest.allowed.origins}; without {@code Origin} (curl, scripts) it passes;</li>
 * <li>authentication (401) of the query endpoints ({@code /api/bullet/queries...}) and of the schema (the firehose's
 *     field names are the teams' data); the health check, the console's files and its info stay open. The tenant goes on the exchange ({@link #tenant}).</li>
 * </ol>
 * Never throws on what a client sends.
 */
final class Gate implements HttpHandler {
    static final String CSP = "default-src 'self'; frame-ancestors 'none'";
    private static final HttpString CSP_HEADER = new HttpString("Content-Security-Policy");
    private static final HttpString NOSNIFF_HEADER = new HttpString("X-Content-Type-Options");
    private static final HttpString REFERRER_HEADER = new HttpString("Referrer-Policy");
    private static final HttpString ALLOW_ORIGIN = new HttpString("Access-Control-Allow-Origin");
    private static final HttpString EXPOSE_HEADERS = new HttpString("Access-Control-Expose-Headers");
    private static final HttpString ALLOW_METHODS = new HttpString("Access-Control-Allow-Methods");
    private static final HttpString ALLOW_HEADERS = new HttpString("Access-Control-Allow-Headers");
    private static final HttpString MAX_AGE = new HttpString("Access-Control-Max-Age");
    private static final HttpString REQUEST_METHOD = new HttpString("Access-Control-Request-Method");
    /** The answer's headers a page of a listed origin may read. */
    private static final String EXPOSED = Replies.QUERY_ID_HEADER.toString() + ", Retry-After, WWW-Authenticate";
    private static final AttachmentKey<Tenant> TENANT = AttachmentKey.create(Tenant.class);
    private static final Set<HttpString> STATE_CHANGING = Set.of(Methods.POST, Methods.DELETE, Methods.PUT, Methods.PATCH);
    private static final Logger LOG = LoggerFactory.getLogger(Gate.class);

    private final HttpHandler next;
    private final Authenticator authenticator;
    private final String scheme;
    private final Set<String> allowedOrigins;
    private final List<String> allowedHosts;
    private final String configuredHost;
    private volatile HostCheck hosts;

    Gate(HttpHandler next, Authenticator authenticator, RestSettings settings) {
        this.next = next;
        this.authenticator = authenticator;
        this.scheme = settings.access().tls().enabled() ? "https" : "http";
        this.allowedOrigins = settings.access().allowedOrigins().stream().map(Gate::normalizeOrigin)
                                      .collect(Collectors.toUnmodifiableSet());
        this.allowedHosts = settings.access().allowedHosts();
        this.configuredHost = settings.host();
    }

    /** The address the listener bound: the Host check needs its port. Called once, right after binding. */
    void bound(InetSocketAddress address) {
        hosts = new HostCheck(configuredHost, address, scheme, allowedHosts);
    }

    /** The tenant the request proved ({@link Tenant#ANONYMOUS} without authentication). */
    static Tenant tenant(HttpServerExchange exchange) {
        Tenant t = exchange.getAttachment(TENANT);
        return t != null ? t : Tenant.ANONYMOUS;
    }

    /**
     * Answers a request refused before its body was read; a connection with a body still to come (perhaps held back
     * by {@code Expect: 100-continue}) is closed after the answer rather than drained.
     */
    static void refuse(HttpServerExchange exchange, int status, String json) {
        if (exchange.getRequestContentLength() != 0) {
            exchange.setPersistent(false);
        }
        Replies.json(exchange, status, json);
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        exchange.getResponseHeaders().put(CSP_HEADER, CSP);
        exchange.getResponseHeaders().put(NOSNIFF_HEADER, "nosniff");
        exchange.getResponseHeaders().put(REFERRER_HEADER, "no-referrer");
        HostCheck check = hosts;
        if (check == null) {
            exchange.getResponseHeaders().put(Headers.RETRY_AFTER, "1");
            refuse(exchange, StatusCodes.SERVICE_UNAVAILABLE, ErrorResults.of("The REST service is starting",
                                                                                    "Retry in a second"));
            return;
        }
        HeaderValues host = exchange.getRequestHeaders().get(Headers.HOST);
        String hostValue = host == null || host.isEmpty() ? null : host.getFirst();
        String target = absoluteFormAuthority(exchange); // RFC 9112: it takes the place of Host
        if (target != null && !check.allows(target)) {
            refuse(exchange, StatusCodes.FORBIDDEN, ErrorResults.of(
                    "The request's target \"" + Replies.printable(target, 100) + "\" is not an address of this service",
                    "Send requests to " + check.canonical() + " (the address it listens on)",
                    "Or, if a proxy or a DNS name fronts the service, list that name in bullet.rest.allowed.hosts"));
            return;
        }
        if (host != null && (host.size() > 1 || !check.allows(hostValue))) {
            refuse(exchange, StatusCodes.FORBIDDEN, ErrorResults.of(
                    "The Host header \"" + Replies.printable(hostValue, 100) + "\" is not an address of this service",
                    "Send requests to " + check.canonical() + " (the address it listens on)",
                    "Or, if a proxy or a DNS name fronts the service, list that name in bullet.rest.allowed.hosts"));
            return;
        }
        if (listedOrigin(exchange)) { // a page of another origin the operator trusts: CORS lets it read and send tokens
            HttpString method = exchange.getRequestMethod();
            exchange.getResponseHeaders().put(ALLOW_ORIGIN, exchange.getRequestHeaders().getFirst(Headers.ORIGIN))
                    .put(Headers.VARY, "Origin").put(EXPOSE_HEADERS, EXPOSED);
            if (method.equals(Methods.OPTIONS) && exchange.getRequestHeaders().contains(REQUEST_METHOD)) {
                exchange.getResponseHeaders().put(ALLOW_METHODS, "GET, HEAD, POST, DELETE")
                        .put(ALLOW_HEADERS, "Authorization, Content-Type").put(MAX_AGE, "600");
                exchange.setStatusCode(StatusCodes.NO_CONTENT);
                exchange.endExchange();
                return;
            }
        }
        if (STATE_CHANGING.contains(exchange.getRequestMethod()) && !originAllowed(exchange, hostValue)) {
            refuse(exchange, StatusCodes.FORBIDDEN, ErrorResults.of(
                    "Requests from the web page at " + Replies.printable(origin(exchange), 100) + " may not change "
                    + "anything here (Origin check)",
                    "Use the console this service serves, or a client that sends no Origin header (curl, scripts)",
                    "Or list that origin (scheme://host:port) in bullet.rest.allowed.origins"));
            return;
        }
        if (protectedPath(exchange.getRequestPath())) {
            Optional<Tenant> tenant = authenticate(exchange);
            if (tenant.isEmpty()) {
                unauthorized(exchange);
                return;
            }
            exchange.putAttachment(TENANT, tenant.get());
        }
        next.handleRequest(exchange);
    }

    /** The authority of an absolute-form request target ({@code POST http://host:port/path}), else null. */
    private static String absoluteFormAuthority(HttpServerExchange exchange) {
        if (!exchange.isHostIncludedInRequestURI()) {
            return null;
        }
        String uri = exchange.getRequestURI();
        int start = uri.indexOf("://");
        if (start < 0) {
            return "";
        }
        start += 3;
        int end = uri.indexOf('/', start);
        return uri.substring(start, end < 0 ? uri.length() : end);
    }

    /** Whether the request carries one {@code Origin}, listed in {@code bullet.rest.allowed.origins}. */
    private boolean listedOrigin(HttpServerExchange exchange) {
        HeaderValues origins = exchange.getRequestHeaders().get(Headers.ORIGIN);
        return origins != null && origins.size() == 1 && allowedOrigins.contains(normalizeOrigin(origins.getFirst()));
    }

    private boolean originAllowed(HttpServerExchange exchange, String hostValue) {
        HeaderValues origins = exchange.getRequestHeaders().get(Headers.ORIGIN);
        if (origins == null || origins.isEmpty()) {
            return true;
        }
        if (origins.size() > 1) {
            return false;
        }
        String origin = normalizeOrigin(origins.getFirst());
        if (allowedOrigins.contains(origin)) {
            return true;
        }
        String prefix = scheme + "://";
        if (hostValue == null || !origin.startsWith(prefix)) {
            return false;
        }
        String from = HostCheck.withPort(origin.substring(prefix.length()), scheme);
        return from != null && from.equals(HostCheck.withPort(hostValue.trim().toLowerCase(Locale.ROOT), scheme));
    }

    private static String origin(HttpServerExchange exchange) {
        String o = exchange.getRequestHeaders().getFirst(Headers.ORIGIN);
        return o == null ? "" : o;
    }

    /**
     * An origin as compared: lower case, no trailing slash, no default port ({@code http://a:80} is
     * {@code http://a}, as browsers send it).
     */
    static String normalizeOrigin(String origin) {
        String o = origin.trim().toLowerCase(Locale.ROOT);
        o = o.endsWith("/") ? o.substring(0, o.length() - 1) : o;
        if (o.startsWith("http://") && o.endsWith(":80")) {
            return o.substring(0, o.length() - 3);
        }
        if (o.startsWith("https://") && o.endsWith(":443")) {
            return o.substring(0, o.length() - 4);
        }
        return o;
    }

    private static boolean protectedPath(String path) {
        return path.equals(RestServer.QUERIES) || path.startsWith(RestServer.QUERIES + "/")
               || path.equals(RestServer.SCHEMA) || path.startsWith(RestServer.SCHEMA + "/");
    }

    private Optional<Tenant> authenticate(HttpServerExchange exchange) {
        if (!authenticator.required()) {
            return Optional.of(Tenant.ANONYMOUS);
        }
        HeaderValues authorization = exchange.getRequestHeaders().get(Headers.AUTHORIZATION);
        List<String> values = authorization == null ? List.of() : new ArrayList<>(authorization);
        try {
            return authenticator.authenticate(new Credentials(values, clientCertificates(exchange)));
        } catch (RuntimeException e) {
            LOG.warn("The authenticator failed on a request from {} (answered 401): {}", exchange.getSourceAddress(),
                     e.toString());
            return Optional.empty();
        }
    }

    private static List<X509Certificate> clientCertificates(HttpServerExchange exchange) {
        SSLSessionInfo ssl = exchange.getConnection().getSslSessionInfo();
        if (ssl == null) {
            return List.of();
        }
        try {
            List<X509Certificate> out = new ArrayList<>();
            for (Certificate c : ssl.getPeerCertificates()) {
                if (c instanceof X509Certificate x) {
                    out.add(x);
                }
            }
            return out;
        } catch (SSLPeerUnverifiedException | RenegotiationRequiredException e) {
            return List.of();
        }
    }

    private void unauthorized(HttpServerExchange exchange) {
        String challenge = authenticator.challenge();
        if (challenge != null) {
            exchange.getResponseHeaders().put(Headers.WWW_AUTHENTICATE, challenge);
        }
        LOG.debug("401 for {} {} from {}", exchange.getRequestMethod(), exchange.getRequestPath(),
                  exchange.getSourceAddress());
        boolean bearer = TokenAuthenticator.SCHEME.equals(challenge);
        refuse(exchange, StatusCodes.UNAUTHORIZED, ErrorResults.of(
                "Authentication required: this request carries no valid credentials",
                bearer ? "Send the header Authorization: Bearer TOKEN, with your team's token (one header)"
                       : "Present a client certificate that the service trusts",
                "Ask the operator of this REST service for " + (bearer ? "a token" : "a certificate")));
    }
}

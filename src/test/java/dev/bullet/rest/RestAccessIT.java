package dev.bullet.rest;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.local.EmbeddedKafka;
import dev.bullet.record.JsonCodec;
import dev.bullet.testing.EchoTopology;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The REST service shared by teams, over real HTTP: embedded Kafka, a stand-in topology ({@link EchoTopology}: short
 * queries complete at once, long ones run until killed), and REST servers with token authentication. Tenants
 * team-a and team-b, admin ops; team-b may run 3 queries at once. A second service allows team-r 5 queries a minute.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class RestAccessIT {
    static final String TOKEN_A = "a-token-0123456789abcdef";
    static final String TOKEN_B = "b-token-0123456789abcdef";
    static final String TOKEN_OPS = "ops-token-0123456789abcdef";
    static final String TOKEN_R = "r-token-0123456789abcdef";
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final int REQUEST_TIMEOUT_MS = 1_500;
    private static final String QUICK = "{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":500}";
    private static final String LONG = "{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":120000}";

    private EmbeddedKafka kafka;
    private EchoTopology echo;
    private QueryService service;
    private RestServer server;
    private QueryService rated;
    private RestServer ratedServer;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                                              .connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void start(@TempDir Path dir) throws IOException {
        kafka = EmbeddedKafka.onFreePorts(dir.resolve("kafka"));
        kafka.start();
        Path tokens = dir.resolve("tokens");
        Files.writeString(tokens, "# tokens of the teams\n" + TOKEN_A + " team-a\n" + TOKEN_B + "\tteam-b\n\n"
                                  + TOKEN_OPS + " ops admin  # the operators\n" + TOKEN_R + " team-r\n");
        Map<String, Object> base = new HashMap<>();
        base.put(SettingsTable.PUBSUB_KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers());
        base.put(SettingsTable.PUBSUB_KAFKA_RESPONSE_PARTITIONS, 4);
        base.put(SettingsTable.REST_PORT, 0);
        base.put(SettingsTable.REST_AUTH_TYPE, "tokens");
        base.put(SettingsTable.REST_AUTH_TOKENS_FILE, tokens.toString());
        base.put(SettingsTable.REST_ALLOWED_ORIGINS, List.of("https://console.example:8443"));
        base.put(SettingsTable.REST_ALLOWED_HOSTS, List.of("bullet.example"));
        base.put(SettingsTable.REST_SSE_KEEPALIVE_MS, 200);
        Map<String, Object> first = new HashMap<>(base);
        first.put(SettingsTable.REST_RESPONSE_PARTITIONS, List.of("0", "1"));
        first.put(SettingsTable.REST_TENANT_MAX_CONCURRENT_QUERIES, 3);
        first.put(SettingsTable.REST_REQUEST_TIMEOUT_MS, REQUEST_TIMEOUT_MS);
        BulletSettings settings = BulletSettings.load(null, first);
        echo = EchoTopology.start(settings);
        service = QueryService.start(settings);
        server = RestServer.start(service);
        Map<String, Object> second = new HashMap<>(base);
        second.put(SettingsTable.REST_RESPONSE_PARTITIONS, List.of("2", "3"));
        second.put(SettingsTable.REST_TENANT_MAX_QUERIES_PER_MINUTE, 5);
        rated = QueryService.start(BulletSettings.load(null, second));
        ratedServer = RestServer.start(rated);
        awaitCondition(() -> get(server, RestServer.HEALTH, null).statusCode() == 200, DEADLINE,
                       "the stand-in topology never answered the health probe");
        awaitCondition(() -> get(ratedServer, RestServer.HEALTH, null).statusCode() == 200, DEADLINE,
                       "the stand-in topology never answered the second service's health probe");
    }

    @AfterAll
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {rated, ratedServer, service, server, echo, kafka}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    // ---- authentication ----

    @Test
    void queryEndpointsWithoutAValidTokenAre401WithABearerChallenge() throws Exception {
        for (String token : new String[] {null, "not-a-known-token-xxxxxxxx", TOKEN_A + "x", TOKEN_A.substring(1)}) {
            List<HttpResponse<String>> answers = List.of(
                    get(server, RestServer.QUERIES, token),
                    get(server, RestServer.SCHEMA, token),
                    post(server, RestServer.HTTP_QUERY, QUICK, token),
                    post(server, RestServer.SSE_QUERY, QUICK, token),
                    post(server, RestServer.VALIDATE_QUERY, QUICK, token),
                    send(HttpRequest.newBuilder(uri(server, RestServer.QUERIES + "/some-id")).DELETE(), token));
            for (HttpResponse<String> r : answers) {
                assertEquals(401, r.statusCode(), r.uri() + " " + r.body());
                assertEquals("Bearer", r.headers().firstValue("WWW-Authenticate").orElse(""), r.uri().toString());
                assertErrorShape(r.body());
                assertFalse(r.body().contains(TOKEN_A), "a token is never echoed");
            }
        }
        RawHttp.Answer twice = RawHttp.send(server.port(), "GET " + RestServer.QUERIES + " HTTP/1.1\r\nHost: 127.0.0.1:"
                + server.port() + "\r\nAuthorization: Bearer " + TOKEN_A + "\r\nAuthorization: Bearer " + TOKEN_B, "");
        assertEquals(401, twice.status(), "two Authorization headers are ambiguous");
    }

    @Test
    void healthAndTheConsoleAreOpenAndCarryTheSecurityHeaders() {
        for (String path : new String[] {RestServer.HEALTH, "/console", "/console/console.js", RestServer.QUERIES}) {
            HttpResponse<String> r = get(server, path, path.equals(RestServer.QUERIES) ? null : "ignored");
            assertTrue(r.statusCode() == 200 || path.equals(RestServer.QUERIES), path + " " + r.statusCode());
            assertEquals(Gate.CSP, r.headers().firstValue("Content-Security-Policy").orElse(""), path);
            assertEquals("nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(""), path);
        }
    }

    @Test
    void aValidTokenRunsQueriesAndTheResultGoesToItsSubmitter() {
        HttpResponse<String> r = post(server, RestServer.HTTP_QUERY, QUICK, TOKEN_A);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(r.headers().firstValue("Bullet-Query-Id").orElse("none"),
                     ((Map<?, ?>) JsonCodec.parseMap(r.body()).get("meta")).get("query_id"));
        assertEquals(200, post(server, RestServer.VALIDATE_QUERY, QUICK, "bearer " + TOKEN_B, true).statusCode(),
                     "the scheme is case-insensitive");
    }

    // ---- ownership ----

    @Test
    void eachTenantListsAndKillsOnlyItsOwnQueriesAndAnAdminAll() throws Exception {
        CompletableFuture<HttpResponse<String>> pending = postAsync(server, RestServer.HTTP_QUERY, LONG, TOKEN_A);
        String id = awaitOneListed(server, TOKEN_A);
        Map<String, Object> own = listed(server, TOKEN_A).stream().filter(q -> id.equals(q.get("id"))).findFirst()
                                                          .orElseThrow();
        assertEquals("team-a", own.get("tenant"));
        assertTrue(listed(server, TOKEN_B).stream().noneMatch(q -> id.equals(q.get("id"))), "team-b sees it");
        assertTrue(listed(server, TOKEN_OPS).stream().anyMatch(q -> id.equals(q.get("id"))
                                                                     && "team-a".equals(q.get("tenant"))));

        HttpResponse<String> foreign = delete(server, id, TOKEN_B);
        assertEquals(404, foreign.statusCode(), "another tenant's query is not there for team-b");
        assertErrorShape(foreign.body());
        assertTrue(listed(server, TOKEN_A).stream().anyMatch(q -> id.equals(q.get("id"))), "still running");

        assertEquals(204, delete(server, id, TOKEN_OPS).statusCode(), "an admin kills any query");
        assertEquals(409, pending.get(DEADLINE.toSeconds(), TimeUnit.SECONDS).statusCode());
        assertTrue(listed(server, TOKEN_A).stream().noneMatch(q -> id.equals(q.get("id"))));
    }

    // ---- quotas ----

    @Test
    void aTenantOverItsConcurrentQuotaGets429WithRetryAfterAndOthersRunOn() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> running = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            running.add(postAsync(server, RestServer.HTTP_QUERY, LONG, TOKEN_B));
        }
        awaitCondition(() -> listed(server, TOKEN_B).size() == 3, DEADLINE, "team-b's queries never all ran");
        for (String path : new String[] {RestServer.HTTP_QUERY, RestServer.SSE_QUERY}) {
            HttpResponse<String> over = post(server, path, LONG, TOKEN_B);
            assertEquals(429, over.statusCode(), over.body());
            assertTrue(Long.parseLong(over.headers().firstValue("Retry-After").orElse("0")) >= 1);
            assertTrue(over.body().contains("bullet.rest.tenant.max.concurrent.queries"), over.body());
            assertErrorShape(over.body());
        }
        HttpResponse<String> unparsed = post(server, RestServer.HTTP_QUERY, "{ not json at all", TOKEN_B);
        assertEquals(429, unparsed.statusCode(), "the slot is checked before the body is parsed");
        assertEquals(200, post(server, RestServer.HTTP_QUERY, QUICK, TOKEN_A).statusCode(), "team-a runs on");

        for (Map<String, Object> q : listed(server, TOKEN_B)) {
            assertEquals(204, delete(server, (String) q.get("id"), TOKEN_B).statusCode());
        }
        for (CompletableFuture<HttpResponse<String>> r : running) {
            assertEquals(409, r.get(DEADLINE.toSeconds(), TimeUnit.SECONDS).statusCode());
        }
        assertEquals(200, post(server, RestServer.HTTP_QUERY, QUICK, TOKEN_B).statusCode(), "slots came back");
        assertEquals(400, post(server, RestServer.HTTP_QUERY, "{\"nope\":1}", TOKEN_B).statusCode());
        assertEquals(200, post(server, RestServer.HTTP_QUERY, QUICK, TOKEN_B).statusCode(),
                     "a refused body gives its slot back");
    }

    @Test
    void aTenantOverItsRatePerMinuteGets429WithRetryAfter() {
        for (int i = 0; i < 5; i++) {
            assertEquals(200, post(ratedServer, RestServer.HTTP_QUERY, QUICK, TOKEN_R).statusCode(), "query " + i);
        }
        HttpResponse<String> over = post(ratedServer, RestServer.HTTP_QUERY, QUICK, TOKEN_R);
        assertEquals(429, over.statusCode(), over.body());
        long retry = Long.parseLong(over.headers().firstValue("Retry-After").orElse("0"));
        assertTrue(retry >= 1 && retry <= 12, "Retry-After " + retry);
        assertTrue(over.body().contains("bullet.rest.tenant.max.queries.per.minute"), over.body());
        assertErrorShape(over.body());
        assertEquals(200, post(ratedServer, RestServer.HTTP_QUERY, QUICK, TOKEN_A).statusCode(),
                     "another tenant's budget is its own");
    }

    @Test
    void anHttpQueryWhoseClientWentAwayIsKilledWithinASecond() throws Exception {
        int killsBefore = echo.kills();
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
        byte[] body = LONG.getBytes(StandardCharsets.UTF_8);
        OutputStream out = socket.getOutputStream();
        out.write(("POST " + RestServer.HTTP_QUERY + " HTTP/1.1\r\nHost: 127.0.0.1:" + server.port()
                   + "\r\nAuthorization: Bearer " + TOKEN_A + "\r\nContent-Type: application/json\r\nContent-Length: "
                   + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        String id = awaitOneListed(server, TOKEN_A);
        long closed = System.nanoTime();
        socket.close();
        awaitCondition(() -> listed(server, TOKEN_A).stream().noneMatch(q -> id.equals(q.get("id"))),
                       Duration.ofSeconds(5), "the query of the client that went away still runs");
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closed);
        assertTrue(ms < 1_000, "killed " + ms + " ms after its client went away");
        awaitCondition(() -> echo.kills() > killsBefore, DEADLINE, "the topology never got the KILL");
    }

    @Test
    void theSchemaAnswersWithAToken() {
        HttpResponse<String> r = get(server, RestServer.SCHEMA, TOKEN_B);
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(JsonCodec.parseMap(r.body()).containsKey("fields"), r.body());
    }

    // ---- abusive clients ----

    @Test
    void aBodyThatStallsIs408WithinTheRequestTimeoutAndGivesBackTheTenantsPlaces() throws Exception {
        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) { // team-b's whole concurrent quota, each holding a place before its body
                Socket socket = new Socket();
                socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
                socket.setSoTimeout(20_000);
                socket.getOutputStream().write(("POST " + RestServer.HTTP_QUERY + " HTTP/1.1\r\nHost: 127.0.0.1:"
                        + server.port() + "\r\nAuthorization: Bearer " + TOKEN_B + "\r\nContent-Length: 1000\r\n\r\n"
                        + "{\"aggregation\":").getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                stalled.add(socket);
            }
            long sent = System.nanoTime();
            for (Socket socket : stalled) {
                String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertTrue(answer.startsWith("HTTP/1.1 408 "), answer);
                String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
                assertErrorShape(body);
                assertTrue(body.contains(SettingsTable.REST_REQUEST_TIMEOUT_MS), body);
            }
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
            assertTrue(ms < REQUEST_TIMEOUT_MS + 5_000, "answered after " + ms + " ms");
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
        HttpResponse<String> after = post(server, RestServer.HTTP_QUERY, QUICK, TOKEN_B);
        assertEquals(200, after.statusCode(), "the stalled bodies gave their places back: " + after.body());
    }

    @Test
    void aChunkedBodyThatNeverEndsIs408Too() throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write(("POST " + RestServer.VALIDATE_QUERY + " HTTP/1.1\r\nHost: 127.0.0.1:"
                    + server.port() + "\r\nAuthorization: Bearer " + TOKEN_A + "\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\n{\"agg\r\n").getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(answer.startsWith("HTTP/1.1 408 "), answer);
        }
    }

    @Test
    void aRequestHeadOverItsBoundIsRefusedAndTheServiceAnswersOn() throws Exception {
        RawHttp.Answer big = RawHttp.send(server.port(), "GET " + RestServer.HEALTH + " HTTP/1.1\r\nHost: 127.0.0.1:"
                + server.port() + "\r\nX-Padding: " + "a".repeat(RestServer.MAX_HEADER_BYTES), "");
        assertEquals(400, big.status(), "a head larger than " + RestServer.MAX_HEADER_BYTES + " bytes");
        RawHttp.Answer fits = RawHttp.send(server.port(), "GET " + RestServer.HEALTH + " HTTP/1.1\r\nHost: 127.0.0.1:"
                + server.port() + "\r\nX-Padding: " + "a".repeat(RestServer.MAX_HEADER_BYTES / 2), "");
        assertEquals(200, fits.status(), fits.body());
    }

    // ---- the browser: Origin and Host ----

    @Test
    void stateChangingRequestsFromAForeignOriginAre403() throws Exception {
        int port = server.port();
        String own = "http://127.0.0.1:" + port;
        for (String origin : new String[] {"http://evil.example", "null", "http://127.0.0.1:" + (port + 1),
                                           "https://127.0.0.1:" + port, "http://127.0.0.1:" + port + ".evil.example"}) {
            RawHttp.Answer post = raw("POST", RestServer.VALIDATE_QUERY, "127.0.0.1:" + port, origin, QUICK);
            assertEquals(403, post.status(), origin + ": " + post.body());
            assertErrorShape(post.body());
            assertEquals(403, raw("DELETE", RestServer.QUERIES + "/x", "127.0.0.1:" + port, origin, "").status(), origin);
            assertEquals(200, raw("GET", RestServer.HEALTH, "127.0.0.1:" + port, origin, "").status(),
                         "reading is not changing: " + origin);
        }
        for (String origin : new String[] {own, own + "/", "HTTP://127.0.0.1:" + port, "https://console.example:8443"}) {
            assertEquals(200, raw("POST", RestServer.VALIDATE_QUERY, "127.0.0.1:" + port, origin, QUICK).status(), origin);
        }
        assertEquals(200, raw("POST", RestServer.VALIDATE_QUERY, "localhost:" + port, "http://localhost:" + port, QUICK)
                .status(), "the page as loaded from localhost");
        assertEquals(200, raw("POST", RestServer.VALIDATE_QUERY, "127.0.0.1:" + port, null, QUICK).status(),
                     "no Origin (curl)");
    }

    @Test
    void aListedOriginGetsCorsAndItsPreflightNeedsNoToken() throws Exception {
        int port = server.port();
        String listed = "https://console.example:8443";
        RawHttp.Answer preflight = RawHttp.send(port, "OPTIONS " + RestServer.HTTP_QUERY + " HTTP/1.1\r\nHost: 127.0.0.1:"
                + port + "\r\nOrigin: " + listed + "\r\nAccess-Control-Request-Method: POST\r\n"
                + "Access-Control-Request-Headers: authorization, content-type", "");
        assertEquals(204, preflight.status(), preflight.body());
        assertEquals(listed, preflight.header("Access-Control-Allow-Origin"));
        assertTrue(preflight.header("Access-Control-Allow-Methods").contains("POST"));
        assertTrue(preflight.header("Access-Control-Allow-Headers").contains("Authorization"));
        RawHttp.Answer post = raw("POST", RestServer.VALIDATE_QUERY, "127.0.0.1:" + port, listed, QUICK);
        assertEquals(200, post.status(), post.body());
        assertEquals(listed, post.header("Access-Control-Allow-Origin"));
        assertTrue(post.header("Access-Control-Expose-Headers").contains("Bullet-Query-Id"));
        RawHttp.Answer listedWithASlash = raw("POST", RestServer.VALIDATE_QUERY, "127.0.0.1:" + port,
                                                   "https://console.example:8443/", QUICK);
        assertEquals(200, listedWithASlash.status());
        for (String foreign : new String[] {"http://evil.example", "https://console.example", "null"}) {
            RawHttp.Answer refused = RawHttp.send(port, "OPTIONS " + RestServer.HTTP_QUERY + " HTTP/1.1\r\nHost: 127.0.0.1:"
                    + port + "\r\nOrigin: " + foreign + "\r\nAccess-Control-Request-Method: POST", "");
            assertTrue(refused.status() >= 400, foreign + ": " + refused.status());
            assertNull(refused.header("Access-Control-Allow-Origin"), foreign);
            assertNull(raw("POST", RestServer.VALIDATE_QUERY, "127.0.0.1:" + port, foreign, QUICK)
                               .header("Access-Control-Allow-Origin"), foreign);
        }
    }

    @Test
    void aHostHeaderThatIsNotTheServicesAddressIs403() throws Exception {
        int port = server.port();
        for (String host : new String[] {"evil.example:" + port, "evil.example", "127.0.0.1:" + (port + 1),
                                         "127.0.0.2:" + port, "127.0.0.1:" + port + "@evil", "[::1"}) {
            RawHttp.Answer r = raw("GET", RestServer.HEALTH, host, null, "");
            assertEquals(403, r.status(), host + ": " + r.body());
            assertErrorShape(r.body());
            assertEquals(Gate.CSP, r.header("Content-Security-Policy"));
        }
        for (String host : new String[] {"127.0.0.1:" + port, "localhost:" + port, "LOCALHOST:" + port,
                                         "[::1]:" + port, "bullet.example", "bullet.example:8080"}) {
            assertEquals(200, raw("GET", RestServer.HEALTH, host, null, "").status(), host);
        }
        // an absolute-form target names the host in place of the Host header (RFC 9112): it is checked alike
        RawHttp.Answer absolute = raw("POST", "http://evil.example" + RestServer.VALIDATE_QUERY, "127.0.0.1:" + port,
                                      null, QUICK);
        assertEquals(403, absolute.status(), absolute.body());
        assertErrorShape(absolute.body());
        assertEquals(200, raw("POST", "http://127.0.0.1:" + port + RestServer.VALIDATE_QUERY, "127.0.0.1:" + port, null,
                              QUICK).status());
    }

    @Test
    void fuzzedCredentialsOriginsAndHostsNeverGiveA500() throws Exception {
        Random random = new Random(20_240_601);
        String hostLine = "127.0.0.1:" + server.port();
        List<String> fixed = List.of("Bearer", "Bearer ", "Bearer  ", "bearer", "Basic " + TOKEN_A, "Bearer " + TOKEN_A
                                     + " extra", "Bearer\t" + TOKEN_A, "Bearer " + "\u00e9\u4e2d\ud83d\ude00".repeat(10),
                                     "Bearer " + "x".repeat(RestServer.MAX_HEADER_BYTES / 2), TOKEN_A, "Bearer " + TOKEN_A + "\u0000",
                                     " Bearer " + TOKEN_A, "Bearer=" + TOKEN_A);
        int answered = 0;
        for (int i = 0; i < 200; i++) {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            String[] paths = {RestServer.QUERIES, RestServer.VALIDATE_QUERY, RestServer.HTTP_QUERY, RestServer.HEALTH,
                              RestServer.QUERIES + "/x"};
            String path = paths[random.nextInt(paths.length)];
            String method = path.equals(RestServer.QUERIES) || path.equals(RestServer.HEALTH) ? "GET"
                            : path.endsWith("/x") ? "DELETE" : "POST";
            head.write((method + " " + path + " HTTP/1.1\r\nHost: " + (random.nextInt(8) == 0 ? randomText(random, 40)
                                                                              : hostLine)).getBytes(StandardCharsets.UTF_8));
            int headers = 1 + random.nextInt(3);
            for (int h = 0; h < headers; h++) {
                head.write("\r\nAuthorization: ".getBytes(StandardCharsets.US_ASCII));
                if (random.nextBoolean()) {
                    head.write(fixed.get(random.nextInt(fixed.size())).getBytes(StandardCharsets.UTF_8));
                } else {
                    byte[] bytes = new byte[random.nextInt(300)];
                    random.nextBytes(bytes);
                    for (int b = 0; b < bytes.length; b++) {
                        if (bytes[b] == '\r' || bytes[b] == '\n') {
                            bytes[b] = 'x';
                        }
                    }
                    head.write("Bearer ".getBytes(StandardCharsets.US_ASCII));
                    head.write(bytes);
                }
            }
            if (random.nextInt(3) == 0) {
                head.write(("\r\nOrigin: " + randomText(random, 60)).getBytes(StandardCharsets.UTF_8));
            }
            RawHttp.Answer r = RawHttp.send(server.port(), head.toByteArray(), QUICK.getBytes(StandardCharsets.UTF_8));
            assertTrue(r.status() == -1 || r.status() < 500, i + ": " + r.status() + " " + r.body());
            answered += r.status() > 0 ? 1 : 0;
        }
        assertTrue(answered > 150, "most requests were answered: " + answered);
        assertEquals(200, get(server, RestServer.HEALTH, null).statusCode(), "the service still serves");
    }

    private static String randomText(Random random, int maxLength) {
        StringBuilder b = new StringBuilder();
        int n = random.nextInt(maxLength);
        for (int i = 0; i < n; i++) {
            int kind = random.nextInt(4);
            b.appendCodePoint(kind == 0 ? 0x21 + random.nextInt(0x5e) : kind == 1 ? 0xa0 + random.nextInt(0x3000)
                              : kind == 2 ? 0x1f600 + random.nextInt(50) : "[]:@/.%".charAt(random.nextInt(7)));
        }
        return b.toString();
    }

    // ---- helpers ----

    private RawHttp.Answer raw(String method, String path, String host, String origin, String body) throws IOException {
        StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: " + host
                                               + "\r\nAuthorization: Bearer " + TOKEN_A);
        if (origin != null) {
            head.append("\r\nOrigin: ").append(origin);
        }
        return RawHttp.send(server.port(), head.toString(), body);
    }

    static void assertErrorShape(String body) {
        Map<String, Object> result = JsonCodec.parseMap(body);
        assertEquals(List.of(), result.get("records"), body);
        List<?> errors = (List<?>) ((Map<?, ?>) result.get("meta")).get("errors");
        assertFalse(errors.isEmpty(), body);
        Map<?, ?> first = (Map<?, ?>) errors.get(0);
        assertNotNull(first.get("error"), body);
        assertFalse(((List<?>) first.get("resolutions")).isEmpty(), body);
    }

    private String awaitOneListed(RestServer via, String token) {
        List<String> ids = new ArrayList<>();
        awaitCondition(() -> {
            List<Map<String, Object>> l = listed(via, token);
            ids.clear();
            l.forEach(q -> ids.add((String) q.get("id")));
            return !l.isEmpty();
        }, DEADLINE, "the query was never listed");
        return ids.get(ids.size() - 1);
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> listed(RestServer via, String token) {
        HttpResponse<String> r = get(via, RestServer.QUERIES, token);
        assertEquals(200, r.statusCode(), r.body());
        return (List<Map<String, Object>>) JsonCodec.parse(r.body());
    }

    private static void awaitCondition(BooleanSupplier condition, Duration timeout, String failure) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail(failure);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    private static URI uri(RestServer via, String path) {
        return URI.create(via.url() + path);
    }

    private HttpResponse<String> get(RestServer via, String path, String token) {
        return send(HttpRequest.newBuilder(uri(via, path)).GET(), token);
    }

    private HttpResponse<String> delete(RestServer via, String id, String token) {
        return send(HttpRequest.newBuilder(uri(via, RestServer.QUERIES + "/" + id)).DELETE(), token);
    }

    private HttpResponse<String> post(RestServer via, String path, String body, String token) {
        return post(via, path, body, token == null ? null : "Bearer " + token, true);
    }

    private HttpResponse<String> post(RestServer via, String path, String body, String authorization, boolean raw) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(via, path)).header("Content-Type", "application/json")
                                           .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return send(b.build());
    }

    private CompletableFuture<HttpResponse<String>> postAsync(RestServer via, String path, String body, String token) {
        return http.sendAsync(HttpRequest.newBuilder(uri(via, path)).header("Content-Type", "application/json")
                                         .header("Authorization", "Bearer " + token)
                                         .POST(HttpRequest.BodyPublishers.ofString(body)).build(), BodyHandlers.ofString());
    }

    private HttpResponse<String> send(HttpRequest.Builder b, String token) {
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return send(b.build());
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("request " + request.uri() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}

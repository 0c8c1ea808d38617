package dev.bullet.local;

import dev.bullet.record.JsonCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code scripts/bullet-local.sh} as an operator shares it: a settings file with token authentication, two teams, an
 * admin, low quotas and a small {@code bullet.query.max.bytes}; then the teams, the admin, a hostile web page and an
 * abusive client over real HTTP against the real topology. Every socket the stack listens on is on loopback.
 */
class LocalStackTeamsIT {
    private static final Path REPO = Path.of("").toAbsolutePath();
    private static final String TOKEN_A = "team-a-token-0123456789abcdef";
    private static final String TOKEN_B = "team-b-token-0123456789abcdef";
    private static final String TOKEN_OPS = "ops-token-0123456789abcdef";
    private static final int PER_MINUTE = 10;
    private static final String COUNTING = "{\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":"
                                           + "[{\"type\":\"COUNT\"}]}},\"window\":{\"emit\":{\"type\":\"TIME\","
                                           + "\"every\":1000}},\"duration\":60000}";
    private static final String RECORD_WINDOW = "{\"aggregation\":{\"type\":\"RAW\",\"size\":500},\"window\":{\"emit\":"
                                                + "{\"type\":\"RECORD\",\"every\":2000000000}},\"duration\":600000}";

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                                              .connectTimeout(Duration.ofSeconds(5)).build();
    private String url;

    @Test
    @Timeout(value = 400, unit = TimeUnit.SECONDS)
    void twoTeamsAnAdminAHostilePageAndAnAbusiveClient(@TempDir Path dir) throws Exception {
        Path tokens = dir.resolve("tokens");
        Files.writeString(tokens, TOKEN_A + " team-a\n" + TOKEN_B + " team-b\n" + TOKEN_OPS + " ops admin\n");
        Path conf = dir.resolve("teams.yaml");
        Files.writeString(conf, "bullet.rest.auth.type: tokens\nbullet.rest.auth.tokens.file: \"" + tokens + "\"\n"
                                + "bullet.rest.tenant.max.queries.per.minute: " + PER_MINUTE + "\n"
                                + "bullet.query.max.bytes: 200000\n");
        Path log = REPO.resolve("target").resolve("local-stack-teams-it.log");
        Process stack = new ProcessBuilder("scripts/bullet-local.sh", "--bullet-conf", conf.toString(), "--port", "0",
                                           "--kafka-port", String.valueOf(freePortPair()))
                .directory(REPO.toFile()).redirectError(log.toFile()).start();
        List<String> printed = new ArrayList<>();
        try {
            String ready = awaitReady(stack, printed);
            Matcher m = Pattern.compile(".* rest=(http://127\\.0\\.0\\.1:[0-9]+) .*").matcher(ready);
            assertTrue(m.matches(), ready);
            url = m.group(1);
            assertTrue(String.join("\n", printed).contains("-H \"Authorization: Bearer $TOKEN\""), "banner: " + printed);
            assertEquals(Set.of(true), listeningOnLoopback(stack.pid()), "every listening socket is on loopback");
            teams();
            hostilePage();
            abusiveClient();
        } finally {
            new ProcessBuilder("kill", "-INT", String.valueOf(stack.pid())).start().waitFor(10, TimeUnit.SECONDS);
            if (!stack.waitFor(60, TimeUnit.SECONDS)) {
                stack.descendants().forEach(ProcessHandle::destroyForcibly);
                stack.destroyForcibly();
                fail("bullet-local.sh did not stop within 60 s of Ctrl-C");
            }
        }
        assertFalse(Files.readString(log, StandardCharsets.UTF_8).contains(TOKEN_A), "a token was logged");
    }

    private void teams() throws Exception {
        for (String token : new String[] {null, "wrong-token-0123456789", "Bearer"}) {
            HttpResponse<String> r = send("GET", "/api/bullet/queries", null, token, null);
            assertEquals(401, r.statusCode(), r.body());
            assertEquals("Bearer", r.headers().firstValue("WWW-Authenticate").orElse(""));
            assertErrorShape(r.body());
            assertFalse(r.body().contains("wrong-token"), "a token is never echoed");
        }
        assertEquals(401, send("POST", "/api/bullet/queries/http-query", "{}", null, null).statusCode());
        assertEquals(401, send("GET", "/api/bullet/schema", null, null, null).statusCode());
        assertEquals(200, send("GET", "/api/bullet/schema", null, TOKEN_A, null).statusCode());

        HttpResponse<String> json = send("POST", "/api/bullet/queries/http-query",
                                         "{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":20000}", TOKEN_A, null);
        assertEquals(200, json.statusCode(), json.body());
        assertEquals(1, ((List<?>) JsonCodec.parseMap(json.body()).get("records")).size(), json.body());
        // team-b's RAW query holds more than bullet.query.max.bytes while team-a's COUNT is answered
        CompletableFuture<HttpResponse<String>> raw = sendAsync("/api/bullet/queries/http-query",
                "{\"aggregation\":{\"type\":\"RAW\",\"size\":500},\"duration\":8000}", TOKEN_B);
        HttpResponse<String> bql = send("POST", "/api/bullet/queries/http-query",
                                        "SELECT COUNT(*) AS n FROM STREAM(2000, TIME)", TOKEN_A, null);
        assertEquals(200, bql.statusCode(), bql.body());
        assertTrue(bql.body().contains("\"n\":"), bql.body());
        HttpResponse<String> big = raw.get(60, TimeUnit.SECONDS);
        assertEquals(200, big.statusCode(), big.body());
        assertTrue(big.body().contains("bullet.query.max.bytes"), "ended early with the bound named: " + big.body());

        HttpResponse<InputStream> stream = http.send(post("/api/bullet/queries/sse-query", COUNTING, TOKEN_A),
                                                     BodyHandlers.ofInputStream());
        assertEquals(200, stream.statusCode());
        String id = stream.headers().firstValue("Bullet-Query-Id").orElseThrow();
        assertEquals("[]", send("GET", "/api/bullet/queries", null, TOKEN_B, null).body(), "team-b sees none of team-a's");
        assertEquals(404, send("DELETE", "/api/bullet/queries/" + id, null, TOKEN_B, null).statusCode());
        String all = send("GET", "/api/bullet/queries", null, TOKEN_OPS, null).body();
        assertTrue(all.contains("\"id\":\"" + id + "\"") && all.contains("\"tenant\":\"team-a\""), all);
        assertEquals(204, send("DELETE", "/api/bullet/queries/" + id, null, TOKEN_OPS, null).statusCode());
        String events = readAll(stream.body());
        assertTrue(events.contains("killed"), "the stream ends with the kill: " + events);
    }

    private void hostilePage() throws Exception {
        for (String path : new String[] {"/console", "/api/bullet/queries", "/api/bullet/health"}) {
            String answer = raw("GET " + path + " HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer " + TOKEN_A);
            assertTrue(answer.startsWith("HTTP/1.1 403 "), path + ": " + answer);
        }
        HttpResponse<String> post = send("POST", "/api/bullet/queries/http-query",
                                         "SELECT * FROM STREAM(1000, TIME) LIMIT 1", TOKEN_A, "http://evil.example");
        assertEquals(403, post.statusCode(), post.body());
        assertErrorShape(post.body());
        HttpResponse<String> console = send("GET", "/console", null, null, null);
        assertEquals(200, console.statusCode());
        assertEquals("default-src 'self'; frame-ancestors 'none'",
                     console.headers().firstValue("Content-Security-Policy").orElse(""));
    }

    private void abusiveClient() throws Exception {
        HttpResponse<InputStream> clamped = http.send(post("/api/bullet/queries/sse-query", RECORD_WINDOW, TOKEN_B),
                                                      BodyHandlers.ofInputStream());
        assertEquals(200, clamped.statusCode());
        String first = firstEvent(clamped.body());
        assertTrue(first.contains("warnings") && first.contains("bullet.query.aggregation.raw.max.size"), first);
        String deepJson = "{\"filters\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";
        String deepBql = "SELECT * FROM STREAM(1000, TIME) WHERE " + "(".repeat(100_000) + "a = 1" + ")".repeat(100_000);
        for (String body : new String[] {deepJson, deepBql, "\u0000garbage{", "{\"aggregation\":"}) {
            HttpResponse<String> r = send("POST", "/api/bullet/queries/http-query", body, TOKEN_B, null);
            assertEquals(400, r.statusCode(), r.body());
            assertErrorShape(r.body());
        }
        HttpResponse<String> refused = null;
        for (int i = 0; i <= PER_MINUTE && refused == null; i++) {
            HttpResponse<String> r = send("POST", "/api/bullet/queries/validate-query", "{}", TOKEN_A, null);
            assertEquals(200, r.statusCode(), "validate-query runs nothing and has no quota: " + r.body());
            r = send("POST", "/api/bullet/queries/http-query", "{\"aggregation\":{\"type\":\"RAW\",\"size\":1}}",
                     TOKEN_A, null);
            refused = r.statusCode() == 429 ? r : null;
        }
        assertTrue(refused != null, "team-a was never refused past " + PER_MINUTE + " queries a minute");
        assertTrue(refused.headers().firstValue("Retry-After").isPresent());
        assertTrue(refused.body().contains("bullet.rest.tenant.max.queries.per.minute"), refused.body());
        assertEquals(200, send("POST", "/api/bullet/queries/http-query", "{\"aggregation\":{\"type\":\"RAW\",\"size\":1}}",
                               TOKEN_B, null).statusCode(), "team-b has its own budget");
    }

    // ---- helpers ----

    private static void assertErrorShape(String body) {
        Map<String, Object> result = JsonCodec.parseMap(body);
        assertEquals(List.of(), result.get("records"), body);
        assertFalse(((List<?>) ((Map<?, ?>) result.get("meta")).get("errors")).isEmpty(), body);
    }

    private HttpRequest post(String path, String body, String token) {
        return HttpRequest.newBuilder(URI.create(url + path)).header("Authorization", "Bearer " + token)
                          .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private CompletableFuture<HttpResponse<String>> sendAsync(String path, String body, String token) {
        return http.sendAsync(post(path, body, token), BodyHandlers.ofString());
    }

    private HttpResponse<String> send(String method, String path, String body, String token, String origin)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                                             : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", token.startsWith("Bearer") ? token : "Bearer " + token);
        }
        if (origin != null) {
            b.header("Origin", origin);
        }
        return http.send(b.build(), BodyHandlers.ofString());
    }

    /** A request with any Host header, over a plain socket; the whole answer. */
    private String raw(String head) throws IOException {
        URI u = URI.create(url);
        try (Socket socket = new Socket(u.getHost(), u.getPort())) {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write((head + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static String readAll(InputStream in) throws Exception {
        CompletableFuture<String> text = CompletableFuture.supplyAsync(() -> {
            try (in) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(read failed: " + e + ")";
            }
        });
        return text.get(30, TimeUnit.SECONDS);
    }

    private static String firstEvent(InputStream in) throws Exception {
        CompletableFuture<String> event = CompletableFuture.supplyAsync(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    if (line.startsWith("data:")) {
                        return line;
                    }
                }
                return "(no event)";
            } catch (IOException e) {
                return "(read failed: " + e + ")";
            }
        });
        return event.get(60, TimeUnit.SECONDS);
    }

    private static String awaitReady(Process stack, List<String> printed) throws Exception {
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(stack.getInputStream(),
                                                                               StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    synchronized (printed) {
                        printed.add(line);
                    }
                    if (line.startsWith(LocalMain.READY_MARKER + " ")) {
                        ready.complete(line);
                    }
                }
            } catch (IOException e) {
                ready.completeExceptionally(e);
            }
            ready.completeExceptionally(new IllegalStateException("bullet-local.sh ended before it was ready"));
        }, "local-stack-teams-stdout");
        reader.setDaemon(true);
        reader.start();
        return ready.get(240, TimeUnit.SECONDS);
    }

    /**
     * For each TCP socket the process listens on, whether its address is loopback ({@code /proc/net/tcp*}, matched by
     * inode to the process's open sockets).
     */
    private static Set<Boolean> listeningOnLoopback(long pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        Set<Boolean> loopback = new HashSet<>();
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f[3].equals("0A") && inodes.contains(f[9])) { // 0A: LISTEN
                    String address = f[1].substring(0, f[1].indexOf(':'));
                    loopback.add(address.equals("0100007F") || address.equals("0000000000000000FFFF00000100007F")
                                 || address.equals("00000000000000000000000001000000"));
                }
            }
        }
        return loopback;
    }

    private static int freePortPair() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = socket.getLocalPort();
            }
            try (ServerSocket next = new ServerSocket()) {
                next.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port + 1));
                return port;
            } catch (IOException e) {
                // taken: try another
            }
        }
        throw new AssertionError("no two consecutive free ports");
    }
}

package dev.bullet.rest;

import dev.bullet.BulletException;
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

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * TLS and mutual TLS for real: certificates made by the JDK's keytool (a server certificate for 127.0.0.1, client
 * certificates for team-a, ops and a stranger the server does not trust), embedded Kafka and the stand-in topology.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class RestTlsIT {
    private static final String PASSWORD = "changeit";
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String QUICK = "{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":500}";
    private static final String LONG = "{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":120000}";

    private Path dir;
    private EmbeddedKafka kafka;
    private EchoTopology echo;
    private BulletSettings base;
    private QueryService mtlsService;
    private RestServer mtls;
    private QueryService tokensService;
    private RestServer tokens;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        dir = tmp;
        keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-keystore", path("server.p12"),
                "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-exportcert", "-alias", "server", "-keystore", path("server.p12"), "-storepass", PASSWORD,
                "-file", path("server.crt"));
        keytool("-importcert", "-noprompt", "-alias", "server", "-file", path("server.crt"), "-keystore",
                path("client-trust.p12"), "-storetype", "PKCS12", "-storepass", PASSWORD);
        for (String client : List.of("team-a", "ops", "stranger")) {
            keytool("-genkeypair", "-alias", client, "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                    "CN=" + client + ",O=Bullet", "-validity", "2", "-keystore", path(client + ".p12"), "-storetype",
                    "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
            if (!client.equals("stranger")) {
                keytool("-exportcert", "-alias", client, "-keystore", path(client + ".p12"), "-storepass", PASSWORD,
                        "-file", path(client + ".crt"));
                keytool("-importcert", "-noprompt", "-alias", client, "-file", path(client + ".crt"), "-keystore",
                        path("server-trust.p12"), "-storetype", "PKCS12", "-storepass", PASSWORD);
            }
        }
        kafka = EmbeddedKafka.onFreePorts(dir.resolve("kafka"));
        kafka.start();
        Map<String, Object> settings = new HashMap<>();
        settings.put(SettingsTable.PUBSUB_KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers());
        settings.put(SettingsTable.PUBSUB_KAFKA_RESPONSE_PARTITIONS, 2);
        settings.put(SettingsTable.REST_PORT, 0);
        settings.put(SettingsTable.REST_TLS_KEYSTORE_PATH, path("server.p12"));
        settings.put(SettingsTable.REST_TLS_KEYSTORE_PASSWORD, PASSWORD);
        settings.put(SettingsTable.REST_TLS_TRUSTSTORE_PATH, path("server-trust.p12"));
        settings.put(SettingsTable.REST_TLS_TRUSTSTORE_PASSWORD, PASSWORD);
        base = BulletSettings.load(null, settings);
        echo = EchoTopology.start(base);
        mtlsService = QueryService.start(base.withOverrides(Map.of(
                SettingsTable.REST_RESPONSE_PARTITIONS, List.of("0"), SettingsTable.REST_AUTH_TYPE, "mtls",
                SettingsTable.REST_TLS_CLIENT_AUTH, "required", SettingsTable.REST_AUTH_ADMINS, List.of("ops"))));
        mtls = RestServer.start(mtlsService);
        Files.writeString(dir.resolve("tokens"), "tls-token-0123456789abcdef team-t\n");
        tokensService = QueryService.start(base.withOverrides(Map.of(
                SettingsTable.REST_RESPONSE_PARTITIONS, List.of("1"), SettingsTable.REST_AUTH_TYPE, "tokens",
                SettingsTable.REST_AUTH_TOKENS_FILE, path("tokens"))));
        tokens = RestServer.start(tokensService);
        HttpClient a = client("team-a");
        awaitCondition(() -> send(a, get(mtls, RestServer.HEALTH)).statusCode() == 200, DEADLINE,
                       "the stand-in topology never answered over TLS");
    }

    @AfterAll
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {mtlsService, mtls, tokensService, tokens, echo, kafka}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    @Test
    void theClientCertificatesCnIsTheTenantAndAListedCnIsAnAdmin() throws Exception {
        assertTrue(mtls.url().startsWith("https://"), mtls.url());
        HttpClient a = client("team-a");
        HttpClient ops = client("ops");
        assertEquals(200, send(a, post(mtls, RestServer.HTTP_QUERY, QUICK)).statusCode(), "a quick query over TLS");
        CompletableFuture<HttpResponse<String>> pending = a.sendAsync(post(mtls, RestServer.HTTP_QUERY, LONG),
                                                                       BodyHandlers.ofString());
        awaitCondition(() -> !listed(a).isEmpty(), DEADLINE, "team-a's query was never listed");
        String id = (String) listed(a).get(0).get("id");
        assertEquals("team-a", listed(a).get(0).get("tenant"));
        assertTrue(listed(ops).stream().anyMatch(q -> id.equals(q.get("id")) && "team-a".equals(q.get("tenant"))));
        assertEquals(204, send(ops, HttpRequest.newBuilder(URI.create(mtls.url() + RestServer.QUERIES + "/" + id))
                .DELETE().build()).statusCode());
        assertEquals(409, pending.get(DEADLINE.toSeconds(), TimeUnit.SECONDS).statusCode());
    }

    @Test
    void withoutACertificateOrWithAnUntrustedOneTheHandshakeFails() throws Exception {
        HttpClient anonymous = HttpClient.newBuilder().sslContext(context(null)).connectTimeout(Duration.ofSeconds(5))
                                         .build();
        assertThrows(IOException.class, () -> anonymous.send(get(mtls, RestServer.QUERIES), BodyHandlers.ofString()));
        HttpClient stranger = client("stranger");
        assertThrows(IOException.class, () -> stranger.send(get(mtls, RestServer.QUERIES), BodyHandlers.ofString()));
    }

    @Test
    void tokensOverTlsAnswer401WithoutATokenAnd200WithOne() {
        HttpClient plain = HttpClient.newBuilder().sslContext(context(null)).build();
        assertEquals(401, send(plain, get(tokens, RestServer.QUERIES)).statusCode());
        HttpResponse<String> r = send(plain, HttpRequest.newBuilder(URI.create(tokens.url() + RestServer.QUERIES))
                .header("Authorization", "Bearer tls-token-0123456789abcdef").build());
        assertEquals(200, r.statusCode(), r.body());
    }

    @Test
    void anHttpQueryOverTlsWhoseClientWentAwayIsKilled() throws Exception {
        HttpClient a = client("team-a");
        SSLSocket socket = (SSLSocket) context("team-a").getSocketFactory().createSocket("127.0.0.1", mtls.port());
        socket.startHandshake();
        RawHttp.post(socket.getOutputStream(), mtls.port(), RestServer.HTTP_QUERY,
                     LONG.getBytes(StandardCharsets.UTF_8));
        awaitCondition(() -> !listed(a).isEmpty(), DEADLINE, "the query was never listed");
        long closed = System.nanoTime();
        socket.close();
        awaitCondition(() -> listed(a).isEmpty(), Duration.ofSeconds(5), "the query of the gone client still runs");
        assertTrue(System.nanoTime() - closed < TimeUnit.SECONDS.toNanos(1), "killed within a second");
    }

    @Test
    void mtlsWithoutRequiredClientCertificatesOrTlsIsAStartupError() {
        BulletException requested = assertThrows(BulletException.class, () -> RestServer.start(mtlsService,
                RestSettings.from(base.withOverrides(Map.of(SettingsTable.REST_AUTH_TYPE, "mtls",
                                                            SettingsTable.REST_TLS_CLIENT_AUTH, "requested")))));
        assertTrue(requested.getMessage().contains("bullet.rest.tls.client.auth"), requested.getMessage());
        BulletException noTls = assertThrows(BulletException.class, () -> RestServer.start(mtlsService,
                RestSettings.from(base.withOverrides(Map.of(SettingsTable.REST_AUTH_TYPE, "mtls",
                                                            SettingsTable.REST_TLS_KEYSTORE_PATH, "")))));
        assertTrue(noTls.getMessage().contains("bullet.rest.tls.keystore.path"), noTls.getMessage());
        BulletException badPassword = assertThrows(BulletException.class, () -> RestServer.start(mtlsService,
                RestSettings.from(base.withOverrides(Map.of(SettingsTable.REST_TLS_KEYSTORE_PASSWORD, "wrong")))));
        assertTrue(badPassword.getMessage().contains("bullet.rest.tls.keystore"), badPassword.getMessage());
    }

    // ---- helpers ----

    private String path(String name) {
        return dir.resolve(name).toString();
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output;
        try (InputStream in = p.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail("keytool " + String.join(" ", args) + " failed: " + output);
        }
    }

    /** A client context trusting the server's certificate, with {@code client}'s certificate (none when null). */
    private SSLContext context(String client) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(dir.resolve("client-trust.p12"))) {
                trust.load(in, PASSWORD.toCharArray());
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            KeyManagerFactory kmf = null;
            if (client != null) {
                KeyStore keys = KeyStore.getInstance("PKCS12");
                try (InputStream in = Files.newInputStream(dir.resolve(client + ".p12"))) {
                    keys.load(in, PASSWORD.toCharArray());
                }
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(keys, PASSWORD.toCharArray());
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }

    private HttpClient client(String name) {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(context(name))
                         .connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static HttpRequest get(RestServer via, String path) {
        return HttpRequest.newBuilder(URI.create(via.url() + path)).GET().build();
    }

    private static HttpRequest post(RestServer via, String path, String body) {
        return HttpRequest.newBuilder(URI.create(via.url() + path)).header("Content-Type", "application/json")
                          .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> listed(HttpClient client) {
        HttpResponse<String> r = send(client, get(mtls, RestServer.QUERIES));
        assertEquals(200, r.statusCode(), r.body());
        return (List<Map<String, Object>>) JsonCodec.parse(r.body());
    }

    private static HttpResponse<String> send(HttpClient client, HttpRequest request) {
        try {
            return client.send(request, BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("request " + request.uri() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
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
}

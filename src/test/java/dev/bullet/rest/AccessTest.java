package dev.bullet.rest;

import dev.bullet.BulletException;
import dev.bullet.rest.Authenticator.Credentials;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The parts of the REST service's access control without a server: tokens file, rate limiter, quotas, Host check. */
class AccessTest {
    private static final String T1 = "0123456789abcdef-one";
    private static final String T2 = "0123456789abcdef-two";

    // ---- tokens file ----

    @Test
    void theTokensFileReadsTokensTenantsAndAdminsSkippingCommentsAndBlankLines() {
        Map<String, Tenant> tokens = TokensFile.parse(List.of("# team tokens", "", "  " + T1 + "   team-a  ",
                                                              T2 + "\tops admin # the operators", "   # indented"), "f");
        assertEquals(Map.of(T1, new Tenant("team-a", false), T2, new Tenant("ops", true)), tokens);
    }

    @Test
    void everyBadLineIsReportedWithItsNumberAndNoTokenIsEchoed() {
        BulletException e = assertThrows(BulletException.class, () -> TokensFile.parse(List.of(
                "# ok", T1 + " team-a", "lonely-token-without-tenant", T2 + " team-b root", "short team-c",
                T1 + " team-d", T2 + " bad/name", T2 + " a b c"), "tokens.txt"));
        String m = e.getMessage();
        assertTrue(m.contains("tokens.txt") && m.contains("bullet.rest.auth.tokens.file"), m);
        for (int line = 3; line <= 8; line++) {
            assertTrue(m.contains("line " + line + ":"), "line " + line + " in: " + m);
        }
        assertFalse(m.contains("line 2:"), m);
        assertTrue(m.contains("already on line 2"), m);
        assertFalse(m.contains(T1) || m.contains(T2) || m.contains("lonely-token"), "tokens are secrets: " + m);
    }

    @Test
    void aByteOrderMarkBeforeTheFirstLineIsNoPartOfItsToken() {
        assertEquals(Map.of(T1, new Tenant("team-a", false)), TokensFile.parse(List.of("\uFEFF" + T1 + " team-a"), "f"));
        assertThrows(BulletException.class, () -> TokensFile.parse(List.of("# first", "\uFEFF" + T1 + " team-a"), "f"),
                     "only the file's first bytes may be a byte-order mark");
    }

    @Test
    void anOriginWithItsDefaultPortIsTheOriginABrowserSends() {
        assertEquals("http://app.example.com", Gate.normalizeOrigin("http://App.Example.com:80/"));
        assertEquals("https://app.example.com", Gate.normalizeOrigin(" https://app.example.com:443"));
        assertEquals("http://app.example.com:443", Gate.normalizeOrigin("http://app.example.com:443"));
        assertEquals("https://app.example.com:80", Gate.normalizeOrigin("https://app.example.com:80"));
        assertEquals("http://app.example.com:8080", Gate.normalizeOrigin("http://app.example.com:8080"));
    }

    @Test
    void anEmptyTokensFileIsAnError() {
        assertThrows(BulletException.class, () -> TokensFile.parse(List.of("# nothing"), "f"));
    }

    @Test
    void onlyOneBearerHeaderWithAKnownTokenAuthenticates() {
        TokenAuthenticator auth = new TokenAuthenticator(Map.of(T1, new Tenant("team-a", false),
                                                                T2, new Tenant("team-b", false)), Set.of("team-b"));
        assertEquals(Optional.of(new Tenant("team-a", false)), auth.authenticate(bearer("Bearer " + T1)));
        assertEquals(Optional.of(new Tenant("team-b", true)), auth.authenticate(bearer("bEaReR  " + T2 + " ")),
                     "scheme in any case; bullet.rest.auth.admins makes team-b an admin");
        for (String bad : new String[] {"Bearer", "Bearer ", "Bearer " + T1 + "x", "Basic " + T1, T1, "Bearer" + T1,
                                        "Bearer " + T1.substring(1), "", "Bearer \u0000" + T1}) {
            assertEquals(Optional.empty(), auth.authenticate(bearer(bad)), bad);
        }
        assertEquals(Optional.empty(), auth.authenticate(new Credentials(List.of("Bearer " + T1, "Bearer " + T1),
                                                                         List.of())), "two headers");
        assertEquals(Optional.empty(), auth.authenticate(new Credentials(List.of(), List.of())));
    }

    private static Credentials bearer(String value) {
        return new Credentials(List.of(value), List.of());
    }

    // ---- authenticators ----

    @Test
    void noAuthenticationOffLoopbackIsAStartupErrorNamingTheSetting() {
        for (String host : new String[] {"0.0.0.0", "10.1.2.3"}) {
            BulletException e = assertThrows(BulletException.class, () -> Authenticators.create(settings(host, "none")));
            assertTrue(e.getMessage().contains("bullet.rest.auth.type"), e.getMessage());
            BulletException early = assertThrows(BulletException.class, () -> RestServer.checkAccess(settings(host, "none")));
            assertEquals(e.getMessage(), early.getMessage(), "the launchers' check before anything starts");
        }
        for (String host : new String[] {"127.0.0.1", "localhost", "::1"}) {
            assertFalse(Authenticators.create(settings(host, "none")).required(), host);
        }
    }

    @Test
    void tokensWithoutAFileAndUnknownTypesAreStartupErrors() {
        BulletException noFile = assertThrows(BulletException.class, () -> Authenticators.create(settings("0.0.0.0",
                                                                                                         "tokens")));
        assertTrue(noFile.getMessage().contains("bullet.rest.auth.tokens.file"), noFile.getMessage());
        BulletException unknown = assertThrows(BulletException.class, () -> Authenticators.create(settings("127.0.0.1",
                                                                                                          "kerberos")));
        assertTrue(unknown.getMessage().contains("bullet.rest.auth.type"), unknown.getMessage());
        BulletException notOne = assertThrows(BulletException.class, () -> Authenticators.create(settings("127.0.0.1",
                                                                                                         "java.lang.String")));
        assertTrue(notOne.getMessage().contains("does not implement"), notOne.getMessage());
    }

    @Test
    void aClassNameMakesACustomAuthenticator() {
        Authenticator custom = Authenticators.create(settings("0.0.0.0", HeaderAuthenticator.class.getName()));
        assertInstanceOf(HeaderAuthenticator.class, custom);
        assertEquals(Optional.of(new Tenant("who", false)), custom.authenticate(bearer("who")));
    }

    /** A custom authenticator: the Authorization value is the tenant (for the test only). */
    public static final class HeaderAuthenticator implements Authenticator {
        @Override
        public Optional<Tenant> authenticate(Credentials credentials) {
            return credentials.authorization().stream().findFirst().map(name -> new Tenant(name, false));
        }
    }

    private static RestSettings settings(String host, String authType) {
        return new RestSettings(host, 0, 1 << 20, 10, 500, 1_000, List.of(0), 1_000)
                .withAccess(AccessSettings.LOCAL.withAuth(authType, ""));
    }

    // ---- rate limiter and quotas (a manual clock) ----

    @Test
    void theRateLimiterAllowsAMinutesBurstThenRefillsEvenly() {
        RateLimiter limiter = new RateLimiter(6, 0); // one token every 10 s
        for (int i = 0; i < 6; i++) {
            assertEquals(0, limiter.tryAcquire(0), "burst " + i);
        }
        assertEquals(10_000, limiter.tryAcquire(0));
        assertEquals(1_000, limiter.tryAcquire(9_000));
        assertEquals(0, limiter.tryAcquire(10_000));
        assertEquals(10_000, limiter.tryAcquire(10_000));
        assertEquals(0, limiter.tryAcquire(1_000_000));
        assertTrue(limiter.full(2_000_000));
        assertEquals(0, limiter.tryAcquire(5), "time going back changes nothing");
    }

    @Test
    void quotasAreCountedPerTenantAndGivenBack() {
        AtomicLong now = new AtomicLong(0);
        TenantQuotas quotas = new TenantQuotas(2, 3, now::get);
        assertNull(quotas.acquire("a"));
        assertNull(quotas.acquire("a"));
        TenantQuotas.Refusal concurrent = quotas.acquire("a");
        assertEquals(TenantQuotas.CONCURRENT_SETTING, concurrent.setting());
        assertTrue(concurrent.message().contains(TenantQuotas.CONCURRENT_SETTING));
        assertNull(quotas.acquire("b"), "b has its own quota");
        quotas.release("a");
        assertNull(quotas.acquire("a"), "a's third query of the minute");
        quotas.release("a");
        TenantQuotas.Refusal rate = quotas.acquire("a");
        assertEquals(TenantQuotas.RATE_SETTING, rate.setting());
        assertEquals(20, rate.retryAfterSeconds(), "one query every 20 s");
        assertEquals(1, quotas.running("a"), "a refusal takes nothing");
        now.set(20_000);
        assertNull(quotas.acquire("a"));
    }

    @Test
    void aSlotIsGivenBackOnceWhicheverWayItEnds() {
        AtomicLong given = new AtomicLong();
        Slot abandoned = new Slot(Tenant.ANONYMOUS, given::incrementAndGet);
        abandoned.abandon();
        abandoned.abandon();
        abandoned.end();
        assertFalse(abandoned.claim());
        assertEquals(1, given.get());
        Slot used = new Slot(Tenant.ANONYMOUS, given::incrementAndGet);
        assertTrue(used.claim());
        used.abandon();
        assertEquals(1, given.get(), "a claimed slot is not abandoned");
        used.end();
        used.end();
        assertEquals(2, given.get());
    }

    // ---- Host check ----

    @Test
    void theHostCheckAcceptsTheBoundAddressLoopbackNamesAndListedHosts() {
        HostCheck check = new HostCheck("127.0.0.1", new InetSocketAddress("127.0.0.1", 9999), "http",
                                        List.of("bullet.example", "proxy.example:8443"));
        for (String ok : new String[] {"127.0.0.1:9999", "localhost:9999", "LocalHost:9999", "[::1]:9999",
                                       "bullet.example", "bullet.example:1", "proxy.example:8443"}) {
            assertTrue(check.allows(ok), ok);
        }
        for (String bad : new String[] {"evil.example:9999", "127.0.0.1", "127.0.0.1:9998", "proxy.example:8444",
                                        "proxy.example", "127.0.0.1:9999:1", "[::1", "", "127.0.0.1:99999999999",
                                        "127.0.0.1:+9999", "127.0.0.1:9999/x", "u@127.0.0.1:9999", "\u00e9:9999"}) {
            assertFalse(check.allows(bad), bad);
        }
        assertTrue(new HostCheck("127.0.0.1", new InetSocketAddress("127.0.0.1", 80), "http", List.of())
                           .allows("localhost"), "no port means the scheme's default");
        assertTrue(new HostCheck("127.0.0.1", new InetSocketAddress("127.0.0.1", 1), "http", List.of("*"))
                           .allows("anything:5"));
    }
}

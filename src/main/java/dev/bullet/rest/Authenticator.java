package dev.bullet.rest;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;

/**
 * Proves who a request comes from (its {@link Tenant}). Pluggable like the metrics sinks: {@code bullet.rest.auth.type}
 * names a built-in ({@code none}, {@code tokens}, {@code mtls}) or the class name of an implementation with a public
 * no-argument constructor, which gets the service's settings in {@link #prepare} before the first request.
 *
 * <p>{@link #authenticate} runs on the network threads for every request to the query endpoints: it must not block,
 * and must never throw on what a client sends (any bytes, any length, repeated headers): a request it cannot prove is
 * answered 401.
 */
public interface Authenticator {
    /** What a request offers as proof of who it comes from. */
    record Credentials(List<String> authorization, List<X509Certificate> clientCertificates) {
        public Credentials {
            authorization = List.copyOf(authorization);
            clientCertificates = List.copyOf(clientCertificates);
        }
    }

    /**
     * Called once before the service starts.
     *
     * @throws dev.bullet.BulletException when the settings do not fit this authenticator (say which key to fix)
     */
    default void prepare(RestSettings settings) {
    }

    /** Whether requests must prove a tenant; false only without authentication (then quotas do not apply either). */
    default boolean required() {
        return true;
    }

    /** The tenant the request proves, or empty (answered 401). */
    Optional<Tenant> authenticate(Credentials credentials);

    /** The {@code WWW-Authenticate} value of a 401 answer, or null for none. */
    default String challenge() {
        return null;
    }
}

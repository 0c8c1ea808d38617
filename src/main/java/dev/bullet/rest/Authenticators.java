package dev.bullet.rest;

import dev.bullet.BulletException;

import java.lang.reflect.InvocationTargetException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.Set;

/** Resolves {@code bullet.rest.auth.type} (an alias or a class name) to a prepared {@link Authenticator}. */
final class Authenticators {
    private Authenticators() {
    }

    /** No authentication: every request is {@link Tenant#ANONYMOUS}. */
    static final Authenticator NONE = new Authenticator() {
        @Override
        public boolean required() {
            return false;
        }

        @Override
        public Optional<Tenant> authenticate(Credentials credentials) {
            return Optional.of(Tenant.ANONYMOUS);
        }
    };

    /**
     * The authenticator of the settings, prepared.
     *
     * @throws BulletException when it cannot be made, or when the service would be open to the network without one
     */
    static Authenticator create(RestSettings settings) {
        AccessSettings access = settings.access();
        String type = access.authType().trim();
        Authenticator authenticator = switch (type) {
            case AccessSettings.NONE -> NONE;
            case AccessSettings.TOKENS -> TokenAuthenticator.of(access);
            case AccessSettings.MTLS -> new MtlsAuthenticator(Set.copyOf(access.admins()));
            default -> instantiate(type);
        };
        authenticator.prepare(settings);
        if (!authenticator.required() && !isLoopback(settings.host())) {
            throw new BulletException("bullet.rest.auth.type is none, which is allowed only while bullet.rest.host is a "
                                      + "loopback address, but bullet.rest.host is " + settings.host() + ": set "
                                      + "bullet.rest.auth.type to tokens (with bullet.rest.auth.tokens.file) or mtls, "
                                      + "or bind 127.0.0.1");
        }
        return authenticator;
    }

    static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException | SecurityException e) {
            return false;
        }
    }

    private static Authenticator instantiate(String className) {
        Class<?> type;
        try {
            type = Class.forName(className);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new BulletException("bullet.rest.auth.type " + className + " is neither none, tokens nor mtls, nor a "
                                      + "class on the classpath (" + e.getClass().getSimpleName() + ")");
        }
        if (!Authenticator.class.isAssignableFrom(type)) {
            throw new BulletException("bullet.rest.auth.type " + className + " does not implement "
                                      + Authenticator.class.getName());
        }
        try {
            return (Authenticator) type.getConstructor().newInstance();
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException
                 | InvocationTargetException e) {
            throw new BulletException("bullet.rest.auth.type " + className + " cannot be made with a public no-argument "
                                      + "constructor: " + e.getClass().getSimpleName());
        }
    }
}

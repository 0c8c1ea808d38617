package dev.bullet.config;

import java.util.regex.Pattern;

/** The shapes of the REST service's allowed hosts and origins ({@link Validator#hosts}, {@link Validator#origins}). */
final class HostPatterns {
    private HostPatterns() {
    }

    /** A host (a name, an IPv4 address or a bracketed IPv6 one) and an optional port. */
    private static final String HOST_PORT = "(\\[[0-9a-fA-F:.]+\\]|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9.])?)(:[0-9]{1,5})?";
    static final Pattern HOST = Pattern.compile(HOST_PORT);
    static final Pattern ORIGIN = Pattern.compile("(?i)https?://" + HOST_PORT);
}

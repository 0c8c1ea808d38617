package dev.bullet.rest;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which {@code Host} header values the service answers (DNS rebinding defence): {@code name:port} where port is the
 * bound port and name is {@code bullet.rest.host} as configured, or the bound IP address; for a loopback or wildcard
 * bind also {@code localhost}, {@code 127.0.0.1} and {@code [::1]}; for a wildcard bind ({@code 0.0.0.0}, {@code ::})
 * also the addresses of this machine's interfaces and its host name. Besides these, each entry of
 * {@code bullet.rest.allowed.hosts}: {@code name} (any port), {@code name:port}, or {@code *} (any Host). Names
 * compare without case; a Host without a port means the scheme's default port.
 */
final class HostCheck {
    private final Set<String> names = new HashSet<>();
    private final Set<String> namesAnyPort = new HashSet<>();
    private final Set<String> exact = new HashSet<>();
    private final boolean anyHost;
    private final int port;
    private final String scheme;
    private final String canonical;

    HostCheck(String configuredHost, InetSocketAddress bound, String scheme, List<String> allowedHosts) {
        this.port = bound.getPort();
        this.scheme = scheme;
        InetAddress address = bound.getAddress();
        String ip = literal(address);
        this.canonical = scheme + "://" + ip + ":" + port;
        names.add(bracketed(configuredHost.trim().toLowerCase(Locale.ROOT)));
        names.add(ip);
        if (address.isLoopbackAddress() || address.isAnyLocalAddress()) {
            names.addAll(List.of("localhost", "127.0.0.1", "[::1]"));
        }
        if (address.isAnyLocalAddress()) {
            addLocalNames();
        }
        boolean any = false;
        for (String entry : allowedHosts) {
            String e = entry.trim().toLowerCase(Locale.ROOT);
            if (e.equals("*")) {
                any = true;
            } else if (hasPort(e)) {
                exact.add(e);
            } else {
                namesAnyPort.add(bracketed(e));
            }
        }
        this.anyHost = any;
    }

    /** Where clients should send requests (for error messages). */
    String canonical() {
        return canonical;
    }

    /** Whether a request with this Host header value is served. */
    boolean allows(String hostHeader) {
        if (anyHost) {
            return true;
        }
        if (hostHeader == null) {
            return false;
        }
        String value = hostHeader.trim().toLowerCase(Locale.ROOT);
        String full = withPort(value, scheme);
        if (full == null) {
            return false;
        }
        int colon = full.lastIndexOf(':');
        String name = full.substring(0, colon);
        String p = full.substring(colon + 1);
        return exact.contains(full) || namesAnyPort.contains(name) || (names.contains(name) && p.equals(String.valueOf(port)));
    }

    /**
     * {@code host:port} of a Host value (lower case expected), the scheme's default port added when it has none; null
     * when it is malformed (a bare IPv6 address, a bad port, control characters).
     */
    static String withPort(String value, String scheme) {
        if (value.isEmpty() || !value.chars().allMatch(c -> c > 0x20 && c < 0x7f) || value.contains("/")
            || value.contains("@")) {
            return null;
        }
        String name;
        String p;
        if (value.startsWith("[")) {
            int close = value.indexOf(']');
            if (close < 0) {
                return null;
            }
            name = value.substring(0, close + 1);
            String rest = value.substring(close + 1);
            if (rest.isEmpty()) {
                p = null;
            } else if (rest.startsWith(":")) {
                p = rest.substring(1);
            } else {
                return null;
            }
        } else {
            int colon = value.indexOf(':');
            if (colon != value.lastIndexOf(':')) {
                return null;
            }
            name = colon < 0 ? value : value.substring(0, colon);
            p = colon < 0 ? null : value.substring(colon + 1);
        }
        if (p == null) {
            p = "https".equals(scheme) ? "443" : "80";
        }
        if (name.isEmpty() || p.isEmpty() || p.length() > 5 || !p.chars().allMatch(Character::isDigit)) {
            return null;
        }
        return name + ":" + Integer.parseInt(p);
    }

    private static boolean hasPort(String entry) {
        return entry.startsWith("[") ? entry.contains("]:") : entry.indexOf(':') >= 0 && entry.indexOf(':') == entry.lastIndexOf(':');
    }

    /** IPv6 literals as they appear in a Host header: in brackets. */
    private static String bracketed(String name) {
        return name.indexOf(':') >= 0 && !name.startsWith("[") ? "[" + name + "]" : name;
    }

    private static String literal(InetAddress address) {
        String ip = address.getHostAddress().toLowerCase(Locale.ROOT);
        int zone = ip.indexOf('%');
        return bracketed(zone >= 0 ? ip.substring(0, zone) : ip);
    }

    private void addLocalNames() {
        try {
            Enumeration<NetworkInterface> interfaces = NetworkInterface.getNetworkInterfaces();
            while (interfaces != null && interfaces.hasMoreElements()) {
                Enumeration<InetAddress> addresses = interfaces.nextElement().getInetAddresses();
                while (addresses.hasMoreElements()) {
                    names.add(literal(addresses.nextElement()));
                }
            }
        } catch (SocketException e) {
            // the interfaces' addresses stay unlisted: bullet.rest.allowed.hosts can name them
        }
        try {
            InetAddress local = InetAddress.getLocalHost();
            names.add(local.getHostName().toLowerCase(Locale.ROOT));
            names.add(local.getCanonicalHostName().toLowerCase(Locale.ROOT));
        } catch (UnknownHostException | SecurityException e) {
            // no host name: bullet.rest.allowed.hosts can name it
        }
    }
}

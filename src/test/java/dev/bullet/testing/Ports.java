package dev.bullet.testing;

import java.io.IOException;
import java.net.ServerSocket;

/** Free loopback ports for the servers that integration tests start. */
public final class Ports {
    private Ports() {
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** A port whose next one is free too (a broker's controller, a second Supervisor). */
    public static int freePortPair() throws IOException {
        for (int i = 0; i < 50; i++) {
            int port = freePort();
            try (ServerSocket probe = new ServerSocket(port + 1)) {
                probe.setReuseAddress(true);
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no two consecutive free ports");
    }
}

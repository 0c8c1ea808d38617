package dev.bullet.local;

import dev.bullet.BulletException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code bullet-local.sh} refuses before it starts anything: settings the REST service would refuse only after
 * Kafka and the topology had started. The Kafka port is held busy, so a check made after the ports' would fail on it.
 */
class LocalStackStartTest {
    @Test
    void noAuthenticationOffLoopbackStopsTheStartAtOnceNamingTheSetting(@TempDir Path dir) throws IOException {
        for (String host : new String[] {"0.0.0.0", "192.0.2.10"}) {
            String message = refused(dir, "bullet.rest.host: \"" + host + "\"\n");
            assertTrue(message.contains("bullet.rest.auth.type") && message.contains(host), message);
        }
    }

    @Test
    void aMissingTokensFileStopsTheStartAtOnce(@TempDir Path dir) throws IOException {
        String message = refused(dir, "bullet.rest.auth.type: tokens\nbullet.rest.auth.tokens.file: \""
                                      + dir.resolve("missing") + "\"\n");
        assertTrue(message.contains("bullet.rest.auth.tokens.file"), message);
    }

    @Test
    void aHostThatIsNotThisMachinesIsNamedAsSuchNotAsAPortInUse(@TempDir Path dir) throws IOException {
        Path tokens = dir.resolve("tokens");
        Files.writeString(tokens, "team-a-token-0123456789 team-a\n");
        int kafkaPort;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            kafkaPort = free.getLocalPort();
        }
        Path conf = dir.resolve("remote.yaml");
        Files.writeString(conf, "bullet.rest.host: \"192.0.2.10\"\nbullet.rest.auth.type: tokens\n"
                                + "bullet.rest.auth.tokens.file: \"" + tokens + "\"\n");
        // 192.0.2.10 (TEST-NET-1) is no address of this machine: binding it fails before any port is looked at
        BulletException e = assertThrows(BulletException.class, () -> LocalStack.start(
                new LocalStack.Options(conf, kafkaPort, null, 19_997, 0), quiet()));
        assertTrue(e.getMessage().contains("not an address of this machine")
                   && e.getMessage().contains("bullet.rest.host"), e.getMessage());
    }

    private static String refused(Path dir, String yaml) throws IOException {
        Path conf = dir.resolve("settings.yaml");
        Files.writeString(conf, yaml);
        try (ServerSocket busy = new ServerSocket()) {
            busy.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            ByteArrayOutputStream progress = new ByteArrayOutputStream();
            BulletException e = assertThrows(BulletException.class, () -> LocalStack.start(
                    new LocalStack.Options(conf, busy.getLocalPort(), null, 0, 0),
                    new PrintStream(progress, true, StandardCharsets.UTF_8)));
            assertEquals("", progress.toString(StandardCharsets.UTF_8), "nothing was started");
            return e.getMessage();
        }
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }
}

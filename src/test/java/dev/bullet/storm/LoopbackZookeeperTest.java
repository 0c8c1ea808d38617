package dev.bullet.storm;

import org.apache.storm.Config;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoopbackZookeeperTest {
    /** 127.0.0.1 as /proc/net/tcp writes it, ::1 and ::ffff:127.0.0.1 as /proc/net/tcp6 does. */
    private static final Set<String> LOOPBACK = Set.of("0100007F", "00000000000000000000000001000000",
                                                       "0000000000000000FFFF00000100007F");

    @Test
    void listensOnLoopbackOnlyAndAnswers() throws Exception {
        try (LoopbackZookeeper zookeeper = LoopbackZookeeper.start()) {
            assertTrue(zookeeper.port() > 0);
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), zookeeper.port()), 5000);
                socket.setSoTimeout(5000);
                // a session request of the ZooKeeper protocol: the server must answer with a session
                OutputStream out = socket.getOutputStream();
                out.write(connectRequest());
                out.flush();
                InputStream in = socket.getInputStream();
                byte[] length = in.readNBytes(4);
                assertEquals(4, length.length, "ZooKeeper answered the session request");
            }
            for (String line : listeningSockets()) {
                String[] cols = line.trim().split("\\s+");
                boolean listening = cols.length > 3 && "0A".equals(cols[3]);
                if (listening && cols[1].endsWith(String.format(":%04X", zookeeper.port()))) {
                    assertTrue(LOOPBACK.contains(cols[1].substring(0, cols[1].indexOf(':'))),
                               "ZooKeeper bound " + cols[1] + ", not the loopback address");
                }
            }
        }
    }

    @Test
    void localClusterUsesIt() {
        try (LoopbackZookeeper zookeeper = LoopbackZookeeper.start()) {
            Map<String, Object> conf = LocalClusterRunner.daemonConf(zookeeper);
            assertEquals(List.of("127.0.0.1"), conf.get(Config.STORM_ZOOKEEPER_SERVERS));
            assertEquals(zookeeper.port(), conf.get(Config.STORM_ZOOKEEPER_PORT));
        }
    }

    private static byte[] connectRequest() {
        ByteBuffer b = ByteBuffer.allocate(4 + 4 + 8 + 4 + 8 + 4 + 16);
        b.putInt(b.capacity() - 4).putInt(0).putLong(0).putInt(30_000).putLong(0).putInt(16).put(new byte[16]);
        return b.array();
    }

    private static List<String> listeningSockets() throws Exception {
        List<String> lines = new ArrayList<>();
        for (String file : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path p = Path.of(file);
            if (Files.exists(p)) {
                lines.addAll(Files.readAllLines(p, StandardCharsets.US_ASCII));
            }
        }
        return lines;
    }
}

package dev.bullet.storm;

import dev.bullet.BulletException;
import org.apache.storm.shade.org.apache.zookeeper.server.NIOServerCnxnFactory;
import org.apache.storm.shade.org.apache.zookeeper.server.ZooKeeperServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The ZooKeeper of local mode, listening on 127.0.0.1 only. Storm's {@code LocalCluster} would start its own on every
 * interface; it skips that when {@code storm.zookeeper.servers} is in its daemon config, which
 * {@link LocalClusterRunner} sets to this server. Its data lives in a temporary directory removed on close.
 */
final class LoopbackZookeeper implements AutoCloseable {
    private static final int TICK_MS = 2000;
    private static final int MAX_CLIENTS = 100;

    private final Path dir;
    private final NIOServerCnxnFactory factory;
    private final ZooKeeperServer server;

    private LoopbackZookeeper(Path dir, NIOServerCnxnFactory factory, ZooKeeperServer server) {
        this.dir = dir;
        this.factory = factory;
        this.server = server;
    }

    /** Starts a server on a free port of 127.0.0.1. */
    static LoopbackZookeeper start() {
        Path dir = null;
        NIOServerCnxnFactory factory = new NIOServerCnxnFactory();
        try {
            dir = Files.createTempDirectory("bullet-zookeeper");
            ZooKeeperServer server = new ZooKeeperServer(dir.toFile(), dir.toFile(), TICK_MS);
            factory.configure(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), MAX_CLIENTS);
            factory.startup(server);
            return new LoopbackZookeeper(dir, factory, server);
        } catch (IOException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            factory.shutdown();
            delete(dir);
            throw new BulletException("cannot start ZooKeeper on 127.0.0.1: " + e.getMessage(), e);
        }
    }

    /** The address clients connect to: always the loopback address. */
    String host() {
        return InetAddress.getLoopbackAddress().getHostAddress();
    }

    int port() {
        return factory.getLocalPort();
    }

    @Override
    public void close() {
        factory.shutdown();
        server.shutdown();
        delete(dir);
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a temporary directory left behind is harmless
        }
    }
}

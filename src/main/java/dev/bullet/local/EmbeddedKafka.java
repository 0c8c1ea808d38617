package dev.bullet.local;

import dev.bullet.BulletException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node Kafka (KRaft, combined broker and controller, no ZooKeeper) inside this JVM: the firehose
 * and PubSub transport of the local stack ({@code scripts/bullet-local.sh}, via {@link KafkaMain}) and of the
 * integration tests. Listens on 127.0.0.1 only: PLAINTEXT, or secured by a {@link KafkaListenerSecurity}
 * (SASL_SSL, SASL_PLAINTEXT or SSL on both its client and controller listeners; clients then need
 * {@link #clientProperties()} or another user's properties).
 *
 * <p>Lifecycle: {@link #start()} formats the data directory on first use and returns when the broker
 * serves; {@link #stop()} shuts it down and can be followed by another {@code start()} on the same port and
 * data; {@link #close()} stops and deletes the data directory if this object created it. The broker's
 * threads are non-daemon, so an owner must stop it. A fatal broker fault halts the JVM (Kafka's
 * {@code Exit.halt}). Thread-safe.
 */
public final class EmbeddedKafka implements AutoCloseable {
    public static final int DEFAULT_PORT = 9092;
    public static final int DEFAULT_CONTROLLER_PORT = 9093;
    private static final String HOST = "127.0.0.1";
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);
    private static final long TOPIC_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);

    private final int port;
    private final int controllerPort;
    private final Path dir;
    private final boolean ownsDir;
    private final Properties config;
    private final KafkaListenerSecurity security;
    private KafkaRaftServer server;

    /** A broker on 127.0.0.1:9092 (controller 9093) with its data in a new temporary directory. */
    public EmbeddedKafka() {
        this(DEFAULT_PORT, DEFAULT_CONTROLLER_PORT, null);
    }

    /**
     * @param dir the directory for the broker's configuration and data (created if missing, kept by
     *            {@link #close()}), or null for a new temporary directory that {@code close()} deletes
     */
    public EmbeddedKafka(int port, int controllerPort, Path dir) {
        this(port, controllerPort, dir, null);
    }

    /**
     * @param dir      as for {@link #EmbeddedKafka(int, int, Path)}
     * @param security how the listeners are secured, or null for PLAINTEXT
     */
    public EmbeddedKafka(int port, int controllerPort, Path dir, KafkaListenerSecurity security) {
        if (port == controllerPort) {
            throw new IllegalArgumentException("broker and controller ports must differ, both are " + port);
        }
        this.port = checkPort(port);
        this.controllerPort = checkPort(controllerPort);
        this.ownsDir = dir == null;
        try {
            this.dir = dir != null ? dir : Files.createTempDirectory("bullet-kafka-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for Kafka", e);
        }
        this.security = security;
        this.config = brokerConfig(port, controllerPort, this.dir.resolve("data"), security);
    }

    /** A broker on two free loopback ports with its data under {@code dir}. */
    public static EmbeddedKafka onFreePorts(Path dir) {
        int[] ports = freePorts(2);
        return new EmbeddedKafka(ports[0], ports[1], dir);
    }

    /** A broker on two free loopback ports with its data under {@code dir}, its listeners secured so. */
    public static EmbeddedKafka onFreePorts(Path dir, KafkaListenerSecurity security) {
        int[] ports = freePorts(2);
        return new EmbeddedKafka(ports[0], ports[1], dir, security);
    }

    /**
     * The Kafka client properties a client needs besides {@code bootstrap.servers} (those of the broker's own user),
     * empty for a PLAINTEXT broker.
     */
    public Map<String, String> clientProperties() {
        return security == null ? Map.of() : security.brokerClientProperties();
    }

    public String bootstrapServers() {
        return HOST + ":" + port;
    }

    public int port() {
        return port;
    }

    public int controllerPort() {
        return controllerPort;
    }

    public Path dataDir() {
        return dir;
    }

    public synchronized boolean isRunning() {
        return server != null;
    }

    /** Starts the broker (formatting its storage the first time); returns once it serves clients. */
    public synchronized void start() {
        if (server != null) {
            return;
        }
        if (!Files.exists(dir.resolve("data").resolve("meta.properties"))) {
            format();
        }
        KafkaRaftServer started = new KafkaRaftServer(KafkaConfig.fromProps(config, false), Time.SYSTEM);
        try {
            started.startup();
        } catch (RuntimeException e) {
            try {
                started.shutdown();
                started.awaitShutdown();
            } catch (RuntimeException shutdownFailure) {
                e.addSuppressed(shutdownFailure);
            }
            throw new BulletException("Kafka failed to start on " + bootstrapServers()
                + " (controller port " + controllerPort + ", data " + dir + ")", e);
        }
        server = started;
        LOG.info("Kafka broker serving on {} (data {})", bootstrapServers(), dir);
    }

    /** Shuts the broker down cleanly; {@link #start()} may follow. No-op when stopped. */
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        KafkaRaftServer running = server;
        server = null;
        running.shutdown();
        running.awaitShutdown();
    }

    /** Stops the broker and deletes its data directory if it is a temporary one this object created. */
    @Override
    public synchronized void close() {
        stop();
        if (ownsDir) {
            deleteDirectory(dir);
        }
    }

    /**
     * Creates the topics (replication factor 1) that do not exist yet, and waits until every partition of
     * each has a leader. A topic that exists already is left as it is, whatever its partition count.
     *
     * @param nameToPartitions topic name → number of partitions
     */
    public void createTopics(Map<String, Integer> nameToPartitions) {
        if (nameToPartitions.isEmpty()) {
            return;
        }
        List<NewTopic> topics = new ArrayList<>();
        nameToPartitions.forEach((name, partitions) -> topics.add(new NewTopic(name, partitions, (short) 1)));
        try (Admin admin = Admin.create(adminConfig())) {
            Map<String, KafkaFuture<Void>> created = admin.createTopics(topics).values();
            for (Map.Entry<String, KafkaFuture<Void>> entry : created.entrySet()) {
                try {
                    entry.getValue().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new BulletException("cannot create topic " + entry.getKey(), e.getCause());
                    }
                }
            }
            awaitLeaders(admin, List.copyOf(nameToPartitions.keySet()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BulletException("interrupted while creating topics " + nameToPartitions.keySet(), e);
        } catch (TimeoutException e) {
            throw new BulletException("timed out creating topics " + nameToPartitions.keySet(), e);
        }
    }

    private void awaitLeaders(Admin admin, List<String> names) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
        while (true) {
            try {
                Map<String, TopicDescription> descriptions =
                    admin.describeTopics(names).allTopicNames().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                boolean ready = descriptions.values().stream()
                    .allMatch(d -> d.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty()));
                if (ready) {
                    return;
                }
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new BulletException("cannot describe topics " + names, e.getCause());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("topics " + names + " have no leader after " + ADMIN_TIMEOUT);
            }
            LockSupport.parkNanos(TOPIC_POLL_NANOS);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    private Properties adminConfig() {
        Properties admin = new Properties();
        admin.putAll(clientProperties());
        admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis());
        return admin;
    }

    /** Equivalent of {@code kafka-storage.sh format -t <new id> -c server.properties --ignore-formatted}. */
    private void format() {
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve("server.properties");
            try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                config.store(writer, "embedded Kafka of Bullet on Storm");
            }
            ByteArrayOutputStream output = new ByteArrayOutputStream();
            int rc = StorageTool.execute(new String[] {"format", "-t", Uuid.randomUuid().toString(),
                "-c", file.toString(), "--ignore-formatted"}, new PrintStream(output, true, StandardCharsets.UTF_8));
            if (rc != 0) {
                throw new BulletException("formatting Kafka storage in " + dir + " failed (exit " + rc + "): "
                    + output.toString(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the Kafka directory " + dir, e);
        }
    }

    /** Most bytes a partition's log keeps (then its oldest segment goes), and the size of a segment. */
    static final long RETENTION_BYTES = 1L << 30;
    static final int SEGMENT_BYTES = 128 << 20;

    static Properties brokerConfig(int port, int controllerPort, Path logDir) {
        return brokerConfig(port, controllerPort, logDir, null);
    }

    static Properties brokerConfig(int port, int controllerPort, Path logDir, KafkaListenerSecurity security) {
        String listener = security == null ? "PLAINTEXT" : security.listenerName();
        String controller = "CONTROLLER";
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@" + HOST + ":" + controllerPort);
        p.put("listeners", listener + "://" + HOST + ":" + port + "," + controller + "://" + HOST + ":" + controllerPort);
        p.put("advertised.listeners", listener + "://" + HOST + ":" + port);
        p.put("controller.listener.names", controller);
        p.put("inter.broker.listener.name", listener);
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + controller + ":PLAINTEXT");
        if (security != null) {
            p.putAll(security.brokerProperties(controller));
        }
        p.put("log.dirs", logDir.toString());
        p.put("num.partitions", "1");
        p.put("auto.create.topics.enable", "true");
        // One broker: internal topics must not ask for more replicas than exist (consumer groups never work else).
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        // The default pins 128 MiB of heap for log compaction.
        p.put("log.cleaner.dedupe.buffer.size", "2097152");
        // A local broker serves a few clients: Kafka's defaults (8 request handlers, 3 network threads) only add
        // threads that wake up for nothing.
        p.put("num.io.threads", "2");
        p.put("num.network.threads", "1");
        // A bounded log. Bullet reads the firehose forward only (a query sees the records that arrive after it), so
        // old records serve nothing, and a stack left running at 10,000 records/s writes ~70 GB an hour (a disk
        // filled this way made the broker stop). Per partition: segments of 128 MiB, the oldest deleted once the log
        // passes 1 GiB (~50 s of that load: far more than a spout lags and stays healthy) or is an hour old, checked
        // every 30 s.
        p.put("log.segment.bytes", String.valueOf(SEGMENT_BYTES));
        p.put("log.retention.bytes", String.valueOf(RETENTION_BYTES));
        p.put("log.retention.ms", String.valueOf(TimeUnit.HOURS.toMillis(1)));
        p.put("log.retention.check.interval.ms", "30000");
        return p;
    }

    /** Reserves {@code count} distinct free loopback ports (free when this returns; a race is possible). */
    static int[] freePorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket();
                sockets.add(socket);
                socket.bind(new InetSocketAddress(InetAddress.getByName(HOST), 0));
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find free loopback ports", e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException e) {
                    LOG.warn("cannot close probe socket {}", socket, e);
                }
            }
        }
    }

    /** True if nothing listens on {@code 127.0.0.1:port}, checked by binding it. */
    static boolean isPortFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(HOST), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int checkPort(int port) {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        return port;
    }

    /**
     * Deletes a broker's directory and everything under it (also for a directory a caller owns, e.g. when its run
     * ends); what cannot be deleted is left and logged.
     */
    public static void deleteDirectory(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            LOG.warn("cannot delete the Kafka directory {}", root, e);
        }
    }
}

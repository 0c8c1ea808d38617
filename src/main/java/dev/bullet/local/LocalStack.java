package dev.bullet.local;

import dev.bullet.BulletException;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.rest.QueryService;
import dev.bullet.rest.RestServer;
import dev.bullet.rest.RestSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.BindException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * The one-command local stack of {@code scripts/bullet-local.sh} (SPEC §9): an embedded Kafka broker, the topology
 * in Storm local mode, the REST service and a sample data feed, all in this JVM and on 127.0.0.1.
 *
 * <p>{@link #start} returns once a query sent over REST is answered: the REST port is bound only after the topology
 * answered a probe query, so a client that sees the port open (or {@code /api/bullet/health} at 200) can query at
 * once. {@link #close} stops everything in reverse order.
 */
public final class LocalStack implements AutoCloseable {
    /** How long the topology may take to answer its first query. */
    static final Duration READY_TIMEOUT = Duration.ofMinutes(4);
    private static final long HEALTH_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final Logger LOG = LoggerFactory.getLogger(LocalStack.class);

    /**
     * @param bulletConf   settings file, or null
     * @param kafkaPort    the broker's port (its controller takes the next one)
     * @param dataDir      the broker's data directory, or null for a temporary one
     * @param restPort     the REST port, or null for {@code bullet.rest.port} of the settings (9999)
     * @param sampleRate   sample records per second, or 0 for no sample feed
     * @param supervisors  0: the topology in Storm's local mode; N: on a real multi-process cluster with N Supervisors
     */
    public record Options(Path bulletConf, int kafkaPort, Path dataDir, Integer restPort, double sampleRate,
                          int supervisors) {
        public Options(Path bulletConf, int kafkaPort, Path dataDir, Integer restPort, double sampleRate) {
            this(bulletConf, kafkaPort, dataDir, restPort, sampleRate, 0);
        }
    }

    private EmbeddedKafka kafka;
    private AutoCloseable topology;
    private QueryService service;
    private RestServer server;
    private SampleFeed feed;
    private BulletSettings settings;

    private LocalStack() {
    }

    /**
     * Starts the stack, reporting progress on {@code progress}.
     *
     * @throws BulletException (settings problems as {@link dev.bullet.config.SettingsException}) if it cannot start;
     *                         whatever had started is stopped again
     */
    public static LocalStack start(Options options, PrintStream progress) {
        Map<String, Object> overrides = new LinkedHashMap<>();
        if (options.restPort() != null) {
            overrides.put(SettingsTable.REST_PORT, options.restPort());
        }
        BulletSettings base = BulletSettings.load(options.bulletConf(), overrides);
        RestServer.checkAccess(RestSettings.from(base)); // before anything starts: the REST service would refuse them
        String restHost = base.getString(SettingsTable.REST_HOST);
        int restPort = base.getInt(SettingsTable.REST_PORT);
        requireFree("127.0.0.1", options.kafkaPort(), "Kafka", "--kafka-port N");
        requireFree("127.0.0.1", options.kafkaPort() + 1, "Kafka's controller (the Kafka port + 1)", "--kafka-port N");
        if (restPort != 0) {
            requireFree(restHost, restPort, "the REST service", "--port N");
        }
        LocalStack stack = new LocalStack();
        try {
            progress.println("Starting Kafka on 127.0.0.1:" + options.kafkaPort() + " ...");
            stack.kafka = new EmbeddedKafka(options.kafkaPort(), options.kafkaPort() + 1, options.dataDir());
            stack.kafka.start();
            if (options.supervisors() > 0) {
                ClusterTopology cluster = ClusterTopology.start(stack.kafka, base, options.bulletConf(),
                                                                options.supervisors(), progress);
                stack.topology = cluster;
                stack.settings = cluster.settings();
            } else {
                progress.println("Starting the topology in Storm local mode ...");
                LocalTopology local = LocalTopology.start(stack.kafka, base);
                stack.topology = local;
                stack.settings = local.settings();
            }
            // The feed starts before the wait for the topology: its records take their path through the spout and
            // the decode bolt (and the JIT compiles it) while the stack starts, not in the user's first seconds.
            if (options.sampleRate() > 0) {
                stack.feed = SampleFeed.start(stack.kafka.bootstrapServers(),
                                              stack.settings.getString(SettingsTable.DATASOURCE_KAFKA_TOPIC),
                                              options.sampleRate(), System.nanoTime());
            }
            stack.service = QueryService.start(stack.settings);
            progress.println("Waiting for the topology to answer a query ...");
            stack.awaitHealthy();
            stack.server = RestServer.start(stack.service);
            return stack;
        } catch (RuntimeException e) {
            stack.close();
            throw e;
        }
    }

    private void awaitHealthy() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        long waitMs = settings.getLong(SettingsTable.REST_HEALTH_TIMEOUT_MS) + 5_000;
        String last = "no answer yet";
        while (System.nanoTime() < deadline) {
            try {
                QueryService.Health health = service.health().get(waitMs, TimeUnit.MILLISECONDS);
                if (health.up()) {
                    LOG.info("Local stack ready: {}", health.detail());
                    return;
                }
                last = health.detail();
            } catch (ExecutionException | TimeoutException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BulletException("interrupted while waiting for the topology", e);
            }
            LockSupport.parkNanos(HEALTH_RETRY_NANOS);
        }
        throw new BulletException("the topology did not answer a query within " + READY_TIMEOUT.toSeconds()
                                  + " s: " + last);
    }

    private static void requireFree(String host, int port, String what, String flag) {
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (IOException e) {
            throw new BulletException("cannot resolve " + host + " (" + what + "): " + e.getMessage());
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(address, port));
        } catch (BindException e) {
            if (!isLocal(address)) {
                throw new BulletException(host + " (" + what + ") is not an address of this machine: set "
                                          + SettingsTable.REST_HOST + " to one of its addresses, e.g. 127.0.0.1");
            }
            throw inUse(host, port, what, flag);
        } catch (IOException e) {
            throw inUse(host, port, what, flag);
        }
    }

    private static boolean isLocal(InetAddress address) {
        if (address.isAnyLocalAddress() || address.isLoopbackAddress()) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(address) != null;
        } catch (IOException e) {
            return true; // unknown: the port message below is the likelier one
        }
    }

    private static BulletException inUse(String host, int port, String what, String flag) {
        return new BulletException("port " + port + " on " + host + " (" + what + ") is in use: is another "
                                   + "bullet-local.sh running? Stop it, or choose another port with " + flag);
    }

    /** The REST service's address, {@code http://127.0.0.1:PORT}. */
    public String restUrl() {
        return server.url();
    }

    public String kafkaBootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** The effective settings (with the embedded broker's address). */
    public BulletSettings settings() {
        return settings;
    }

    /** Sample records per second, or 0 when there is no sample feed. */
    public double sampleRate() {
        return feed == null ? 0 : feed.ratePerSecond();
    }

    /**
     * Stops the feed, the REST service (its waiting clients get a 503, their queries a KILL), the topology and the
     * broker. Goes on past a part that fails to stop.
     */
    @Override
    public void close() {
        for (AutoCloseable part : new AutoCloseable[] {feed, service, server, topology, kafka}) {
            if (part == null) {
                continue;
            }
            try {
                part.close();
            } catch (Exception e) {
                LOG.warn("Cannot stop {} cleanly", part.getClass().getSimpleName(), e);
            }
        }
        feed = null;
        service = null;
        server = null;
        topology = null;
        kafka = null;
    }
}

package dev.bullet.rest;

import dev.bullet.BulletException;
import dev.bullet.common.Cli;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The REST service on its own ({@code scripts/bullet-rest.sh}), in front of a topology running elsewhere: it reads
 * the PubSub settings of {@code --bullet-conf} and serves until SIGTERM or Ctrl-C. Prints
 * {@code BULLET_REST_READY http://host:port} once it listens.
 */
public final class RestMain {
    public static final String READY_MARKER = "BULLET_REST_READY";

    private RestMain() {
    }

    /** The command line. */
    @Command(name = "bullet-rest.sh", sortOptions = false,
             description = "Runs the Bullet REST service (SPEC section 7.2) for a topology that reads the same Kafka PubSub.",
             footer = {"Prints '" + READY_MARKER + " http://HOST:PORT' when it listens.",
                       "Exit codes: 1 cannot start, 2 bad command line."})
    static final class Options {
        @Option(names = "--bullet-conf", paramLabel = "FILE",
                description = "settings: bullet.pubsub.kafka.* and bullet.rest.* (default: built-in defaults)")
        private Path conf;
        @Option(names = "--port", paramLabel = "N",
                description = "port to listen on (default bullet.rest.port, 9999); binds bullet.rest.host (127.0.0.1)")
        private String port;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        Path conf() {
            return conf;
        }

        /** The settings the flags set; the values are checked when the settings load. */
        Map<String, Object> overrides() {
            Map<String, Object> overrides = new LinkedHashMap<>();
            if (port != null) {
                overrides.put(SettingsTable.REST_PORT, port);
            }
            return overrides;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Options options = new Options();
        int early = Cli.parse(options, args, System.out, System.err);
        if (early != Cli.RUN) {
            System.exit(early);
        }
        QueryService service = null;
        RestServer server;
        try {
            BulletSettings settings = BulletSettings.load(options.conf(), options.overrides());
            RestServer.checkAccess(RestSettings.from(settings)); // before Kafka is contacted
            service = QueryService.start(settings);
            server = RestServer.start(service);
        } catch (BulletException e) {
            if (service != null) {
                service.close();
            }
            System.exit(Cli.failed(System.err, e.getMessage()));
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        QueryService s = service;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            s.close();
            server.close();
            stopped.countDown();
        }, "bullet-rest-shutdown"));
        System.out.println(READY_MARKER + " " + server.url());
        System.out.flush();
        stopped.await();
    }
}

package dev.bullet.rest;

import dev.bullet.BulletException;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The REST service on its own ({@code scripts/bullet-rest.sh}), in front of a topology running elsewhere: it reads
 * the PubSub settings of {@code --bullet-conf} and serves until SIGTERM or Ctrl-C. Prints
 * {@code BULLET_REST_READY http://host:port} once it listens.
 */
public final class RestMain {
    public static final String READY_MARKER = "BULLET_REST_READY";

    static final String USAGE = String.join("\n",
            "Usage: bullet-rest.sh [--bullet-conf FILE] [--port N] [--help]",
            "",
            "Runs the Bullet REST service (SPEC section 7.2) for a topology that reads the same Kafka PubSub.",
            "  --bullet-conf FILE   settings: bullet.pubsub.kafka.* and bullet.rest.* (default: built-in defaults)",
            "  --port N             port to listen on (default bullet.rest.port, 9999); binds bullet.rest.host (127.0.0.1)",
            "  --help               this text",
            "Prints '" + READY_MARKER + " http://HOST:PORT' when it listens. Exit codes: 1 cannot start, 2 bad command line.");

    private RestMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Path conf = null;
        Map<String, Object> overrides = new LinkedHashMap<>();
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--help") || a.equals("-h")) {
                    System.out.println(USAGE);
                    return;
                }
                if (!a.equals("--bullet-conf") && !a.equals("--port")) {
                    throw new IllegalArgumentException("unknown argument '" + a + "'");
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                String v = args[++i];
                switch (a) {
                    case "--bullet-conf" -> conf = Path.of(v);
                    case "--port" -> overrides.put(SettingsTable.REST_PORT, v);
                    default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        QueryService service = null;
        RestServer server;
        try {
            BulletSettings settings = BulletSettings.load(conf, overrides);
            service = QueryService.start(settings);
            server = RestServer.start(service);
        } catch (BulletException e) {
            System.err.println("error: " + e.getMessage());
            if (service != null) {
                service.close();
            }
            System.exit(1);
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

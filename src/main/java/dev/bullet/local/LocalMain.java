package dev.bullet.local;

import dev.bullet.BulletException;
import dev.bullet.config.BulletSettings;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Local mode entry point ({@code scripts/bullet-local.sh}): an embedded Kafka broker on 127.0.0.1 and the topology
 * in Storm's LocalCluster, until Ctrl-C (or {@code --seconds}). Prints {@code BULLET_READY} when queries can be sent.
 */
public final class LocalMain {
    static final String USAGE = String.join("\n",
            "Usage: bullet-local.sh [--bullet-conf FILE] [--kafka-port N] [--data-dir DIR] [--seconds N]",
            "",
            "Starts a Kafka broker (KRaft, 127.0.0.1:9092 by default) and the Bullet topology in Storm local mode.",
            "  --bullet-conf FILE   settings (conf/bullet_settings.yaml shape)",
            "  --kafka-port N       the broker's port (its controller uses N+1)",
            "  --data-dir DIR       keep the broker's data there (default: a temporary directory, deleted on exit)",
            "  --seconds N          stop after N seconds (default: run until Ctrl-C)",
            "  --help               this text");

    private LocalMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Path conf = null;
        Path dataDir = null;
        int port = EmbeddedKafka.DEFAULT_PORT;
        long seconds = -1;
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--help") || a.equals("-h")) {
                    System.out.println(USAGE);
                    return;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a.startsWith("--") ? a + " needs a value" : "unknown argument '" + a + "'");
                }
                String v = args[++i];
                switch (a) {
                    case "--bullet-conf" -> conf = Path.of(v);
                    case "--kafka-port" -> port = Integer.parseInt(v);
                    case "--data-dir" -> dataDir = Path.of(v);
                    case "--seconds" -> seconds = Long.parseLong(v);
                    default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        EmbeddedKafka kafka = null;
        LocalTopology topology = null;
        try {
            BulletSettings settings = BulletSettings.load(conf, Map.of());
            kafka = new EmbeddedKafka(port, port + 1, dataDir);
            kafka.start();
            topology = LocalTopology.start(kafka, settings);
        } catch (BulletException e) {
            System.err.println("error: " + e.getMessage());
            close(topology, kafka);
            System.exit(2);
            return;
        }
        CountDownLatch stop = new CountDownLatch(1);
        EmbeddedKafka k = kafka;
        LocalTopology t = topology;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            close(t, k);
            stop.countDown();
        }, "bullet-local-shutdown"));
        System.out.println("BULLET_READY kafka=" + kafka.bootstrapServers());
        System.out.flush();
        if (seconds >= 0) {
            Thread.sleep(seconds * 1000L);
            System.exit(0);
        }
        stop.await();
    }

    private static void close(LocalTopology topology, EmbeddedKafka kafka) {
        try {
            if (topology != null) {
                topology.close();
            }
        } finally {
            if (kafka != null) {
                kafka.close();
            }
        }
    }
}

package dev.bullet.local;

import dev.bullet.common.Clock;
import dev.bullet.generator.RecordGenerator;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The local stack's sample data: seed-shaped records ({@link RecordGenerator}, the records of
 * {@code scripts/generate.sh}) into the firehose topic at a fixed rate, in small bursts (every 500 ms at 200
 * records/s), on one daemon thread, until closed. When sending falls behind by more than a second the schedule
 * restarts from now rather than bursting to catch up.
 */
final class SampleFeed implements AutoCloseable {
    private static final long MAX_LAG_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /**
     * The feed sends in bursts of about {@value #BURST_RECORDS} records, at most 500 ms apart: at the default 200
     * records/s an idle stack handles two batches a second instead of 200 requests (a query on the sample data sees
     * its first records within half a second); at 10,000 records/s the bursts are 10 ms apart.
     */
    static final int BURST_RECORDS = 100;
    private static final int BATCH_BYTES = 512 * 1024;
    private static final long MAX_BURST_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private final long burstNanos;
    private static final Logger LOG = LoggerFactory.getLogger(SampleFeed.class);

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final double ratePerSecond;
    private final Thread thread;
    private final AtomicLong failures = new AtomicLong();
    private volatile boolean stopped;
    private long sent;

    private SampleFeed(String bootstrapServers, String topic, double ratePerSecond, long seed) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "1");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        // A burst (~100 records of ~2 KB) fits one batch: one produce request rather than a dozen of 16 KB.
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, BATCH_BYTES);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "bullet-local-sample-feed");
        this.producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        this.topic = topic;
        this.ratePerSecond = ratePerSecond;
        this.burstNanos = burstNanos(ratePerSecond);
        RecordGenerator generator = new RecordGenerator(seed, Clock.SYSTEM);
        this.thread = new Thread(() -> run(generator), "bullet-local-sample-feed");
        this.thread.setDaemon(true);
    }

    /** Starts feeding {@code ratePerSecond} records a second (must be positive) into {@code topic}. */
    static SampleFeed start(String bootstrapServers, String topic, double ratePerSecond, long seed) {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("the sample rate must be positive, got " + ratePerSecond);
        }
        SampleFeed feed = new SampleFeed(bootstrapServers, topic, ratePerSecond, seed);
        feed.thread.start();
        return feed;
    }

    private void run(RecordGenerator generator) {
        Callback onSent = (metadata, e) -> {
            if (e != null && failures.incrementAndGet() % 1000 == 1) {
                LOG.warn("Sample records cannot be sent to {} ({} failures so far): {}", topic, failures.get(), e.toString());
            }
        };
        double nanosPerRecord = 1e9 / ratePerSecond;
        long start = System.nanoTime();
        long index = 0;
        while (!stopped) {
            long due = start + (long) (index * nanosPerRecord);
            long now = System.nanoTime();
            if (due > now) {
                // Wake up every burstNanos and send what is due as one batch, not one request per record.
                LockSupport.parkNanos(Math.max(due - now, burstNanos));
                continue;
            }
            if (now - due > MAX_LAG_NANOS) {
                start = now;
                index = 0;
            }
            try {
                producer.send(new ProducerRecord<>(topic, generator.next()), onSent);
                sent++;
            } catch (RuntimeException e) {
                onSent.onCompletion(null, e);
                LockSupport.parkNanos(MAX_PARK_NANOS);
            }
            index++;
        }
    }

    /** How far apart the bursts of a feed of {@code ratePerSecond} are, ns. */
    static long burstNanos(double ratePerSecond) {
        return Math.min(MAX_BURST_NANOS, (long) (BURST_RECORDS * 1e9 / ratePerSecond));
    }

    double ratePerSecond() {
        return ratePerSecond;
    }

    /** Stops the thread and the producer (waits a few seconds at most). */
    @Override
    public void close() {
        stopped = true;
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(2));
        LOG.info("Sample feed stopped after {} records", sent);
    }
}

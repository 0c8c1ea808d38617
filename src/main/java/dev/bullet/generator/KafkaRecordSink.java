package dev.bullet.generator;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Produces the generator's records into the Kafka firehose topic, the head of the pipeline
 * (generator → Kafka → DataSource spout). Records have no key, so the producer's sticky partitioner fills
 * large batches; on a topic with one partition they keep their order.
 *
 * <p>Fails fast: {@link #connect} checks that a broker answers and the topic exists (or is auto-created)
 * within the connect timeout, every send is bounded by it too, and the first failed delivery reported by
 * a send callback fails the next {@link #send} or {@link #flush}.
 */
final class KafkaRecordSink implements RecordSink {
    /** How long connecting, a blocked send and the metadata of the topic may take. */
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);
    private static final int BATCH_BYTES = 128 * 1024;
    private static final int LINGER_MS = 5;

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final String bootstrap;
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<Exception> firstFailure = new AtomicReference<>();
    private final Callback callback = (metadata, exception) -> {
        if (exception == null) {
            acked.incrementAndGet();
        } else {
            failed.incrementAndGet();
            firstFailure.compareAndSet(null, exception);
        }
    };

    private KafkaRecordSink(KafkaProducer<byte[], byte[]> producer, String topic, String bootstrap) {
        this.producer = producer;
        this.topic = topic;
        this.bootstrap = bootstrap;
    }

    /** Checks the broker and the topic, then returns a sink ready to send. */
    static KafkaRecordSink connect(String bootstrap, String topic, Duration timeout) throws SinkException {
        checkBrokerAnswers(bootstrap, timeout);
        KafkaProducer<byte[], byte[]> producer;
        try {
            producer = new KafkaProducer<>(producerConfig(bootstrap, timeout));
        } catch (KafkaException e) {
            throw new SinkException("cannot create a Kafka producer for " + bootstrap + ": " + rootMessage(e), e);
        }
        try {
            producer.partitionsFor(topic);
        } catch (KafkaException e) {
            producer.close(Duration.ZERO);
            throw new SinkException("topic '" + topic + "' is not available at " + bootstrap
                + " (it does not exist and the broker does not auto-create it?): " + rootMessage(e), e);
        }
        return new KafkaRecordSink(producer, topic, bootstrap);
    }

    @Override
    public void send(byte[] record) throws SinkException {
        throwIfFailed();
        try {
            producer.send(new ProducerRecord<>(topic, record), callback);
        } catch (KafkaException e) {
            throw new SinkException("sending to " + describe() + " failed: " + rootMessage(e), e);
        }
    }

    @Override
    public void flush() throws SinkException {
        try {
            producer.flush();
        } catch (KafkaException e) {
            throw new SinkException("flushing to " + describe() + " failed: " + rootMessage(e), e);
        }
        throwIfFailed();
    }

    @Override
    public long delivered() {
        return acked.get();
    }

    @Override
    public String describe() {
        return "Kafka topic " + topic + " at " + bootstrap;
    }

    @Override
    public void close() {
        producer.close(CLOSE_TIMEOUT);
    }

    private void throwIfFailed() throws SinkException {
        Exception failure = firstFailure.get();
        if (failure != null) {
            throw new SinkException(failed.get() + " record(s) could not be delivered to " + describe()
                + "; first error: " + rootMessage(failure), failure);
        }
    }

    private static void checkBrokerAnswers(String bootstrap, Duration timeout) throws SinkException {
        int timeoutMs = (int) timeout.toMillis();
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        String unreachable = "cannot reach Kafka at " + bootstrap + " within " + timeout.toSeconds()
            + " s (is the broker running? scripts/bullet-local.sh starts one)";
        Admin admin;
        try {
            admin = Admin.create(config);
        } catch (KafkaException e) {
            throw new SinkException(unreachable + ": " + rootMessage(e), e);
        }
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(timeoutMs))
                .nodes().get(timeoutMs + 2_000L, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new SinkException(unreachable + ": " + rootMessage(e), e);
        } catch (TimeoutException e) {
            throw new SinkException(unreachable, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SinkException("interrupted while connecting to Kafka at " + bootstrap, e);
        } finally {
            admin.close(Duration.ZERO);
        }
    }

    private static Properties producerConfig(String bootstrap, Duration timeout) {
        int timeoutMs = (int) timeout.toMillis();
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, LINGER_MS);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, BATCH_BYTES);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeoutMs);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, timeoutMs + timeoutMs / 2 + LINGER_MS);
        return config;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return root.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}

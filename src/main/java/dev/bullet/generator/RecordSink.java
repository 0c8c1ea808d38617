package dev.bullet.generator;

/**
 * Where the generator's records go: the Kafka firehose topic or a JSON-lines file. Not thread-safe; one
 * generator loop drives it.
 */
interface RecordSink extends AutoCloseable {

    /** Sends (or queues) one record. Throws if this or an earlier asynchronous send has failed. */
    void send(byte[] record) throws SinkException;

    /** Blocks until every record sent so far is delivered, or throws if any failed. */
    void flush() throws SinkException;

    /** Records confirmed delivered so far (acknowledged by Kafka, or handed to the file). */
    long delivered();

    /** Where the records go, for messages: e.g. {@code Kafka topic bullet.records at 127.0.0.1:9092}. */
    String describe();

    /** Releases the sink (a bounded wait for records still in flight); safe to call after a failure. */
    @Override
    void close() throws SinkException;
}

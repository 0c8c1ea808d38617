/**
 * Kafka ingestion for the DataSource spout (SPEC §3.1), in plain kafka-clients code: batches read from the firehose,
 * offsets committed only after a batch is acked ({@code OffsetTracker}), re-read on failure. The spout in
 * {@code dev.bullet.storm} is a thin adapter over {@link dev.bullet.ingest.KafkaBatchReader}.
 */
package dev.bullet.ingest;

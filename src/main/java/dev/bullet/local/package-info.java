/**
 * Local mode ({@code scripts/bullet-local.sh}): an embedded Kafka broker on loopback, the topology in Storm's
 * LocalCluster (through {@code dev.bullet.storm}), the REST service and a sample feed, in one process.
 */
package dev.bullet.local;

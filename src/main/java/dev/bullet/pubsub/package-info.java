/**
 * The PubSub between the REST service and the topology (SPEC §7.1): queries and signals on the request topic,
 * results on the response topic, each REST instance reading its own response partitions. Kafka only; no Storm.
 */
package dev.bullet.pubsub;

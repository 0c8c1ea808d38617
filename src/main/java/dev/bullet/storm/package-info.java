/**
 * The Storm adapter, and the only package that imports Storm: the topology wiring ({@link dev.bullet.storm.BulletTopology}),
 * its main for {@code storm jar}, and thin spouts and bolts that classify a tuple, call a plain class of the stages
 * below, and ack.
 */
package dev.bullet.storm;

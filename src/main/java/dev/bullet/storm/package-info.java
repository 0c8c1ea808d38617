/**
 * The Storm adapter, and the only package that imports Storm: the topology wiring
 * ({@link dev.bullet.storm.BulletTopology}), its main for {@code storm jar}, the names of its components, streams and
 * fields ({@link dev.bullet.storm.TopologyNames}), and thin spouts and bolts that classify a tuple, call a plain class
 * of the stages below, and ack. Logic that needs no Storm type lives in those stages, not here.
 */
package dev.bullet.storm;

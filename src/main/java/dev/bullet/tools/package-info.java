/**
 * Command-line tools: the offline runner ({@code scripts/bullet-query.sh}), one query over a file of JSON lines with the
 * same engine as the topology.
 */
package dev.bullet.tools;

/**
 * The data generator ({@code scripts/generate.sh}): seed-shaped records at a fixed rate into Kafka or a file, or
 * given JSON lines.
 */
package dev.bullet.generator;

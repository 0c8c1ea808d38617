/**
 * The lowest layer: small values every stage shares — the {@link dev.bullet.common.Clock} that all time logic reads,
 * {@link dev.bullet.common.BulletError} (an error with its resolutions), {@link dev.bullet.common.Limits} (the bounds
 * on what users send), {@link dev.bullet.common.Cli} (the command line of every main) and
 * {@link dev.bullet.common.JsonDepth}. It uses nothing of the project but the root exception.
 */
package dev.bullet.common;

/**
 * The lowest layer: small values every stage shares (the {@link dev.bullet.common.Clock} that all time logic
 * reads, {@link dev.bullet.common.BulletError}, an error with its resolutions). Depends on nothing of the project.
 */
package dev.bullet.common;

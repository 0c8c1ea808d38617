/**
 * Bullet on Storm: a real-time, multi-tenant query engine over a live event firehose. The packages follow the
 * pipeline; docs/ARCHITECTURE.md has the map. This root package holds only {@link dev.bullet.BulletException}, the
 * root of the project's exception hierarchy.
 */
package dev.bullet;

/**
 * Settings (SPEC §4): the one table of keys with type, default, validator and doc
 * ({@link dev.bullet.config.SettingsTable}), layered loading and validation into immutable
 * {@link dev.bullet.config.BulletSettings}, and one {@link dev.bullet.config.ComponentSpec} per topology component.
 * Below every stage that reads settings.
 */
package dev.bullet.config;

/**
 * Stage 2: what a query is (SPEC §6). The immutable, validated-once model ({@link dev.bullet.query.Query} and its
 * parts) and {@link dev.bullet.query.QueryParser}, which turns JSON into it or lists every problem with a resolution.
 * {@link dev.bullet.query.Values} holds the value semantics (casts and comparisons) that the index and the engine
 * share. Knows nothing of how a query runs.
 */
package dev.bullet.query;

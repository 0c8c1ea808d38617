/**
 * Stage 3: the shared query index (SPEC §10). Given a record, it returns the queries that can match it (hash index for
 * equalities, sorted index for ranges) so that a record meets only those; it may widen, never narrow, the candidate
 * set. Below the engine: it reads the query model, never the engine.
 */
package dev.bullet.index;

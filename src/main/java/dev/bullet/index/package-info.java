/**
 * Stage 3: the shared query index (SPEC §10). Given a batch of records, it returns for each the queries that can match
 * it, so that a record meets only those; it may widen, never narrow, the candidate set. {@link
 * dev.bullet.index.QueryIndex} is its face: a hash index for equalities, a sorted index for ranges, and secondary
 * indexes ({@link dev.bullet.index.ClauseIndex}) for RLIKE (over the {@code regex} package), CONTAINS/SIZEIS and
 * negations. Values are read from the records' bytes a path at a time for a batch ({@code PathSpans}). Below the
 * engine: it reads the query model and the records, never the engine.
 */
package dev.bullet.index;

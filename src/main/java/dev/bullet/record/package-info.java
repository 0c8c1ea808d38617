/**
 * Stage 1 of the pipeline: records (SPEC §5). A raw JSON message becomes a {@link dev.bullet.record.Record}: decoded
 * eagerly by gson (the reference) or lazily by {@link dev.bullet.record.JsonScanner} (only the fields queries touch);
 * fields are addressed by {@link dev.bullet.record.FieldPath}. {@link dev.bullet.record.JsonCodec} is the one JSON
 * codec for results and partials. Depends only on {@code common}.
 */
package dev.bullet.record;

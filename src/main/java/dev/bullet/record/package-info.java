/**
 * Stage 1 of the pipeline: records (SPEC §5). A raw JSON message becomes a {@link dev.bullet.record.Record}: decoded
 * eagerly by gson (the reference) or lazily over its bytes (only the fields queries touch); fields are addressed by
 * {@link dev.bullet.record.FieldPath}. Depends only on {@code common}.
 *
 * <p>Which JSON class does what. {@link dev.bullet.record.RecordDecoder} is the entry point and the reference
 * decoder: it tries the lazy scan and falls back to gson, whose answer is the one every other reader must equal.
 * {@link dev.bullet.record.JsonScanner} is the lazy scanner: one validating pass over a message that notes where each
 * top-level value lies and answers "unsure" (gson decides) for anything it does not fully understand; it is the only
 * class that reads bytes not yet validated. {@code RawJson} reads single values from bytes the scanner has validated
 * (skipping whitespace, finding a value's end, decoding a value as gson would) and holds the one definition of JSON
 * whitespace; {@link dev.bullet.record.LazyRecord}, {@link dev.bullet.record.RawMap} and
 * {@link dev.bullet.record.RawList} are the views built on it, and a value's place in the bytes is a
 * {@link dev.bullet.record.Span}. {@link dev.bullet.record.RawBytes} is the public face of those raw reads for the
 * index and the engine: a value at a span read as its decode would read (a number, a plain integer, plain ASCII
 * text, the members of an object). {@link dev.bullet.record.CanonicalJson} answers one question, whether an object's
 * bytes are exactly what writing its parse gives, so a RAW row can travel as its bytes. {@link dev.bullet.record.JsonCodec}
 * is the one codec for what the engine writes and reads back itself (results and partials): gson configured once,
 * plus byte-level cuts and joins of trusted JSON. Use the decoder for records, the span readers on the hot path,
 * and the codec for anything the engine produces.
 */
package dev.bullet.record;

package dev.bullet.record;

import java.util.Map;

/**
 * One event of the firehose (SPEC §5): a JSON object whose values are {@code String}, {@code Long},
 * {@code Double}, {@code Boolean}, {@code null}, {@code Map<String,Object>} or {@code List<Object>}.
 *
 * <p>Records are produced by the decode stage and read by the Filter stage. Implementations may decode lazily,
 * but {@link #get(FieldPath)} must return exactly what a full gson decode would. Records are not thread-safe.
 */
public interface Record {
    /** The value at the path, or {@code null} when the path does not resolve (a missing field). */
    Object get(FieldPath path);

    /** The whole record as a map (materialises every field of a lazy record). */
    Map<String, Object> asMap();
}

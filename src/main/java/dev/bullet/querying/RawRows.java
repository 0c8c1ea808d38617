package dev.bullet.querying;

import dev.bullet.record.JsonCodec;

import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.List;
import java.util.Map;

/**
 * A RAW result's rows held as the JSON array they are written as ({@link Result#toJson} copies it as it is): every
 * row is in canonical form ({@link dev.bullet.record.CanonicalJson}), so the array is exactly what writing the parsed
 * rows would give. The rows are parsed only if someone reads them as maps, once. Not thread-safe; unmodifiable.
 */
final class RawRows extends AbstractList<Map<String, Object>> {
    private final byte[] json;
    private final int size;
    private List<Map<String, Object>> parsed;

    /** {@code json}: a JSON array of {@code size} objects, each canonical; ASCII only. */
    RawRows(byte[] json, int size) {
        this.json = json;
        this.size = size;
    }

    /** The rows as their JSON array (ASCII). */
    String json() {
        return new String(json, StandardCharsets.ISO_8859_1);
    }

    @Override
    public Map<String, Object> get(int index) {
        if (parsed == null) {
            parsed = JsonCodec.parseRecords(json());
        }
        return parsed.get(index);
    }

    @Override
    public int size() {
        return size;
    }
}

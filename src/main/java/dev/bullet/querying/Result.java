package dev.bullet.querying;

import dev.bullet.record.JsonCodec;
import dev.bullet.common.BulletError;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One emitted result (SPEC §6.8): a window's or the final result's rows and metadata.
 * {@code isFinal} marks the last result of a query.
 */
public record Result(List<Map<String, Object>> records, Map<String, Object> meta, boolean isFinal) {

    /** The result shape used for every error (SPEC §7.2): no records, {@code meta.errors}. */
    public static Result errors(List<BulletError> errors) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("errors", errors);
        return new Result(List.of(), meta, true);
    }

    /**
     * The result as JSON: {@code {"records":[...],"meta":{...}}}. Rows held as their canonical JSON ({@link RawRows})
     * are copied as they are, which is what writing them again would give (they hold no decimal, so no non-finite
     * number). RFC 8259 JSON: a NaN or infinite number is written as its text.
     */
    public String toJson() {
        if (records instanceof RawRows) {
            return "{\"records\":" + ((RawRows) records).json() + ",\"meta\":" + JsonCodec.toResultJson(meta) + "}";
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("records", records);
        out.put("meta", meta);
        return JsonCodec.toResultJson(out);
    }
}

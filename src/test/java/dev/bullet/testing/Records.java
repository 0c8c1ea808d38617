package dev.bullet.testing;

import dev.bullet.record.JsonCodec;
import dev.bullet.record.MapRecord;
import dev.bullet.record.Record;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fluent record fixtures: {@code Records.of("id", "x").put("n", 5L).map("tags", "a", "b").build()}.
 * Values are given as the decoder produces them ({@code Long}, {@code Double}, {@code String}, {@code Boolean},
 * {@code null}, maps and lists), so a fixture equals the decoded form of its {@link #json()}.
 */
public final class Records {
    private final Map<String, Object> fields = new LinkedHashMap<>();

    private Records() {
    }

    /** A record with the given key/value pairs. */
    public static Records of(Object... keysAndValues) {
        Records r = new Records();
        r.fields.putAll(mapOf(keysAndValues));
        return r;
    }

    public Records put(String key, Object value) {
        fields.put(key, value);
        return this;
    }

    /** Adds a map field from key/value pairs. */
    public Records map(String key, Object... keysAndValues) {
        fields.put(key, mapOf(keysAndValues));
        return this;
    }

    /** Adds a list field. */
    public Records list(String key, Object... elements) {
        fields.put(key, new ArrayList<>(Arrays.asList(elements)));
        return this;
    }

    public Record build() {
        return new MapRecord(new LinkedHashMap<>(fields));
    }

    public Map<String, Object> asMap() {
        return new LinkedHashMap<>(fields);
    }

    public String json() {
        return JsonCodec.toJson(fields);
    }

    /** An ordered map from key/value pairs (values may be null). */
    public static Map<String, Object> mapOf(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values must come in pairs");
        }
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /** A mutable list (values may be null). */
    public static List<Object> listOf(Object... elements) {
        return new ArrayList<>(Arrays.asList(elements));
    }
}

package dev.bullet.record;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.stream.JsonReader;
import dev.bullet.record.RecordDecoder;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * The one JSON codec for results and partials: nulls are written, HTML is not escaped, numbers read back as
 * {@code Long} when integral (as records are decoded, SPEC §5). Thread-safe.
 */
public final class JsonCodec {
    private static final Gson GSON = new GsonBuilder().serializeNulls().disableHtmlEscaping()
                                                      .serializeSpecialFloatingPointValues().create();

    private JsonCodec() {
    }

    public static Gson gson() {
        return GSON;
    }

    public static String toJson(Object value) {
        return GSON.toJson(value);
    }

    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> parseRecords(String json) {
        return (List<Map<String, Object>>) (List<?>) parseList(json);
    }

    @SuppressWarnings("unchecked")
    public static List<Object> parseList(String json) {
        return (List<Object>) parse(json);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseMap(String json) {
        return (Map<String, Object>) parse(json);
    }

    /**
     * Parses trusted JSON (our own partials and results); malformed input is a bug here, so it throws. Lenient, so
     * that the non-finite numbers the writer emits (a record's 1e400 reads as Infinity) come back, as strings: JSON
     * has no infinities, so a RAW result shows such a value as "Infinity" (docs/DECISIONS.md).
     */
    public static Object parse(String json) {
        try (JsonReader reader = new JsonReader(new StringReader(json))) {
            reader.setStrictness(com.google.gson.Strictness.LENIENT);
            return RecordDecoder.readAny(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

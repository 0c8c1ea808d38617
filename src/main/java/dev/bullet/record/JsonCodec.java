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

    /**
     * The JSON of each element of a trusted JSON array of objects (our own RAW partials), as bytes cut from it, at
     * most {@code max}: each parses ({@link #parseMap}) to the element {@link #parseRecords} reads there.
     */
    public static List<byte[]> objects(byte[] array, int max) {
        List<byte[]> out = new java.util.ArrayList<>();
        int i = RawJson.skipSpace(array, 0);
        if (array[i] != '[') {
            throw new IllegalArgumentException("not a JSON array of objects");
        }
        i = RawJson.skipSpace(array, i + 1);
        while (array[i] != ']' && out.size() < max) {
            if (array[i] != '{') {
                throw new IllegalArgumentException("not a JSON array of objects");
            }
            int end = RawJson.skipValue(array, i); // brackets counted outside strings: any token inside is skipped
            out.add(java.util.Arrays.copyOfRange(array, i, end));
            i = RawJson.skipSpace(array, end);
            if (array[i] == ',') {
                i = RawJson.skipSpace(array, i + 1);
            }
        }
        return out;
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

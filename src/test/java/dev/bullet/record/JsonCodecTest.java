package dev.bullet.record;

import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the codec writes: results that a strict parser reads whatever the numbers, and inside the engine the numbers
 * themselves, read back as they were.
 */
class JsonCodecTest {
    @Test
    void aResultWritesNonFiniteNumbersAsTheirText() {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("nan", Double.NaN);
        row.put("inf", Double.POSITIVE_INFINITY);
        row.put("ninf", Double.NEGATIVE_INFINITY);
        row.put("fnan", Float.NaN);
        row.put("list", Arrays.asList(Float.POSITIVE_INFINITY, 1.5, null));
        String json = JsonCodec.toResultJson(row);
        assertEquals("{\"nan\":\"NaN\",\"inf\":\"Infinity\",\"ninf\":\"-Infinity\",\"fnan\":\"NaN\","
                     + "\"list\":[\"Infinity\",1.5,null]}", json);
        JsonReader strict = new JsonReader(new StringReader(json));
        strict.setStrictness(Strictness.STRICT);
        JsonParser.parseReader(strict); // throws on a bare NaN or Infinity
    }

    @Test
    void insideTheEngineNonFiniteNumbersComeBackAsNumbers() {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("nan", Double.NaN);
        row.put("inf", Double.POSITIVE_INFINITY);
        row.put("ninf", Double.NEGATIVE_INFINITY);
        row.put("text", "Infinity");
        row.put("list", Arrays.asList(Double.NaN, 1.5, null));
        Map<String, Object> back = JsonCodec.parseMap(JsonCodec.toJson(row));
        assertEquals(Double.NaN, back.get("nan"));
        assertEquals(Double.POSITIVE_INFINITY, back.get("inf"));
        assertEquals(Double.NEGATIVE_INFINITY, back.get("ninf"));
        assertEquals("Infinity", back.get("text"), "a string stays a string");
        assertEquals(Arrays.asList(Double.NaN, 1.5, null), back.get("list"));
    }

    @Test
    void finiteNumbersAreWrittenAsBefore() {
        for (String json : List.of(JsonCodec.toJson(List.of(1.0, 0.1, -2.5e-7, Double.MAX_VALUE, 0.1f, 3L, -0.0)),
                                   JsonCodec.toResultJson(List.of(1.0, 0.1, -2.5e-7, Double.MAX_VALUE, 0.1f, 3L, -0.0)))) {
            assertEquals("[1.0,0.1,-2.5E-7,1.7976931348623157E308,0.1,3,-0.0]", json);
        }
        assertEquals(Double.NaN, JsonCodec.gson().fromJson("NaN", Double.class)); // still read leniently
    }
}

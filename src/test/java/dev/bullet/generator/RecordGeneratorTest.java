package dev.bullet.generator;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecordGeneratorTest {
    private static final long NOW = 1_763_790_000_000L;
    private static final Pattern ID = Pattern.compile("[0-9a-f]{10}");

    @Test
    void sameSeedAndClockGiveIdenticalRecords() {
        RecordGenerator a = new RecordGenerator(7, () -> NOW);
        RecordGenerator b = new RecordGenerator(7, () -> NOW);
        for (int i = 0; i < 1_000; i++) {
            assertArrayEquals(a.next(), b.next(), "record " + i);
        }
    }

    @Test
    void differentSeedsGiveDifferentRecords() {
        byte[] a = new RecordGenerator(1, () -> NOW).next();
        byte[] b = new RecordGenerator(2, () -> NOW).next();
        assertFalse(Arrays.equals(a, b));
    }

    @Test
    void timestampComesFromTheInjectedClock() {
        long[] now = {NOW};
        RecordGenerator generator = new RecordGenerator(3, () -> now[0]++);
        assertEquals(NOW, parse(generator.next()).get("timestamp").getAsLong());
        assertEquals(NOW + 1, parse(generator.next()).get("timestamp").getAsLong());
    }

    @Test
    void everyRecordIsStrictJsonWithTheDocumentedShape() {
        RecordGenerator generator = new RecordGenerator(11, () -> NOW);
        for (int r = 0; r < 500; r++) {
            JsonObject record = parse(generator.next());
            assertEquals(RecordGenerator.TOTAL_FIELDS, record.size());
            assertEquals(94, record.size());
            assertTrue(ID.matcher(record.get("id").getAsString()).matches(), record.get("id").toString());
            assertEquals(NOW, record.get("timestamp").getAsLong());
            int strings = 0;
            int longs = 0;
            int maps = 0;
            int lists = 0;
            for (Map.Entry<String, JsonElement> field : record.entrySet()) {
                String name = field.getKey();
                JsonElement value = field.getValue();
                if (name.startsWith("s_")) {
                    assertTrue(value.isJsonPrimitive() && value.getAsJsonPrimitive().isString(), name);
                    assertFalse(value.getAsString().isEmpty(), name);
                    strings++;
                } else if (name.startsWith("l_")) {
                    assertTrue(value.isJsonPrimitive() && value.getAsJsonPrimitive().isNumber(), name);
                    assertEquals(value.getAsDouble(), (double) value.getAsLong(), name + " is integral");
                    longs++;
                } else if (name.startsWith("m_")) {
                    int index = Integer.parseInt(name.substring(2));
                    assertStringMap(value, RecordGenerator.mapKeyCount(index), name);
                    maps++;
                } else if (name.startsWith("lm_")) {
                    JsonArray list = value.getAsJsonArray();
                    assertTrue(list.size() >= 1 && list.size() <= 3, name + " has " + list.size() + " maps");
                    for (JsonElement element : list) {
                        assertStringMap(element, 2, name);
                    }
                    lists++;
                }
            }
            assertEquals(RecordGenerator.STRING_FIELDS, strings);
            assertEquals(RecordGenerator.LONG_FIELDS, longs);
            assertEquals(RecordGenerator.MAP_FIELDS, maps);
            assertEquals(RecordGenerator.LIST_FIELDS, lists);
            assertEquals(92, strings + longs + maps + lists);
        }
    }

    @Test
    void fieldNamesAreStableAndReadable() {
        JsonObject record = parse(new RecordGenerator(5, () -> NOW).next());
        for (String name : new String[] {"s_00", "s_61", "l_0", "l_3", "m_00", "m_22", "lm_0", "lm_2"}) {
            assertTrue(record.has(name), name);
        }
        assertTrue(record.getAsJsonObject("m_03").has("k3"));
    }

    @Test
    void averageRecordIsAbout1_8KiB() {
        RecordGenerator generator = new RecordGenerator(13, () -> NOW);
        long total = 0;
        int n = 2_000;
        for (int i = 0; i < n; i++) {
            total += generator.next().length;
        }
        double average = total / (double) n;
        double target = 1.8 * 1024;
        assertTrue(Math.abs(average - target) <= 0.25 * target, "average record size " + average + " bytes");
    }

    @Test
    void lowCardinalityFieldsGroupAndIdsAreDistinct() {
        RecordGenerator generator = new RecordGenerator(17, () -> NOW);
        Set<String> s00 = new HashSet<>();
        Set<String> s01 = new HashSet<>();
        Set<Long> l2 = new HashSet<>();
        Set<String> ids = new HashSet<>();
        int n = 5_000;
        for (int i = 0; i < n; i++) {
            JsonObject record = parse(generator.next());
            s00.add(record.get("s_00").getAsString());
            s01.add(record.get("s_01").getAsString());
            l2.add(record.get("l_2").getAsLong());
            ids.add(record.get("id").getAsString());
        }
        assertEquals(10, s00.size(), s00.toString());
        assertTrue(s00.contains("alpha"));
        assertTrue(s01.size() > 50 && s01.size() <= 100, "s_01 has " + s01.size() + " values");
        assertEquals(10, l2.size());
        assertEquals(n, ids.size());
    }

    private static void assertStringMap(JsonElement value, int keys, String name) {
        JsonObject map = value.getAsJsonObject();
        assertEquals(keys, map.size(), name);
        for (int k = 0; k < keys; k++) {
            JsonElement entry = map.get("k" + k);
            assertTrue(entry != null && entry.isJsonPrimitive() && entry.getAsJsonPrimitive().isString(),
                name + ".k" + k);
        }
    }

    /** Parses strictly (no lenient JSON) and checks that nothing follows the object. */
    static JsonObject parse(byte[] json) {
        try (JsonReader reader = new JsonReader(new StringReader(new String(json, StandardCharsets.UTF_8)))) {
            reader.setStrictness(Strictness.STRICT);
            JsonElement element = JsonParser.parseReader(reader);
            assertEquals(JsonToken.END_DOCUMENT, reader.peek());
            return element.getAsJsonObject();
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + new String(json, StandardCharsets.UTF_8), e);
        }
    }
}

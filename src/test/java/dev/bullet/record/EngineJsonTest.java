package dev.bullet.record;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The engine's own JSON reader: what gson reads from RFC 8259 JSON, value for value, and the bare non-finite numbers
 * the engine's writer emits as numbers while strings of the same text stay strings.
 */
class EngineJsonTest {
    private static final String[] NUMBERS = {"0", "-0", "7", "-12", "9007199254740993", "9223372036854775807",
        "-9223372036854775808", "9223372036854775808", "123456789012345678901234", "0.1", "-2.5e-7", "1E3", "1e+2",
        "-0.0", "1e400", "-1e400", "4.9e-324", "1.7976931348623157E308"};
    private static final String[] STRINGS = {"", "a", "NaN", "Infinity", "-Infinity", "tab\\there", "q\\\"uote",
        "back\\\\slash", "\\u00e9t\\u00E9", "\\ud83d\\ude00", "slash\\/", "nl\\n\\r\\b\\f", "日本", "{[,:]}"};

    @Test
    void readsWhatGsonReads() throws IOException {
        Random r = new Random(7);
        for (int i = 0; i < 5_000; i++) {
            String json = value(r, 0);
            assertEquals(gson(json), EngineJson.parse(json), json);
        }
    }

    @Test
    void bareNonFiniteNumbersAreNumbersAndQuotedOnesStrings() {
        assertEquals(Arrays.asList(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, "NaN", "Infinity",
                                   "-Infinity", null),
                     EngineJson.parse("[NaN, Infinity,-Infinity,\"NaN\",\"Infinity\",\"-Infinity\",null]"));
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("nan", Double.NaN);
        row.put("text", "NaN");
        row.put("deep", List.of(Map.of("inf", Double.NEGATIVE_INFINITY)));
        assertEquals(row, EngineJson.parse(JsonCodec.toJson(row)));
    }

    @Test
    void aKeyGivenTwiceKeepsItsFirstPlaceAndLastValue() {
        assertEquals("{a=3, b=2}", EngineJson.parse("{\"a\":1,\"b\":2,\"a\":3}").toString());
    }

    @Test
    void anythingElseIsRefused() {
        for (String bad : new String[] {"", "[1,", "{\"a\" 1}", "[1] 2", "nul", "Inf", "\"open", "[\"\\x\"]",
                                        "{1:2}", "[-]", "[\"\\u12\"]"}) {
            assertThrows(IllegalArgumentException.class, () -> EngineJson.parse(bad), bad);
        }
    }

    private static Object gson(String json) throws IOException {
        try (JsonReader reader = new JsonReader(new StringReader(json))) {
            reader.setStrictness(Strictness.LENIENT);
            return RecordDecoder.readValue(reader);
        }
    }

    private static String value(Random r, int depth) {
        int kind = depth > 4 ? r.nextInt(4) : r.nextInt(6);
        String space = r.nextInt(5) == 0 ? " \n\t\r".substring(r.nextInt(4)) : "";
        switch (kind) {
            case 0:
                return space + NUMBERS[r.nextInt(NUMBERS.length)] + space;
            case 1:
                return space + '"' + STRINGS[r.nextInt(STRINGS.length)] + '"';
            case 2:
                return new String[] {"true", "false", "null"}[r.nextInt(3)];
            case 3:
                return '"' + STRINGS[r.nextInt(STRINGS.length)] + STRINGS[r.nextInt(STRINGS.length)] + '"';
            case 4: {
                List<String> items = new ArrayList<>();
                for (int i = r.nextInt(4); i > 0; i--) {
                    items.add(value(r, depth + 1));
                }
                return "[" + space + String.join("," + space, items) + "]";
            }
            default: {
                List<String> members = new ArrayList<>();
                for (int i = r.nextInt(4); i > 0; i--) {
                    members.add('"' + STRINGS[r.nextInt(4)] + '"' + space + ":" + value(r, depth + 1));
                }
                return space + "{" + String.join(",", members) + "}";
            }
        }
    }
}

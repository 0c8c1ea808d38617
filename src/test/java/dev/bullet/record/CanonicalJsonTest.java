package dev.bullet.record;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A row's bytes are called canonical only when they are what parsing and writing them again gives, over random
 * objects written every way JSON allows (whitespace, escapes, decimals, duplicate keys...), and the compact writing of
 * plain values is recognised as canonical.
 */
class CanonicalJsonTest {
    private static final String[] TEXTS = {"plain", "", "with space", "<b>&'=", "q\"uote", "back\\slash", "tab\t",
                                           "\u00e9t\u00e9", "\u2028", "ctl\u0001", "/slash", "{[,:]}"};
    private static final String[] KEYS = {"a", "b", "id", "", "x.y", "k\"q", "\u00e9"};

    private static String randomValue(Random r, int depth) {
        switch (r.nextInt(depth > 3 ? 4 : 6)) {
            case 0: {
                String text = TEXTS[r.nextInt(TEXTS.length)];
                return r.nextInt(4) == 0 ? JsonCodec.toJson(text).replace("a", "\\u0061") : JsonCodec.toJson(text);
            }
            case 1: {
                String[] numbers = {"0", "-0", "7", "-12", "123456789012345678", "-123456789012345678",
                                    "1234567890123456789", "9223372036854775807", "1.5", "1.0", "-0.0", "1e3", "1E-2",
                                    "2.5e10", "1e400", "100"};
                return numbers[r.nextInt(numbers.length)];
            }
            case 2:
                return r.nextBoolean() ? "true" : "false";
            case 3:
                return "null";
            case 4:
                return randomObject(r, depth + 1);
            default: {
                StringBuilder sb = new StringBuilder("[");
                for (int i = r.nextInt(4); i > 0; i--) {
                    sb.append(sb.length() > 1 ? sep(r, ",") : "").append(randomValue(r, depth + 1));
                }
                return sb.append(']').toString();
            }
        }
    }

    private static String sep(Random r, String s) {
        return r.nextInt(10) == 0 ? " " + s + "\n" : s;
    }

    private static String randomObject(Random r, int depth) {
        StringBuilder sb = new StringBuilder(r.nextInt(10) == 0 ? "{ " : "{");
        int n = r.nextInt(r.nextInt(8) == 0 ? 40 : 5);
        for (int i = 0; i < n; i++) {
            String key = r.nextInt(3) == 0 ? KEYS[r.nextInt(KEYS.length)] : "k" + r.nextInt(60);
            sb.append(i > 0 ? sep(r, ",") : "").append(JsonCodec.toJson(key)).append(sep(r, ":"))
              .append(randomValue(r, depth));
        }
        return sb.append('}').toString();
    }

    @Test
    void whatItCallsCanonicalIsWhatWritingItsParseGives() {
        Random r = new Random(20261125);
        CanonicalJson check = new CanonicalJson();
        int canonical = 0;
        for (int i = 0; i < 30_000; i++) {
            String json = randomObject(r, 0);
            String rewritten = JsonCodec.toJson(JsonCodec.parseMap(json));
            boolean verdict = check.isCanonicalObject(json.getBytes(StandardCharsets.UTF_8));
            if (verdict) {
                canonical++;
                assertEquals(rewritten, json, "called canonical");
            }
            // the writing of a parse that holds only plain values is canonical itself
            if (rewritten.chars().allMatch(c -> c >= 0x20 && c < 0x7f && c != '\\') && !rewritten.matches(".*[.eE]\\d.*")
                && !rewritten.contains("Infinity") && !rewritten.matches(".*\\d{19}.*")
                && !rewritten.contains("-0,") && !rewritten.contains("-0]") && !rewritten.contains("-0}")) {
                assertTrue(check.isCanonicalObject(rewritten.getBytes(StandardCharsets.UTF_8)), rewritten);
            }
        }
        assertTrue(canonical > 3_000, "the random objects hold canonical ones too: " + canonical);
    }

    @Test
    void aRememberedVerdictIsTheVerdictOnThatVeryRow() {
        Random r = new Random(20261128);
        CanonicalJson check = new CanonicalJson();
        // more rows than are remembered, so slots are shared, half of them of one length and of either verdict
        List<byte[]> rows = new ArrayList<>();
        for (int i = 0; i < CanonicalJson.REMEMBERED_ROWS; i++) {
            rows.add(randomObject(r, 0).getBytes(StandardCharsets.UTF_8));
            String key = "k" + (100 + r.nextInt(900));
            rows.add(("{" + JsonCodec.toJson(key) + ":1," + JsonCodec.toJson(r.nextBoolean() ? key : "k000") + ":2}")
                         .getBytes(StandardCharsets.UTF_8));
        }
        StringBuilder large = new StringBuilder("{\"a\":\"");
        large.append("x".repeat(CanonicalJson.REMEMBERED_ROW_BYTES)).append("\"}");
        rows.add(large.toString().getBytes(StandardCharsets.UTF_8));
        rows.add(large.toString().replace("{", "{ ").getBytes(StandardCharsets.UTF_8));
        int canonical = 0;
        for (int i = 0; i < 20 * rows.size(); i++) {
            if (r.nextInt(500) == 0) {
                CanonicalJson.forgetRows();
            }
            byte[] row = rows.get(r.nextInt(rows.size()));
            boolean verdict = check.isCanonicalObject(row);
            canonical += verdict ? 1 : 0;
            assertEquals(verdict, CanonicalJson.isCanonicalRow(row), new String(row, StandardCharsets.UTF_8));
        }
        assertTrue(canonical > rows.size() && canonical < 19 * rows.size(), "rows of both verdicts: " + canonical);
    }

    @Test
    void edgeCases() {
        CanonicalJson check = new CanonicalJson();
        for (String yes : List.of("{}", "{\"a\":1}", "{\"a\":[]}", "{\"a\":{}}", "{\"a\":[1,\"x\",true,false,null,{\"b\":[]}]}",
                                  "{\"a\":-123456789012345678}", "{\"a\":0,\"b\":\"<&>'=\"}", "{\"\":\"\"}")) {
            assertTrue(check.isCanonicalObject(yes.getBytes(StandardCharsets.UTF_8)), yes);
            assertEquals(yes, JsonCodec.toJson(JsonCodec.parseMap(yes)));
        }
        for (String no : List.of("", "[]", "{", "{\"a\":1}x", "{\"a\":1} ", " {\"a\":1}", "{\"a\": 1}", "{\"a\":1,\"a\":2}",
                                 "{\"a\":-0}", "{\"a\":1.0}", "{\"a\":1e2}", "{\"a\":\"\\n\"}", "{\"a\":\"\u00e9\"}",
                                 "{\"a\":1234567890123456789}", "{\"a\":{\"b\":1,\"b\":1}}", "{\"a\":tru}", "{\"a\":01}",
                                 "{\"a\":\"x}", "{\"a\":[1,]}", "{\"a\":1,}", "{\"a\":NaN}", "{\"a\":Infinity}")) {
            assertFalse(check.isCanonicalObject(no.getBytes(StandardCharsets.UTF_8)), no);
        }
    }

    @Test
    void duplicateKeysAreFoundInLargeObjectsAndDistinctOnesPass() {
        CanonicalJson check = new CanonicalJson();
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < 200; i++) {
            m.put("key" + i, i);
        }
        String json = JsonCodec.toJson(m);
        assertTrue(check.isCanonicalObject(json.getBytes(StandardCharsets.UTF_8)));
        for (int i : new int[] {0, 57, 199}) {
            String twice = json.substring(0, json.length() - 1) + ",\"key" + i + "\":1}";
            assertFalse(check.isCanonicalObject(twice.getBytes(StandardCharsets.UTF_8)), "key" + i + " twice");
        }
        List<Object> nested = new ArrayList<>(List.of(m, Map.of("x", m)));
        String inList = "{\"l\":" + JsonCodec.toJson(nested) + "}";
        assertTrue(check.isCanonicalObject(inList.getBytes(StandardCharsets.UTF_8)));
        StringBuilder deep = new StringBuilder();
        for (int i = 0; i < 600; i++) {
            deep.append("{\"a\":");
        }
        deep.append("1").append("}".repeat(600));
        assertFalse(check.isCanonicalObject(deep.toString().getBytes(StandardCharsets.UTF_8)), "beyond the depth limit");
    }
}

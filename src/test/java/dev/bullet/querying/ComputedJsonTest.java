package dev.bullet.querying;

import dev.bullet.query.NamedField;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.JsonCodec;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A projected RAW row's computed columns written after the projection's JSON are the row's map as JSON, byte for
 * byte: values of every kind (longs, doubles with NaN and infinities, text gson escapes, booleans, lists with nulls,
 * maps), null columns left out, an empty projection; and through the engine, records read from their bytes give the
 * rows that records decoded into maps give.
 */
class ComputedJsonTest {
    private static final Object[] VALUES = {
        null, 0L, -7L, Long.MAX_VALUE, 5, 2.5, -0.0, 1e300, 1.0, Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, 0.1f, "", "plain", "quote \" and \\ backslash", "<html> & = '", "tab\tnew\nline",
        "caf\u00e9 \u2603 \ud83d\ude00", "\u0001", true, false, Arrays.asList(1L, null, "x"), List.of(),
        Map.of("k", 1L), new LinkedHashMap<>(Map.of("a", List.of(2.5)))};

    @Test
    void columnsAfterTheProjectionAreTheRowsMapAsJson() {
        Random random = new Random(20261128);
        for (int round = 0; round < 5_000; round++) {
            Map<String, Object> projected = new LinkedHashMap<>();
            List<NamedField> projection = new ArrayList<>();
            for (int i = 0, n = random.nextInt(4); i < n; i++) {
                String name = "p" + i + (random.nextBoolean() ? "\"q" : "");
                projection.add(NamedField.of("f" + i, name));
                Object value = VALUES[1 + random.nextInt(VALUES.length - 1)];
                if (random.nextInt(4) > 0) { // else the field is missing: the projection leaves it out
                    projected.put(name, value);
                }
            }
            List<String> names = new ArrayList<>();
            Object[] values = new Object[1 + random.nextInt(4)];
            Map<String, Object> row = new LinkedHashMap<>(projected);
            for (int i = 0; i < values.length; i++) {
                String name = random.nextBoolean() ? "c" + i : "c\u00e9 <" + i + ">";
                names.add(name);
                values[i] = VALUES[random.nextInt(VALUES.length)];
                if (values[i] != null) {
                    row.put(name, values[i]);
                }
            }
            ComputedJson writer = ComputedJson.of(projection, names);
            assertNotNull(writer, names.toString());
            byte[] before = JsonCodec.toJson(projected).getBytes(StandardCharsets.UTF_8);
            byte[] written = writer.append(before, values);
            assertEquals(JsonCodec.toJson(row), new String(written, StandardCharsets.UTF_8), row.toString());
            if (row.size() == projected.size()) {
                assertSame(before, written, "no column has a value: the projection's own array");
            }
        }
    }

    /** Each value's text is gson's: every kind above, and strings of random characters from every range. */
    @Test
    void aValueIsWrittenAsGsonWritesIt() {
        for (Object value : VALUES) {
            if (value != null) {
                assertEquals(JsonCodec.toJson(value), new String(ComputedJson.json(value), StandardCharsets.UTF_8));
            }
        }
        Random random = new Random(11);
        char[] edges = {' ', '~', '"', '\\', '/', '<', '>', '&', '=', '\'', 0x7F, 0x1F, 0x2028, 0x2029, 0xE9};
        for (int round = 0; round < 5_000; round++) {
            StringBuilder text = new StringBuilder();
            for (int i = 0, n = random.nextInt(12); i < n; i++) {
                text.append(random.nextInt(3) == 0 ? edges[random.nextInt(edges.length)] : (char) (0x20 + random.nextInt(0x5F)));
            }
            String value = text.toString();
            assertEquals(JsonCodec.toJson(value), new String(ComputedJson.json(value), StandardCharsets.UTF_8), value);
        }
        for (long n : new long[] {Long.MIN_VALUE, -1, 0, 42, Long.MAX_VALUE}) {
            assertEquals(JsonCodec.toJson(n), new String(ComputedJson.json(n), StandardCharsets.UTF_8));
            assertEquals(JsonCodec.toJson((int) n), new String(ComputedJson.json((int) n), StandardCharsets.UTF_8));
        }
    }

    @Test
    void aNameTakenTwiceLeavesTheRowToTheMap() {
        List<NamedField> projection = List.of(NamedField.of("a", "x"), NamedField.of("b", "y"));
        assertNull(ComputedJson.of(projection, List.of("x")));
        assertNull(ComputedJson.of(projection, List.of("z", "z")));
        assertNull(ComputedJson.of(List.of(NamedField.of("a", "x"), NamedField.of("b", "x")), List.of("z")));
        assertNotNull(ComputedJson.of(projection, List.of("z", "w")));
    }

    /** The engine's rows from lazily read records equal its rows from the same records decoded into maps. */
    @Test
    void rowsFromBytesAreRowsFromMaps() {
        QuerySettings settings = QuerySettings.defaults();
        RecordDecoder decoder = new RecordDecoder(settings.limits());
        Random random = new Random(7);
        String[] texts = {"alpha", "Be\\\"ta", "caf\u00e9", "<b>&", "", "12"};
        List<Record> lazy = new ArrayList<>();
        List<Record> maps = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String json = "{\"id\":" + i + ",\"n\":" + (random.nextInt(9) - 2) + ",\"m\":"
                          + (random.nextInt(4) == 0 ? "null" : String.valueOf(random.nextInt(4))) + ",\"d\":"
                          + (random.nextInt(3) == 0 ? "0.0" : random.nextInt(50) / 4.0) + ",\"s\":\""
                          + texts[random.nextInt(texts.length)] + "\",\"l\":[" + random.nextInt(3) + ",null]}";
            Record record = decoder.decode(json.getBytes(StandardCharsets.UTF_8));
            assertInstanceOf(LazyRecord.class, record, json);
            lazy.add(record);
            maps.add(RecordDecoder.decodeEagerly(json));
        }
        String computed = "{\"twice\":{\"op\":\"*\",\"left\":{\"field\":\"n\"},\"right\":{\"value\":2,\"type\":\"LONG\"}},"
                          + "\"ratio\":{\"op\":\"/\",\"left\":{\"field\":\"d\"},\"right\":{\"field\":\"m\"}},"
                          + "\"up\":{\"op\":\"UPPER\",\"operand\":{\"field\":\"s\"}},"
                          + "\"big\":{\"op\":\">\",\"left\":{\"field\":\"n\"},\"right\":{\"value\":3,\"type\":\"LONG\"}},"
                          + "\"text\":{\"cast\":{\"field\":\"d\"},\"type\":\"STRING\"},"
                          + "\"both\":{\"op\":\"/\",\"left\":{\"field\":\"d\"},\"right\":{\"field\":\"d\"}}}";
        for (String projection : new String[] {"{\"id\":\"id\",\"s\":\"s\"}", "{\"absent\":\"a\"}", "{\"l\":\"list\",\"d\":\"d\"}"}) {
            String query = "{\"projection\":{\"fields\":" + projection + ",\"computed\":" + computed + "},"
                           + "\"aggregation\":{\"type\":\"RAW\",\"size\":500},\"duration\":60000}";
            assertEquals(rows(settings, query, maps), rows(settings, query, lazy), query);
        }
    }

    private static List<String> rows(QuerySettings settings, String query, List<Record> records) {
        FilterEngine engine = new FilterEngine(settings);
        assertEquals(true, engine.add("q", query, 1L), query);
        List<FilterEngine.Partial> out = new ArrayList<>();
        engine.consume(records, 2L, out);
        List<String> rows = new ArrayList<>();
        for (FilterEngine.Partial p : out) {
            rows.add(new String(p.data(), StandardCharsets.UTF_8));
        }
        return rows;
    }
}

package dev.bullet.querying.aggregations;

import dev.bullet.query.NamedField;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Keys remembered per record and fields are the keys made afresh: per record, per paths, whatever the aliases. */
class SketchKeysTest {
    private final RecordDecoder decoder = new RecordDecoder();

    private Record record(String json) {
        return decoder.decode(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aKeyIsRememberedForItsRecordAndPathsOnly() {
        List<NamedField> byA = List.of(NamedField.of("a", "x"));
        List<NamedField> byAOtherAlias = List.of(NamedField.of("a", "y"));
        List<NamedField> byB = List.of(NamedField.of("b", "x"));
        List<NamedField> byAB = List.of(NamedField.of("a", "x"), NamedField.of("b", "y"));
        Record one = record("{\"a\":\"1\",\"b\":2}");
        Record two = record("{\"a\":\"1\",\"b\":3}");
        String key = SketchKeys.keyOf(SketchKeys.fields(byA), one);
        assertEquals("[\"1\"]", key);
        assertSame(key, SketchKeys.keyOf(SketchKeys.fields(byAOtherAlias), one), "same paths, same record: one key");
        assertEquals("[2]", SketchKeys.keyOf(SketchKeys.fields(byB), one));
        assertEquals("[\"1\",2]", SketchKeys.keyOf(SketchKeys.fields(byAB), one));
        assertEquals("[\"1\",3]", SketchKeys.keyOf(SketchKeys.fields(byAB), two));
        for (int i = 0; i < 20; i++) { // more records than the memory holds: every key still right
            Record r = record("{\"a\":" + i + ",\"b\":[" + i + "]}");
            assertEquals("[" + i + "]", SketchKeys.keyOf(SketchKeys.fields(byA), r));
            assertEquals("[\"[" + i + "]\"]", SketchKeys.keyOf(SketchKeys.fields(byB), r));
        }
        assertEquals("[\"1\",2]", SketchKeys.keyOf(SketchKeys.fields(byAB), one));
    }

    @Test
    void manyFieldListsOverOneRecordEachGetTheirOwnKey() {
        // more field lists than the thread's table of recent keys has slots: some share a slot, none another's key
        // (ids a slot apart are a multiple of its size apart: fields by i % 3 give them different keys)
        Record one = record("{\"a\":\"1\",\"b\":2,\"c\":true}");
        String[] heads = {"a", "b", "c"};
        String[] keys = {"[\"1\",null]", "[2,null]", "[true,null]"};
        List<SketchKeys.Fields> lists = new ArrayList<>();
        for (int i = 0; i < 3 * SketchKeys.RECENT_SLOTS; i++) {
            lists.add(SketchKeys.fields(List.of(NamedField.of(heads[i % 3], "x"), NamedField.of("d" + i, "y"))));
        }
        for (int round = 0; round < 2; round++) {
            for (int i = lists.size() - 1; i >= 0; i -= 1 + round) {
                assertEquals(keys[i % 3], SketchKeys.keyOf(lists.get(i), one));
            }
        }
    }

    @Test
    void fieldsOverTheSamePathsShareAnIdAndAKeyPerRecord() {
        SketchKeys.Fields a = SketchKeys.fields(List.of(NamedField.of("a", "x")));
        SketchKeys.Fields aAgain = SketchKeys.fields(List.of(NamedField.of("a", "other")));
        SketchKeys.Fields ab = SketchKeys.fields(List.of(NamedField.of("a", "x"), NamedField.of("b", "y")));
        SketchKeys.Fields ba = SketchKeys.fields(List.of(NamedField.of("b", "y"), NamedField.of("a", "x")));
        assertEquals(a.id, aAgain.id);
        assertNotEquals(a.id, ab.id);
        assertNotEquals(ab.id, ba.id, "the order of the fields is part of the key");
        Record one = record("{\"a\":\"1\",\"b\":2}");
        Record two = record("{\"a\":\"1\",\"b\":2}");
        String key = SketchKeys.keyOf(a, one);
        assertSame(key, SketchKeys.keyOf(aAgain, one));
        assertEquals(key, SketchKeys.keyOf(a, two));
        assertEquals("[2,\"1\"]", SketchKeys.keyOf(ba, one));
        assertEquals("[\"1\",2]", SketchKeys.keyOf(ab, one));
        for (int i = 0; i < 100; i++) { // records one after another: never a key of another record
            Record r = record("{\"a\":" + i + ",\"b\":" + (i * 2) + "}");
            assertEquals("[" + i + "]", SketchKeys.keyOf(a, r));
            assertEquals("[" + i + "," + (i * 2) + "]", SketchKeys.keyOf(ab, r));
        }
    }

    @Test
    void aKeyCutFromTheRecordsBytesIsTheKeyOfItsDecodedValues() {
        String[] values = {"\"plain\"", "\"\"", "\"q\\\"uote\"", "\"back\\\\slash\"", "\"tab\\t\"", "\"\\u0041\"",
                           "\"\u00e9t\u00e9\"", "\"\u20ac\"", "0", "-0", "7", "-12", "123456789012345678", "1234567890123456789",
                           "-9223372036854775808", "1.5", "-0.0", "1e3", "1E-2", "true", "false", "null", "{\"k\":1}", "[1,\"a\"]",
                           "[]", "{}"};
        String[] keys = {"a", "b", "c.d", "m"};
        List<List<NamedField>> fieldLists = List.of(
            List.of(NamedField.of("a", "x")), List.of(NamedField.of("b", "x")), List.of(NamedField.of("m.k", "x")),
            List.of(NamedField.of("c.d", "x")), List.of(NamedField.of("absent", "x")),
            List.of(NamedField.of("a", "x"), NamedField.of("b", "y")),
            List.of(NamedField.of("b", "y"), NamedField.of("absent", "z"), NamedField.of("a", "x")),
            List.of(NamedField.of("m.k", "x"), NamedField.of("m.0", "y"), NamedField.of("a", "z")));
        Random random = new Random(20261125);
        for (int i = 0; i < 5_000; i++) {
            StringBuilder json = new StringBuilder("{");
            for (int k = 0; k < keys.length; k++) {
                if (random.nextInt(5) == 0) {
                    continue;
                }
                if (json.length() > 1) {
                    json.append(random.nextBoolean() ? "," : " , ");
                }
                String value = keys[k].equals("m") && random.nextBoolean()
                    ? "{\"k\":" + values[random.nextInt(values.length)] + "}" : values[random.nextInt(values.length)];
                json.append('"').append(keys[k]).append("\":").append(value);
            }
            String text = json.append('}').toString();
            Record eager = RecordDecoder.decodeEagerly(text);
            for (List<NamedField> fields : fieldLists) {
                List<Object> decoded = new ArrayList<>();
                for (NamedField f : fields) {
                    decoded.add(SketchKeys.normalize(eager.get(f.path())));
                }
                assertEquals(SketchKeys.key(decoded), SketchKeys.keyOf(SketchKeys.fields(fields), record(text)),
                             fields + " of " + text);
            }
        }
    }
}

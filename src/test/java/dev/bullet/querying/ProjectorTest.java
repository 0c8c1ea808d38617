package dev.bullet.querying;

import dev.bullet.query.NamedField;
import dev.bullet.querying.aggregations.RawAggregator;
import dev.bullet.record.JsonCodec;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProjectorTest {
    private static final Record RECORD = Records.of("id", "x", "n", 3L, "nil", null)
            .map("m", "a", 1L, "b", mapOf("c", "deep"))
            .list("l", mapOf("k", "v"))
            .build();

    @Test
    void withoutAProjectionTheRecordPassesThrough() {
        assertSame(RECORD, new Projector(null).project(RECORD));
    }

    @Test
    void keepsOnlyTheListedPathsUnderTheirNewNamesInOrder() {
        Record out = new Projector(List.of(NamedField.of("m.b.c", "c"), NamedField.of("id", "identifier"),
                                           NamedField.of("l.0.k", "first"), NamedField.of("m", "m"))).project(RECORD);
        assertEquals(mapOf("c", "deep", "identifier", "x", "first", "v", "m", mapOf("a", 1L, "b", mapOf("c", "deep"))), out.asMap());
        assertEquals(List.of("c", "identifier", "first", "m"), List.copyOf(out.asMap().keySet()));
    }

    @Test
    void missingAndNullFieldsAreLeftOut() {
        Record out = new Projector(List.of(NamedField.of("nope", "a"), NamedField.of("nil", "b"), NamedField.of("n", "n"))).project(RECORD);
        assertEquals(mapOf("n", 3L), out.asMap());
    }

    /** Values as they may stand in a record's bytes, hostile ones included. */
    private static final String[] VALUES = {"\"plain\"", "\"q\\\"uote\"", "\"\\u00e9t\\u00e9\"", "\"\u00e9\u20ac\uD83D\uDE00\"",
        "\"\"", "\"tab\\there\"", "0", "-0", "42", "-17", "123456789012345678", "1234567890123456789",
        "99999999999999999999", "1.50", "-0.0", "1e2", "1E-400", "1e400", "-1e400", "true", "false", "null",
        "{}", "[]", "{\"k\":1,\"k\":\"last\"}", "[1,\"a\",{\"b\":null}]", "{\"x\":{\"y\":1e400}}", "\"\u0001ctl\""};
    private static final String[] KEYS = {"a", "b", "m", "l", "x.y", "\u00e9", "a"};
    private static final String[] PATHS = {"a", "b", "m", "m.k", "m.x.y", "l", "l.0", "l.2.b", "x.y", "x", "\u00e9", "nope", "m.nope"};
    private static final String[] NAMES = {"a", "n\"q", "\u00e9", "tab\t", "ts", "", "k"};

    private static String randomRecord(Random r) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = r.nextInt(7); i >= 0; i--) {
            if (sb.length() > 1) {
                sb.append(r.nextBoolean() ? "," : " ,\n ");
            }
            String value = VALUES[r.nextInt(VALUES.length)];
            if (r.nextInt(5) == 0) {
                value = "{\"k\":" + value + ",\"x\":{\"y\":" + VALUES[r.nextInt(VALUES.length)] + "}}";
            } else if (r.nextInt(6) == 0) {
                value = "[" + value + ",2,{\"b\":" + VALUES[r.nextInt(VALUES.length)] + "}]";
            }
            sb.append('"').append(KEYS[r.nextInt(KEYS.length)]).append("\":").append(value);
        }
        return sb.append('}').toString();
    }

    /**
     * A projection written from a record's bytes reads back as the projected map written by gson does, for records
     * with escapes, non-ASCII and ill-formed UTF-8, big and non-finite numbers, duplicate and dotted keys, nulls and
     * missing paths; and through a RAW partial too.
     */
    @Test
    void aProjectionWrittenFromTheBytesReadsBackAsTheProjectedMap() {
        Random r = new Random(11);
        RecordDecoder decoder = new RecordDecoder();
        int written = 0;
        for (int n = 0; n < 4000; n++) {
            String text = randomRecord(r);
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            if (r.nextInt(8) == 0) { // an ill-formed UTF-8 byte inside a string
                int quote = text.indexOf("\"plain");
                if (quote >= 0) {
                    ByteArrayOutputStream b = new ByteArrayOutputStream();
                    b.write(bytes, 0, quote + 2);
                    b.write(0xC3);
                    b.write(bytes, quote + 2, bytes.length - quote - 2);
                    bytes = b.toByteArray();
                }
            }
            Record lazy = decoder.decode(bytes);
            if (!(lazy instanceof LazyRecord)) {
                continue; // rejected, or decoded in full (the map path serves it)
            }
            List<NamedField> fields = new ArrayList<>();
            List<String> names = new ArrayList<>(List.of(NAMES));
            Collections.shuffle(names, r);
            for (int f = r.nextInt(5); f >= 0; f--) {
                fields.add(NamedField.of(PATHS[r.nextInt(PATHS.length)], names.get(f)));
            }
            Projector projector = new Projector(fields);
            Object expected = JsonCodec.parse(JsonCodec.toJson(projector.project(decoder.decode(bytes)).asMap()));
            assertTrue(projector.writesJson());
            byte[] json = projector.json((LazyRecord) lazy);
            assertEquals(expected, JsonCodec.parse(new String(json, StandardCharsets.UTF_8)), new String(bytes, StandardCharsets.UTF_8) + " " + fields);
            RawAggregator viaJson = new RawAggregator(10);
            viaJson.addJson(json);
            viaJson.addJson(projector.json((LazyRecord) decoder.decode(bytes)));
            RawAggregator viaMaps = new RawAggregator(10);
            viaMaps.add(projector.project(lazy).asMap());
            viaMaps.add(projector.project(lazy).asMap());
            assertEquals(RawAggregator.decode(viaMaps.serialize()), RawAggregator.decode(viaJson.serialize()));
            written++;
        }
        assertTrue(written > 1500, "records projected from their bytes: " + written);
    }

    @Test
    void queriesProjectingARecordAlikeShareOneJsonAndNoOtherQuerySeesIt() {
        RecordDecoder decoder = new RecordDecoder();
        LazyRecord first = (LazyRecord) decoder.decode("{\"id\":\"a\",\"n\":1,\"s\":\"x\"}".getBytes(StandardCharsets.UTF_8));
        LazyRecord second = (LazyRecord) decoder.decode("{\"id\":\"b\",\"n\":2,\"s\":\"y\"}".getBytes(StandardCharsets.UTF_8));
        Projector one = new Projector(List.of(NamedField.of("id", "id"), NamedField.of("n", "count")));
        Projector same = new Projector(List.of(NamedField.of("id", "id"), NamedField.of("n", "count")));
        Projector renamed = new Projector(List.of(NamedField.of("id", "id"), NamedField.of("n", "number")));
        Projector other = new Projector(List.of(NamedField.of("id", "id"), NamedField.of("s", "count")));

        byte[] json = one.json(first);
        assertSame(json, same.json(first), "a second query projecting the record alike reuses its JSON");
        assertEquals("{\"id\":\"a\",\"count\":1}", new String(json, StandardCharsets.UTF_8));
        // the same paths under another name, or another path under the same name, write their own
        assertEquals("{\"id\":\"a\",\"number\":1}", new String(renamed.json(first), StandardCharsets.UTF_8));
        assertEquals("{\"id\":\"a\",\"count\":\"x\"}", new String(other.json(first), StandardCharsets.UTF_8));
        // the next record is written anew, and the first one's JSON is left as it was
        assertEquals("{\"id\":\"b\",\"count\":2}", new String(same.json(second), StandardCharsets.UTF_8));
        assertEquals("{\"id\":\"a\",\"count\":1}", new String(json, StandardCharsets.UTF_8));
        // a record equal in content but another object (another message) is written anew
        LazyRecord again = (LazyRecord) decoder.decode("{\"id\":\"a\",\"n\":1,\"s\":\"x\"}".getBytes(StandardCharsets.UTF_8));
        byte[] fresh = one.json(again);
        assertFalse(fresh == json);
        assertEquals(new String(json, StandardCharsets.UTF_8), new String(fresh, StandardCharsets.UTF_8));
    }

    @Test
    void manyProjectionsOfOneRecordEachGetTheirOwnJson() {
        // more projections than the thread's table of recent JSON has slots: some share a slot, none another's JSON
        RecordDecoder decoder = new RecordDecoder();
        LazyRecord record = (LazyRecord) decoder.decode("{\"id\":\"a\",\"n\":1}".getBytes(StandardCharsets.UTF_8));
        List<Projector> projectors = new ArrayList<>();
        for (int i = 0; i < 3 * Projector.RECENT_SLOTS; i++) {
            projectors.add(new Projector(List.of(NamedField.of("n", "n" + i))));
        }
        for (int round = 0; round < 2; round++) {
            for (int i = projectors.size() - 1; i >= 0; i -= 1 + round) {
                assertEquals("{\"n" + i + "\":1}", new String(projectors.get(i).json(record), StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void aProjectionWithARepeatedNameIsLeftToTheMap() {
        assertFalse(new Projector(List.of(NamedField.of("a", "x"), NamedField.of("b", "x"))).writesJson());
        assertTrue(new Projector(List.of(NamedField.of("a", "x"), NamedField.of("a", "y"))).writesJson());
    }
}

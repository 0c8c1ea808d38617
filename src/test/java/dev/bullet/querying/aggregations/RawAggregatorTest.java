package dev.bullet.querying.aggregations;

import dev.bullet.record.JsonCodec;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.bullet.testing.Records.listOf;
import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RawAggregatorTest {

    @Test
    void keepsRecordsInArrivalOrderUpToTheSize() {
        Aggregator raw = Aggregations.create("{\"type\": \"RAW\", \"size\": 2}");
        assertInstanceOf(RawAggregator.class, raw);
        assertTrue(raw.isEmpty());
        raw.consume(Records.of("i", 1L).build());
        raw.consume(Records.of("i", 2L).build());
        raw.consume(Records.of("i", 3L).build());
        assertEquals(List.of(mapOf("i", 1L), mapOf("i", 2L)), raw.records());
        assertTrue(((RawAggregator) raw).isFull());
        assertTrue(raw.sketchMetadata().isEmpty());
    }

    @Test
    void theRoomTakenUpFrontBoundsNothing() {
        RawAggregator raw = new RawAggregator(5, 2);
        for (int i = 0; i < 8; i++) {
            assertEquals(i < 5, raw.add(Records.of("i", (long) i).build().asMap()));
        }
        assertEquals(5, raw.size());
        raw.reset();
        assertTrue(raw.isEmpty());
        RawAggregator unbounded = new RawAggregator(Integer.MAX_VALUE, 3); // a Filter's: the query caps its records
        for (int i = 0; i < 2000; i++) {
            assertTrue(unbounded.addJson(("{\"i\":" + i + "}").getBytes(StandardCharsets.UTF_8)));
        }
        assertEquals(2000, unbounded.size());
        assertEquals("{\"i\":1999}", new String(unbounded.rowsJson()[1999], StandardCharsets.UTF_8));
    }

    @Test
    void rowsCheckedAsTheyCameGiveWhatCheckingThemAtTheEndGives() {
        byte[] plain = "{\"a\":1,\"b\":\"x\"}".getBytes(StandardCharsets.UTF_8);
        byte[] spaced = "{\"a\": 1}".getBytes(StandardCharsets.UTF_8);
        byte[] twice = "{\"a\":1,\"a\":2}".getBytes(StandardCharsets.UTF_8);
        RawAggregator checked = new RawAggregator(10);
        checked.addRow(plain);
        checked.addRow(plain); // one array kept by two rows, as a record two queries keep
        assertEquals("[" + new String(plain, StandardCharsets.UTF_8) + "," + new String(plain, StandardCharsets.UTF_8)
                     + "]", new String(checked.canonicalJson(), StandardCharsets.UTF_8));
        for (byte[] odd : List.of(spaced, twice)) {
            RawAggregator withOdd = new RawAggregator(10);
            withOdd.addRow(plain);
            withOdd.addRow(odd);
            assertEquals(null, withOdd.canonicalJson(), "a row parsed and written again is not itself");
            withOdd.reset();
            withOdd.addRow(plain);
            assertTrue(withOdd.canonicalJson() != null, "after a reset only the new rows count");
        }
        // rows that came without a check (restored from a snapshot) are checked at the end
        RawAggregator restored = new RawAggregator(10);
        restored.combine(JsonCodec.array(List.of(plain, twice)));
        restored.addRow(plain);
        assertEquals(null, restored.canonicalJson());
        RawAggregator restoredPlain = new RawAggregator(10);
        restoredPlain.combine(JsonCodec.array(List.of(plain)));
        restoredPlain.addRow(plain);
        assertTrue(restoredPlain.canonicalJson() != null);
        // a row refused for want of room is not counted
        RawAggregator full = new RawAggregator(1);
        full.addJson(spaced);
        assertFalse(full.addRow(plain));
        assertEquals(null, full.canonicalJson());
    }

    @Test
    void partialsRoundTripWithTypesIntact() {
        RawAggregator source = new RawAggregator(10);
        Map<String, Object> record = Records.of("l", 5L, "d", 5.0, "s", "5", "b", true, "n", null)
                .map("m", "x", listOf(1L, 2.5)).asMap();
        source.add(record);
        RawAggregator target = new RawAggregator(10);
        target.combine(source.serialize());
        assertEquals(List.of(record), target.records());
        assertInstanceOf(Long.class, target.records().get(0).get("l"));
        assertInstanceOf(Double.class, target.records().get(0).get("d"));
    }

    @Test
    void rawRecordsTravelAsTheirBytesAndReadBackAsTheirFullDecode() {
        String[] jsons = {"{\"a\":1,\"b\":\"x\\u0041\\n\",\"a\":2e0, \"c\" : [1, {\"d\": null}], \"e\":1.50}",
                          " {\"big\":12345678901234,\"neg\":-0,\"t\":true,\"u\":\"\u00e9\u20ac\"} ",
                          "{}"};
        RawAggregator source = new RawAggregator(10);
        List<Map<String, Object>> expected = new ArrayList<>();
        for (String json : jsons) {
            Record lazy = new RecordDecoder().decode(json);
            assertInstanceOf(LazyRecord.class, lazy);
            source.consume(lazy);
            expected.add(RecordDecoder.decodeMap(json));
        }
        assertEquals(expected, source.records());
        RawAggregator target = new RawAggregator(10);
        target.combine(source.serialize());
        assertEquals(expected, target.records());
        RawAggregator viaMaps = new RawAggregator(10);
        expected.forEach(viaMaps::add);
        RawAggregator fromMaps = new RawAggregator(10);
        fromMaps.combine(viaMaps.serialize());
        assertEquals(fromMaps.records(), target.records());
    }

    @Test
    void thePartialIsExactlyTheRecordsAsOneJsonArray() {
        RawAggregator empty = new RawAggregator(3);
        assertEquals("[]", new String(empty.serialize(), StandardCharsets.UTF_8));
        String lazy = " {\"u\":\"\u00e9\u20ac\",\"n\":[1,2]} ";
        RawAggregator mixed = new RawAggregator(5);
        mixed.consume(new RecordDecoder().decode(lazy));
        mixed.add(mapOf("a", 1L));
        mixed.consume(new RecordDecoder().decode("{}"));
        assertEquals("[" + lazy + ",{\"a\":1},{}]", new String(mixed.serialize(), StandardCharsets.UTF_8));
        RawAggregator one = new RawAggregator(1);
        one.add(mapOf("s", "x"));
        assertEquals("[{\"s\":\"x\"}]", new String(one.serialize(), StandardCharsets.UTF_8));
    }

    @Test
    void combiningStopsAtTheCapacity() {
        RawAggregator source = new RawAggregator(10);
        for (long i = 0; i < 5; i++) {
            source.add(mapOf("i", i));
        }
        RawAggregator target = new RawAggregator(3);
        target.combine(source.serialize());
        assertEquals(3, target.size());
        assertFalse(target.add(mapOf("i", 9L)));
    }

    @Test
    void aJoinKeepsPartialRecordsAsTheirJsonAndReadsThemAsTheWholePartialDecodes() {
        RawAggregator source = new RawAggregator(10);
        source.add(mapOf("inf", Double.POSITIVE_INFINITY, "nan", Double.NaN, "s", "}]\"{[,\\", "l", listOf(listOf(), mapOf())));
        source.consume(new RecordDecoder().decode(" { \"a\" : [ 1 , { \"b\" : \"]\" } ] , \"c\":\"\\\"}\" } "));
        source.add(mapOf());
        source.add(mapOf("e", "\u00e9\u20ac\ud83d\ude00", "big", 12345678901234567L, "neg", -0.0));
        byte[] partial = source.serialize();
        List<Map<String, Object>> whole = JsonCodec.parseRecords(new String(partial, StandardCharsets.UTF_8));
        RawAggregator target = new RawAggregator(6);
        target.combine(partial);
        assertEquals(whole, target.records());
        target.combine(partial); // a second partial fills the rest of the size, in order
        assertEquals(6, target.size());
        List<Map<String, Object>> expected = new ArrayList<>(whole);
        expected.addAll(whole.subList(0, 2));
        assertEquals(expected, target.records());
        assertEquals(expected, RawAggregator.decode(target.serialize()), "the Join's partial reads back the same");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> JsonCodec.objects("[1]".getBytes(StandardCharsets.UTF_8), 5));
    }

    @Test
    void resetEmptiesIt() {
        RawAggregator raw = new RawAggregator(3);
        raw.add(mapOf("a", 1L));
        raw.reset();
        assertTrue(raw.isEmpty());
        assertEquals(List.of(), raw.records());
    }

    @Test
    void recordsAreCopiesThatPostAggregationsMayChange() {
        RawAggregator raw = new RawAggregator(3);
        raw.add(mapOf("a", 1L));
        raw.records().get(0).put("a", 2L);
        assertEquals(List.of(mapOf("a", 1L)), raw.records());
    }
}

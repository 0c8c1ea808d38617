package dev.bullet.querying.aggregations;

import com.yahoo.sketches.ResizeFactor;
import com.yahoo.sketches.frequencies.ErrorType;
import com.yahoo.sketches.frequencies.ItemsSketch;
import com.yahoo.sketches.tuple.DoubleSummary;
import com.yahoo.sketches.tuple.DoubleSummaryFactory;
import com.yahoo.sketches.tuple.SketchIterator;
import com.yahoo.sketches.tuple.UpdatableSketch;
import com.yahoo.sketches.tuple.UpdatableSketchBuilder;
import dev.bullet.query.NamedField;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.MapRecord;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BQL's GROUP and TOP K against the sketches bullet-core 1.5.2 runs them on (sketches-core 0.9.1, on the test class
 * path with bullet-core): the same keys, and rows in the same order.
 */
class BulletCoreKeysTest {
    private static final int GROUP_ENTRIES = QuerySettings.defaults().groupEntries();

    /** JSON values of every kind a key may meet, some spelled as Java writes them, some not. */
    private static final String[] VALUES = {
        "\"abc\"", "\"a|b\"", "\"\"", "\"null\"", "\"true\"", "\"7\"", "\"caf\\u00e9\"", "\"caf\u00e9\"",
        "\"x\\\"y\"", "\"tab\\tthere\"", "\"\\\\\"", "0", "-0", "7", "-12", "123456789012345678",
        "-123456789012345678", "1234567890123456789", "9223372036854775808", "-9223372036854775809", "1.5", "-0.0",
        "2.0", "1e3", "1E-2", "true", "false", "null", "[1,2]", "[]", "{\"a\":1}", "{}", "[\"x\",{\"b\":null}]"};

    /**
     * Keys cut from a record's bytes are the keys made from its decoded values (gson's, as bullet-core gets them):
     * random records over strings with and without escapes or non-ASCII, integers up to and past a long, decimals,
     * booleans, nulls, lists and maps, missing fields, nested paths, one to four fields, with and without blanks.
     */
    @Test
    void keysCutFromTheBytesAreTheKeysOfTheDecodedValues() {
        Random random = new Random(20261128);
        RecordDecoder decoder = new RecordDecoder();
        String[] paths = {"f0", "f1", "f2", "m.k", "m.j", "absent", "f0.k"};
        int fast = 0;
        for (int round = 0; round < 20_000; round++) {
            StringBuilder json = new StringBuilder("{");
            String gap = random.nextInt(4) == 0 ? " " : "";
            for (int f = 0; f < 3; f++) {
                if (random.nextInt(6) > 0) {
                    json.append(json.length() > 1 ? "," : "").append(gap).append("\"f").append(f).append("\":").append(gap)
                        .append(VALUES[random.nextInt(VALUES.length)]).append(gap);
                }
            }
            if (random.nextBoolean()) {
                json.append(json.length() > 1 ? "," : "").append("\"m\":{\"k\":").append(gap)
                    .append(VALUES[random.nextInt(VALUES.length)]).append(gap).append(",\"j\":")
                    .append(VALUES[random.nextInt(VALUES.length)]).append('}');
            }
            json.append('}');
            List<NamedField> fields = new ArrayList<>();
            for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
                fields.add(NamedField.of(paths[random.nextInt(paths.length)], "v" + i));
            }
            int[] order = BulletCoreKeys.fieldOrder(fields);
            Record lazy = decoder.decode(json.toString());
            Record eager = RecordDecoder.decodeEagerly(json.toString());
            assertNotNull(eager, json.toString());
            assertNotNull(lazy, json.toString()); // integers of 19 digits and more go to gson: a MapRecord
            String where = json + " " + fields;
            assertEquals(BulletCoreKeys.groupKey(fields, order, eager), BulletCoreKeys.groupKey(fields, order, lazy), where);
            assertEquals(BulletCoreKeys.topKKey(fields, order, eager), BulletCoreKeys.topKKey(fields, order, lazy), where);
            fast += lazy instanceof LazyRecord l && BulletCoreKeys.scalarKey(fields, order, l) != null ? 1 : 0;
        }
        assertTrue(fast > 5_000 && fast < 19_000, "keys cut from the bytes: " + fast); // both ways were taken
    }

    /** A decimal, a list or a map, an escape: the bytes do not spell the key, which is made from the values. */
    @Test
    void valuesTheBytesDoNotSpellAreLeftToTheDecodedValues() {
        RecordDecoder decoder = new RecordDecoder();
        List<NamedField> fields = List.of(NamedField.of("a", "a"));
        int[] order = BulletCoreKeys.fieldOrder(fields);
        for (String value : new String[] {"1.0", "-0", "[1]", "{\"b\":2}", "\"a\\nb\"", "1e2"}) {
            LazyRecord record = (LazyRecord) decoder.decode("{\"a\":" + value + "}");
            assertNull(BulletCoreKeys.scalarKey(fields, order, record), value);
        }
        LazyRecord record = (LazyRecord) decoder.decode("{\"a\":\"x|y\",\"b\":null,\"c\":-5,\"d\":true}");
        List<NamedField> four = List.of(NamedField.of("a", "a"), NamedField.of("b", "b"), NamedField.of("c", "c"),
                                        NamedField.of("d", "d"));
        int[] fourOrder = BulletCoreKeys.fieldOrder(four);
        assertEquals(BulletCoreKeys.groupKey(four, fourOrder, new MapRecord(mapOf("a", "x|y", "c", -5L, "d", true))),
                     BulletCoreKeys.scalarKey(four, fourOrder, record));
    }

    @Test
    void groupOrderIsTheSlotOrderOfBulletCoresTupleSketch() {
        Random random = new Random(7);
        for (int n : new int[] {1, 2, 7, 16, 40, 100, 300, 500}) {
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                keys.add("k" + random.nextInt(1_000_000) + "|" + i);
            }
            UpdatableSketch<Double, DoubleSummary> theirs = new UpdatableSketchBuilder<Double, DoubleSummary>(new DoubleSummaryFactory())
                    .setNominalEntries(GROUP_ENTRIES).setResizeFactor(ResizeFactor.X8).setSamplingProbability(1.0f).build();
            for (int i = 0; i < n; i++) {
                theirs.update(keys.get(i), (double) i);
            }
            List<Integer> expected = new ArrayList<>();
            SketchIterator<DoubleSummary> it = theirs.compact().iterator();
            while (it.next()) {
                expected.add((int) it.getSummary().getValue());
            }
            assertEquals(expected, BulletCoreKeys.groupOrder(keys, GROUP_ENTRIES), n + " keys");
        }
    }

    /**
     * GROUP rows: in bullet-core's tuple sketch's order for groups as they arrived, also after the Filter's partial
     * reached the Join (60 groups: keys that share a home slot, whose places depend on which came first).
     */
    @Test
    void groupRowsComeInBulletCoresOrder() {
        String json = "{\"type\": \"GROUP\", \"fields\": {\"n\": \"n\"}, \"attributes\": {\"groupValuesAsStrings\": true, "
                      + "\"operations\": [{\"type\": \"COUNT\", \"newName\": \"c\"}]}}";
        UpdatableSketch<Double, DoubleSummary> theirs = new UpdatableSketchBuilder<Double, DoubleSummary>(new DoubleSummaryFactory())
                .setNominalEntries(GROUP_ENTRIES).setResizeFactor(ResizeFactor.X8).setSamplingProbability(1.0f).build();
        List<Record> records = new ArrayList<>();
        Random random = new Random(11);
        List<Long> values = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            long n = random.nextInt(60) * 7919L;
            records.add(Records.of("n", n).build());
            if (!values.contains(n)) {
                values.add(n);
                theirs.update(String.valueOf(n), (double) values.indexOf(n)); // a key's slot is set when it arrives
            }
        }
        List<Object> expected = new ArrayList<>();
        SketchIterator<DoubleSummary> it = theirs.compact().iterator();
        while (it.next()) {
            expected.add(String.valueOf(values.get((int) it.getSummary().getValue())));
        }
        Aggregator filter = Aggregations.consumeAll(Aggregations.create(json), records);
        for (Aggregator aggregator : List.of(filter, Aggregations.roundTrip(json, QuerySettings.defaults(), filter))) {
            List<Object> order = new ArrayList<>();
            aggregator.records().forEach(r -> order.add(r.get("n")));
            assertEquals(expected, order);
        }
    }

    @Test
    void fieldsComeInTheOrderOfAHashMapOfTheirNames() {
        List<String> names = List.of("abc + 5", "def", "c", "abc", "demographics.country", "browser_name", "x", "a.b");
        Map<String, String> map = new HashMap<>();
        List<NamedField> fields = new ArrayList<>();
        for (String name : names) {
            map.put(name, name);
            fields.add(NamedField.of(name, name));
        }
        List<String> ordered = new ArrayList<>();
        for (int i : BulletCoreKeys.fieldOrder(fields)) {
            ordered.add(names.get(i));
        }
        assertEquals(new ArrayList<>(map.keySet()), ordered);
    }

    /**
     * TOP K ties: in the order of bullet-core's frequent-items map, also after the Filter's sketch reached the Join
     * (12 combinations in a map of 16 slots: a run of taken slots wraps around its end, which reading the bytes as
     * they are would reorder).
     */
    @Test
    void topKTiesComeInBulletCoresOrder() {
        String json = "{\"type\": \"TOP K\", \"size\": 8, \"fields\": {\"c\": \"c\", \"n\": \"n\"}, "
                      + "\"attributes\": {\"groupValuesAsStrings\": true}}";
        List<Record> records = new ArrayList<>();
        ItemsSketch<String> theirs = new ItemsSketch<>(QuerySettings.defaults().topKEntries());
        String[] words = {"foo", "bar", "baz", "abc"};
        for (int i = 0; i < 60; i++) {
            records.add(Records.of("c", words[i % 4], "n", (long) (i % 6)).build());
            theirs.update(words[i % 4] + "|" + i % 6);
        }
        List<Map<String, Object>> expected = new ArrayList<>();
        for (ItemsSketch.Row<String> row : theirs.getFrequentItems(ErrorType.NO_FALSE_NEGATIVES)) {
            if (expected.size() < 8) {
                String[] values = row.getItem().split("\\|");
                expected.add(mapOf("c", values[0], "n", values[1], "COUNT", row.getEstimate()));
            }
        }
        Aggregator filter = Aggregations.consumeAll(Aggregations.create(json), records);
        assertEquals(expected, filter.records());
        assertEquals(expected, Aggregations.roundTrip(json, QuerySettings.defaults(), filter).records());
    }

    /** bullet-core forces GROUP values to strings: true and "true" are one group, and a list cannot be one. */
    @Test
    void groupKeysAreBulletCoresStrings() {
        String json = "{\"type\": \"GROUP\", \"fields\": {\"b\": \"b\"}, \"attributes\": {\"groupValuesAsStrings\": true, "
                      + "\"operations\": [{\"type\": \"COUNT\", \"newName\": \"n\"}]}}";
        List<Record> records = List.of(Records.of("b", true).build(), Records.of("b", "true").build(),
                                       Records.of("b", Records.listOf(1L)).build(), Records.of("x", 1L).build());
        List<Map<String, Object>> rows = Aggregations.consumeAll(Aggregations.create(json), records).records();
        assertEquals(2, rows.size(), rows.toString());
        Map<Object, Object> counts = new HashMap<>();
        rows.forEach(r -> counts.put(r.get("b"), r.get("n")));
        assertEquals(Map.of("true", 2L, "null", 1L), counts);
    }
}

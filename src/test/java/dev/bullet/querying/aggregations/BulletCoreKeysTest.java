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
import dev.bullet.record.Record;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * BQL's GROUP and TOP K against the sketches bullet-core 1.5.2 runs them on (sketches-core 0.9.1, on the test class
 * path with bullet-core): the same keys, and rows in the same order.
 */
class BulletCoreKeysTest {
    private static final int GROUP_ENTRIES = QuerySettings.defaults().groupEntries();

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

package dev.bullet.querying.aggregations;

import dev.bullet.query.NamedField;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A query's matches of a batch grouped by key: one run per distinct key, in first-occurrence order, whatever other
 * queries over the same fields numbered before, across batches that reuse positions, and with more field lists
 * than the thread keeps tables for.
 */
class BatchKeysTest {
    private final RecordDecoder decoder = new RecordDecoder();

    private List<Record> batch(Random r, int cardinality, String extra) {
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            String json = "{\"a\":" + r.nextInt(cardinality) + ",\"b\":\"" + r.nextInt(3) + "\"" + extra + "}";
            records.add(r.nextBoolean() ? decoder.decode(json.getBytes(StandardCharsets.UTF_8)) : decoder.decode(json));
        }
        return records;
    }

    /** The runs as made without any table: key -> positions, in first-occurrence order. */
    private static Map<String, Long> expected(SketchKeys.Fields fields, List<Record> batch, int from, long mask) {
        Map<String, Long> runs = new LinkedHashMap<>();
        for (long m = mask; m != 0; m &= m - 1) {
            int position = Long.numberOfTrailingZeros(m);
            runs.merge(SketchKeys.makeKey(fields, batch.get(from + position)), 1L << position, (x, y) -> x | y);
        }
        return runs;
    }

    private static Map<String, Long> actual(SketchKeys.Fields fields, List<Record> batch, int from, long mask) {
        BatchKeys.Runs runs = BatchKeys.runs(BatchKeys.Cut.of(fields), batch, from, mask);
        Map<String, Long> out = new LinkedHashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            out.put(runs.key(i), runs.positions(i));
            for (long m = runs.positions(i); m != 0; m &= m - 1) {
                assertEquals(runs.key(i), runs.keyAt(Long.numberOfTrailingZeros(m)));
            }
        }
        return out;
    }

    private static long mask(Random r) {
        switch (r.nextInt(4)) {
            case 0:
                return -1L;
            case 1:
                return 1L << r.nextInt(64);
            case 2:
                return r.nextLong() & r.nextLong() & r.nextLong();
            default:
                return r.nextLong();
        }
    }

    @Test
    void runsAreTheDistinctKeysInFirstOccurrenceOrder() {
        Random r = new Random(5);
        SketchKeys.Fields byA = SketchKeys.fields(List.of(NamedField.of("a", "a")));
        SketchKeys.Fields byAB = SketchKeys.fields(List.of(NamedField.of("a", "a"), NamedField.of("b", "b")));
        for (int round = 0; round < 300; round++) {
            int cardinality = new int[] {1, 3, 20, 1000}[r.nextInt(4)];
            List<Record> records = new ArrayList<>(batch(r, cardinality, ""));
            records.addAll(batch(r, cardinality, ""));
            int from = r.nextBoolean() ? 0 : 64; // two batches in one list, at the same positions
            for (int query = 0; query < 6; query++) { // queries over the same fields, each with its own matches
                SketchKeys.Fields fields = r.nextBoolean() ? byA : byAB;
                long mask = mask(r);
                assertEquals(expected(fields, records, from, mask), actual(fields, records, from, mask));
            }
        }
    }

    @Test
    void moreFieldListsThanTablesEachGetTheirOwnKeys() {
        Random r = new Random(8);
        List<SketchKeys.Fields> lists = new ArrayList<>();
        for (int i = 0; i < 3 * BatchKeys.TABLES; i++) { // lists sharing a table renumber: none reads another's ids
            lists.add(SketchKeys.fields(List.of(NamedField.of(i % 2 == 0 ? "a" : "b", "x"), NamedField.of("c" + i, "y"))));
        }
        for (int round = 0; round < 20; round++) {
            List<Record> records = batch(r, 10, ",\"c" + r.nextInt(lists.size()) + "\":1");
            for (int q = 0; q < 200; q++) {
                SketchKeys.Fields fields = lists.get(r.nextInt(lists.size()));
                long mask = mask(r);
                assertEquals(expected(fields, records, 0, mask), actual(fields, records, 0, mask));
            }
        }
    }

    @Test
    void aBatchOfAllDistinctKeysAfterAnotherIsNumberedAfresh() {
        // the table is full of one batch's 64 keys; the next batch's keys at other positions still fit
        SketchKeys.Fields byA = SketchKeys.fields(List.of(NamedField.of("a", "a")));
        List<Record> first = new ArrayList<>();
        List<Record> second = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            first.add(decoder.decode("{\"a\":" + i + "}"));
            second.add(decoder.decode("{\"a\":" + (100 + i) + "}"));
        }
        assertEquals(expected(byA, first, 0, -1L), actual(byA, first, 0, -1L));
        long odd = 0xAAAAAAAAAAAAAAAAL;
        assertEquals(expected(byA, second, 0, odd), actual(byA, second, 0, odd));
        assertEquals(expected(byA, second, 0, -1L), actual(byA, second, 0, -1L));
        assertEquals(expected(byA, first, 0, ~odd), actual(byA, first, 0, ~odd));
    }
}

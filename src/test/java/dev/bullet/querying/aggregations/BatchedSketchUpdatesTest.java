package dev.bullet.querying.aggregations;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GROUP, COUNT DISTINCT and TOP K sketches updated once per distinct key of a batch ({@link BatchKeys}) are, byte for
 * byte, the sketches updated record by record: with sketches as small as the settings allow and keys from a handful
 * to thousands of values, so batches cross the sketches' resizes, rebuilds (theta lowered, groups dropped) and purges
 * (TOP K past its map), with several queries over the same fields matching different records of each batch; also
 * with the keys cut as bullet-core cuts them (BQL's {@code groupValuesAsStrings}).
 */
class BatchedSketchUpdatesTest {
    private static final String[] AGGREGATIONS = {
        "{\"type\":\"GROUP\",\"fields\":%s,\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}}",
        "{\"type\":\"GROUP\",\"fields\":%s,\"attributes\":{\"operations\":[{\"type\":\"COUNT\"},{\"type\":\"SUM\","
        + "\"field\":\"d\"},{\"type\":\"MIN\",\"field\":\"n\"},{\"type\":\"MAX\",\"field\":\"d\"},{\"type\":\"AVG\","
        + "\"field\":\"d\"},{\"type\":\"SUM\",\"field\":\"n\"}]}}",
        "{\"type\":\"COUNT DISTINCT\",\"fields\":%s}",
        "{\"type\":\"TOP K\",\"size\":5,\"fields\":%s}",
        "{\"type\":\"TOP K\",\"size\":5,\"threshold\":2,\"fields\":%s}",
        // BQL's: the keys as bullet-core cuts them (a GROUP key of a list or map is none: the record is skipped)
        "{\"type\":\"GROUP\",\"fields\":%s,\"attributes\":{\"groupValuesAsStrings\":true,\"operations\":[{\"type\":"
        + "\"COUNT\"},{\"type\":\"SUM\",\"field\":\"d\"},{\"type\":\"MAX\",\"field\":\"n\"}]}}",
        "{\"type\":\"TOP K\",\"size\":5,\"fields\":%s,\"attributes\":{\"groupValuesAsStrings\":true}}",
    };
    private static final String[] FIELDS = {"{\"k\":\"k\"}", "{\"k\":\"k\",\"j\":\"j\"}", "{\"j\":\"j\"}"};

    private final RecordDecoder decoder = new RecordDecoder();

    private List<Record> batch(Random r, int cardinality) {
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            int k = cardinality > 50 ? r.nextInt(cardinality) : (int) Math.abs(r.nextGaussian() * cardinality / 2);
            String key = r.nextInt(9) == 0 ? "\"" + k + "\"" : r.nextInt(20) == 0 ? "[" + k + ",1]" : String.valueOf(k);
            String json = "{\"k\":" + key + ",\"j\":" + r.nextInt(4)
                          + ",\"n\":" + (r.nextInt(41) - 20) + ",\"d\":" + (r.nextInt(2001) - 1000) / 7.0 + "}";
            records.add(r.nextInt(4) > 0 ? decoder.decode(json.getBytes(StandardCharsets.UTF_8)) : decoder.decode(json));
        }
        return records;
    }

    private static long mask(Random r) {
        switch (r.nextInt(5)) {
            case 0:
                return -1L;
            case 1:
                return 0L;
            case 2:
                return 1L << r.nextInt(64);
            case 3:
                return r.nextLong() & r.nextLong();
            default:
                return r.nextLong() | r.nextLong();
        }
    }

    @Test
    void batchedUpdatesGiveTheSketchesOfRecordByRecord() {
        Random r = new Random(41);
        int compared = 0;
        for (int trial = 0; trial < 120; trial++) {
            int entries = new int[] {16, 32, 64}[r.nextInt(3)];
            QuerySettings settings = QuerySettings.from(BulletSettings.defaults().withOverrides(Map.of(
                    SettingsTable.TOP_K_SKETCH_ENTRIES, entries, SettingsTable.GROUP_SKETCH_ENTRIES, entries,
                    SettingsTable.COUNT_DISTINCT_SKETCH_ENTRIES, entries)));
            int cardinality = new int[] {2, 12, 30, 60, 400, 100_000}[r.nextInt(6)];
            String fields = FIELDS[r.nextInt(FIELDS.length)];
            List<String> jsons = new ArrayList<>();
            List<Aggregator> batched = new ArrayList<>();
            List<Aggregator> single = new ArrayList<>();
            for (int q = 0; q < 4; q++) { // queries over the same fields, each matching its own records
                String json = String.format(AGGREGATIONS[r.nextInt(AGGREGATIONS.length)], fields);
                jsons.add(json);
                batched.add(Aggregations.create(json, settings));
                single.add(Aggregations.create(json, settings));
            }
            for (int b = 0; b < 30; b++) {
                List<Record> records = batch(r, cardinality);
                for (int q = 0; q < batched.size(); q++) {
                    long mask = mask(r);
                    batched.get(q).consumeBatch(records, 0, mask);
                    for (long m = mask; m != 0; m &= m - 1) {
                        single.get(q).consume(records.get(Long.numberOfTrailingZeros(m)));
                    }
                    String what = jsons.get(q) + " with " + entries + " entries over " + cardinality + " keys, batch " + b;
                    if (jsons.get(q).contains("\"fields\"") && !jsons.get(q).contains("COUNT DISTINCT")) {
                        // GROUP and TOP K keep their groups apart until a partial: every key met, not the sketch's
                        assertTrue(batched.get(q).heldBytes() >= single.get(q).heldBytes(), what);
                    } else {
                        assertEquals(single.get(q).heldBytes(), batched.get(q).heldBytes(), what);
                    }
                    assertEquals(single.get(q).isEmpty(), batched.get(q).isEmpty(), what);
                    if (r.nextInt(5) == 0 || b == 29) { // a window's partial, and the next window
                        assertArrayEquals(single.get(q).serialize(), batched.get(q).serialize(), what);
                        assertEquals(single.get(q).records(), batched.get(q).records(), what);
                        compared++;
                        if (r.nextBoolean()) {
                            single.get(q).reset();
                            batched.get(q).reset();
                        }
                    }
                }
            }
        }
        assertTrue(compared > 1_000, "too few partials compared: " + compared);
    }
}

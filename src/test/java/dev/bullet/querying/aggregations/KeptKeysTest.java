package dev.bullet.querying.aggregations;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.query.NamedField;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GROUP and TOP K keep their groups apart from their sketches between partials ({@link KeptKeys}) and give the
 * partials and rows of the same aggregations fed record by record: over long phases with keys of few values (kept), of
 * more values than the thread's dictionary holds (it starts again, and every query over the fields gives its kept
 * groups to its sketch), with several queries over the same fields, sums whose values make the order of addition show
 * ({@code 1e16 + 1 - 1e16}), sketches small enough to rebuild, and rows read in the middle of a partial.
 */
class KeptKeysTest {
    private static final String[] AGGREGATIONS = {
        "{\"type\":\"GROUP\",\"fields\":{\"k\":\"k\"},\"attributes\":{\"operations\":[{\"type\":\"COUNT\"},"
        + "{\"type\":\"SUM\",\"field\":\"d\"},{\"type\":\"MIN\",\"field\":\"n\"},{\"type\":\"AVG\",\"field\":\"d\"}]}}",
        "{\"type\":\"GROUP\",\"fields\":{\"k\":\"k\"},\"attributes\":{\"groupValuesAsStrings\":true,\"operations\":"
        + "[{\"type\":\"COUNT\"},{\"type\":\"SUM\",\"field\":\"d\"},{\"type\":\"MAX\",\"field\":\"n\"}]}}",
        "{\"type\":\"TOP K\",\"size\":5,\"fields\":{\"k\":\"k\"}}",
        "{\"type\":\"TOP K\",\"size\":5,\"fields\":{\"k\":\"k\"},\"attributes\":{\"groupValuesAsStrings\":true}}",
    };
    private static final double[] ADDENDS = {1e16, 1.0, -1e16, 0.1, 0.2, -0.3, 3.0};

    private final RecordDecoder decoder = new RecordDecoder();

    private List<Record> batch(Random r, int cardinality) {
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            int k = r.nextInt(cardinality);
            String key = r.nextInt(7) == 0 ? "\"s" + k + "\"" : String.valueOf(k);
            String d = r.nextInt(10) == 0 ? "\"x\"" : String.valueOf(ADDENDS[r.nextInt(ADDENDS.length)]);
            String json = "{\"k\":" + key + ",\"n\":" + (r.nextInt(41) - 20) + ",\"d\":" + d + "}";
            records.add(r.nextBoolean() ? decoder.decode(json.getBytes(StandardCharsets.UTF_8)) : decoder.decode(json));
        }
        return records;
    }

    @Test
    void keptGroupsGiveThePartialsOfRecordByRecord() {
        Random r = new Random(97);
        int compared = 0;
        for (int entries : new int[] {16, 512}) {
            QuerySettings settings = QuerySettings.from(BulletSettings.defaults().withOverrides(Map.of(
                    SettingsTable.TOP_K_SKETCH_ENTRIES, Math.max(16, entries * 2), SettingsTable.GROUP_SKETCH_ENTRIES,
                    entries)));
            for (int cardinality : new int[] {3, 100, 1_000, 50_000}) {
                List<Aggregator> batched = new ArrayList<>();
                List<Aggregator> single = new ArrayList<>();
                List<String> jsons = new ArrayList<>();
                for (int q = 0; q < 6; q++) {
                    String json = AGGREGATIONS[r.nextInt(AGGREGATIONS.length)];
                    jsons.add(json);
                    batched.add(Aggregations.create(json, settings));
                    single.add(Aggregations.create(json, settings));
                }
                for (int b = 0; b < 600; b++) {
                    List<Record> records = batch(r, cardinality);
                    for (int q = 0; q < batched.size(); q++) {
                        long mask = r.nextInt(4) == 0 ? r.nextLong() : -1L;
                        batched.get(q).consumeBatch(records, 0, mask);
                        for (long m = mask; m != 0; m &= m - 1) {
                            single.get(q).consume(records.get(Long.numberOfTrailingZeros(m)));
                        }
                        String what = jsons.get(q) + ", " + entries + " entries, " + cardinality + " keys, batch " + b;
                        if (r.nextInt(300) == 0) { // rows read mid-partial: the kept groups go to the sketch
                            assertEquals(single.get(q).records(), batched.get(q).records(), what);
                        }
                        if (r.nextInt(40) == 0 || b == 599) {
                            assertArrayEquals(single.get(q).serialize(), batched.get(q).serialize(), what);
                            assertEquals(single.get(q).records(), batched.get(q).records(), what);
                            assertEquals(single.get(q).sketchMetadata(), batched.get(q).sketchMetadata(), what);
                            single.get(q).reset();
                            batched.get(q).reset();
                            compared++;
                        }
                    }
                }
            }
        }
        assertTrue(compared > 500, "partials compared: " + compared);
    }

    /**
     * A query keeping groups while another starts the fields' dictionary again (a third filled it) gives its kept
     * groups to its sketch before its keys are numbered anew: its partial is still that of its records one by one.
     */
    @Test
    void keptGroupsGoToTheSketchWhenTheDictionaryStartsAgain() {
        String json = AGGREGATIONS[0].replace("\"k\":\"k\"", "\"w\":\"w\"");
        Aggregator keeping = Aggregations.create(json);
        Aggregator single = Aggregations.create(json);
        Aggregator filling = Aggregations.create(json);
        Aggregator clearing = Aggregations.create(json);
        for (int b = 0; b < 20; b++) { // keys 0..63, many records each: kept
            List<Record> records = wBatch(b, 64);
            keeping.consumeBatch(records, 0, -1L);
            records.forEach(single::consume);
        }
        for (int b = 0; b < BatchKeys.Dictionary.CAPACITY / 64 + 2; b++) { // fills the dictionary
            filling.consumeBatch(wBatch(1_000 + b * 64, 1 << 30), 0, -1L);
        }
        clearing.consumeBatch(wBatch(1 << 29, 1 << 30), 0, -1L); // new keys, none kept yet: starts the dictionary again
        for (int b = 0; b < 20; b++) {
            List<Record> records = wBatch(b + 1, 64);
            keeping.consumeBatch(records, 0, -1L);
            records.forEach(single::consume);
        }
        assertArrayEquals(single.serialize(), keeping.serialize());
        assertEquals(single.records(), keeping.records());
    }

    /**
     * More field lists than a thread keeps dictionaries for drop them all: a query keeping groups of one gives them to
     * its sketch, exactly.
     */
    @Test
    void keptGroupsGoToTheSketchWhenTheThreadDropsItsDictionaries() {
        String json = AGGREGATIONS[0].replace("\"k\":\"k\"", "\"w\":\"w\"");
        Aggregator keeping = Aggregations.create(json);
        Aggregator single = Aggregations.create(json);
        for (int round = 0; round < 2; round++) {
            for (int b = 0; b < 20; b++) {
                List<Record> records = wBatch(b + round, 64);
                keeping.consumeBatch(records, 0, -1L);
                records.forEach(single::consume);
            }
            for (int f = 0; f < BatchKeys.DICTIONARY_SLOTS; f++) { // other field lists, each with a dictionary
                Aggregator other = Aggregations.create(AGGREGATIONS[2].replace("\"k\":\"k\"", "\"f" + f + "\":\"w\""));
                other.consumeBatch(wBatch(f, 64), 0, -1L);
            }
        }
        assertArrayEquals(single.serialize(), keeping.serialize());
        assertEquals(single.records(), keeping.records());
    }

    /**
     * Keys holding more characters than a dictionary (3,000 characters each, 131,072 a dictionary) fill it while a
     * query numbers a batch's runs, with nothing kept yet or with groups kept: the runs numbered before it filled are
     * kept, then every kept group goes to the sketch and the rest of the batch after them (the dictionary is not
     * started again in the middle of a batch). Either way the partials and rows are those of record by record.
     */
    @Test
    @Timeout(60)
    void keysThatOverflowTheDictionaryInABatchGoToTheSketch() {
        String filler = "y".repeat(3_000);
        // nothing kept yet: a batch of 64 long keys
        String json = AGGREGATIONS[0].replace("\"k\":\"k\"", "\"z1\":\"z\"");
        Aggregator batched = Aggregations.create(json);
        Aggregator single = Aggregations.create(json);
        List<Record> records = zBatch("z1", 0, 0, filler);
        batched.consumeBatch(records, 0, -1L);
        records.forEach(single::consume);
        assertArrayEquals(single.serialize(), batched.serialize());
        assertEquals(single.records(), batched.records());

        // five short keys kept over ten batches, then a batch of those keys and 54 long ones
        json = AGGREGATIONS[0].replace("\"k\":\"k\"", "\"z2\":\"z\"");
        batched = Aggregations.create(json);
        single = Aggregations.create(json);
        for (int b = 0; b < 14; b++) {
            records = zBatch("z2", b, b == 10 ? 10 : 64, filler);
            batched.consumeBatch(records, 0, -1L);
            records.forEach(single::consume);
        }
        assertArrayEquals(single.serialize(), batched.serialize());
        assertEquals(single.records(), batched.records());
        single.reset();
        batched.reset();
        for (int b = 0; b < 4; b++) {
            records = zBatch("z2", b, 64, filler);
            batched.consumeBatch(records, 0, -1L);
            records.forEach(single::consume);
        }
        assertArrayEquals(single.serialize(), batched.serialize());
    }

    /**
     * A query whose kept groups took a record each gives them to its sketch at the partial and feeds its sketch
     * directly for the next partials: it holds no room for kept groups meanwhile, as a new query does not.
     */
    @Test
    void aQueryThatStopsKeepingLetsGoOfItsRoom() {
        String json = AGGREGATIONS[0].replace("\"k\":\"k\"", "\"r\":\"r\"");
        Aggregator query = Aggregations.create(json);
        long fresh = query.heldBytes();
        for (int b = 0; b < 4; b++) {
            List<Record> records = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                records.add(decoder.decode("{\"r\":" + (b * 64 + i) + ",\"n\":" + i + "}"));
            }
            query.consumeBatch(records, 0, -1L);
        }
        assertTrue(query.heldBytes() > fresh + 256 * Long.BYTES, "kept: " + query.heldBytes());
        query.serialize(); // 256 groups of a record each: keeping did not pay
        query.reset();
        assertEquals(fresh, query.heldBytes());
    }

    /** 64 records: the first {@code shortKeys} with {@code field} among five numbers, the others a long key each. */
    private List<Record> zBatch(String field, int b, int shortKeys, String filler) {
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            String z = i < shortKeys ? String.valueOf(i % 5) : "\"" + (b * 64 + i) + filler + "\"";
            records.add(decoder.decode("{\"" + field + "\":" + z + ",\"n\":" + i + ",\"d\":"
                                       + ADDENDS[(b + i) % ADDENDS.length] + "}"));
        }
        return records;
    }

    /**
     * A query of a few groups over fields whose dictionary other queries filled meets ids in the thousands: what it
     * holds is room for its groups (and a number per id), not for every id below the highest.
     */
    @Test
    void aFewGroupsOfHighIdsHoldLittle() {
        String json = AGGREGATIONS[0].replace("\"k\":\"k\"", "\"h\":\"w\"");
        Aggregator filling = Aggregations.create(json);
        for (int b = 0; b < 60; b++) { // 3,840 keys: the dictionary of h nearly full
            List<Record> records = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                records.add(decoder.decode("{\"h\":" + (b * 64 + i) + "}"));
            }
            filling.consumeBatch(records, 0, -1L);
        }
        Aggregator few = Aggregations.create(json);
        Aggregator single = Aggregations.create(json);
        for (int b = 0; b < 40; b++) { // three keys of the highest ids, many records each: kept
            List<Record> records = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                records.add(decoder.decode("{\"h\":" + (3_837 + i % 3) + ",\"n\":" + i + ",\"d\":" + ADDENDS[i % 7] + "}"));
            }
            few.consumeBatch(records, 0, -1L);
            records.forEach(single::consume);
        }
        long held = few.heldBytes();
        assertTrue(held < 24 * 1024, "held " + held); // by id: 3,838 references or runs of longs, 30 KB or more
        assertArrayEquals(single.serialize(), few.serialize());
        assertEquals(single.records(), few.records());
    }

    /** 64 records whose {@code w} counts up from {@code first} (mod {@code modulus}), with sums that show their order. */
    private List<Record> wBatch(int first, int modulus) {
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            records.add(decoder.decode("{\"w\":" + (first + i) % modulus + ",\"n\":" + i + ",\"d\":"
                                       + ADDENDS[(first + i) % ADDENDS.length] + "}"));
        }
        return records;
    }

    /** A dictionary holds at most its capacity, starts a new epoch when cleared, and numbers keys from 0 again. */
    @Test
    void aDictionaryNumbersKeysWithinAnEpoch() throws InterruptedException {
        onFreshThread(this::numbersKeysWithinAnEpoch);
    }

    private void numbersKeysWithinAnEpoch() {
        BatchKeys.Cut cut = BatchKeys.Cut.of(SketchKeys.fields(List.of(NamedField.of("q", "q"))));
        List<Record> one = List.of(decoder.decode("{\"q\":1}"));
        BatchKeys.Runs runs = BatchKeys.runs(cut, one, 0, 1L);
        BatchKeys.Dictionary dictionary = BatchKeys.dictionary(cut, runs);
        dictionary.clear();
        long epoch = dictionary.epoch();
        for (int i = 0; i < BatchKeys.Dictionary.CAPACITY; i++) {
            assertEquals(i, dictionary.idOf("key" + i));
        }
        for (int i = 0; i < BatchKeys.Dictionary.CAPACITY; i++) { // the room grew from 64 keys: the ids held
            assertEquals(i, dictionary.idOf("key" + i));
        }
        assertEquals(-1, dictionary.idOf("one more"));
        dictionary.clear();
        assertTrue(dictionary.epoch() > epoch);
        assertEquals(0, dictionary.idOf("one more"));
        assertEquals(dictionary, BatchKeys.dictionary(cut, runs), "the field list's dictionary is kept");
        dictionary.clear();
        String longKey = "x".repeat(BatchKeys.Dictionary.MAX_KEY_CHARS / 4);
        for (int i = 0; i < 4; i++) {
            assertEquals(i, dictionary.idOf(i + longKey.substring(1)), "within the characters' bound");
        }
        assertEquals(-1, dictionary.idOf("y"), "past the characters' bound: full, whatever the count of keys");
        assertEquals(2, dictionary.idOf(2 + longKey.substring(1)), "a key held is still found");
    }

    /**
     * A dashboards mix in BQL cuts a GROUP's keys and a TOP K's over the same fields differently: 50 field lists make
     * 100 dictionaries, and the thread keeps them all from batch to batch (were they dropped, every kept group would go
     * to its sketch each time the lists came round).
     */
    @Test
    void aThreadKeepsTheDictionariesOfAHundredFieldListsAndCuts() throws InterruptedException {
        onFreshThread(this::keepsAHundredDictionaries);
    }

    private void keepsAHundredDictionaries() {
        List<BatchKeys.Cut> cuts = new ArrayList<>();
        for (int f = 0; f < 50; f++) {
            SketchKeys.Fields fields = SketchKeys.fields(List.of(NamedField.of("list" + f, "v")));
            cuts.add(BatchKeys.Cut.bulletCoreGroup(fields, new int[] {0}));
            cuts.add(BatchKeys.Cut.bulletCoreTopK(fields, new int[] {0}));
        }
        List<Record> one = List.of(decoder.decode("{\"q\":1}"));
        List<BatchKeys.Dictionary> first = new ArrayList<>();
        for (BatchKeys.Cut cut : cuts) {
            first.add(BatchKeys.dictionary(cut, BatchKeys.runs(cut, one, 0, 1L)));
        }
        assertEquals(cuts.size(), first.stream().distinct().count(), "a dictionary per field list and cut");
        for (int i = 0; i < cuts.size(); i++) {
            BatchKeys.Cut cut = cuts.get(i);
            assertTrue(first.get(i) == BatchKeys.dictionary(cut, BatchKeys.runs(cut, one, 0, 1L)), "kept: " + i);
        }
    }

    /**
     * A thread's dictionaries together hold at most as many keys as 64 full ones: past that a new key is refused (the
     * aggregations then feed their sketches, as for a full dictionary) until a dictionary starts again.
     */
    @Test
    void aThreadsDictionariesHoldAtMostTheirBudget() throws InterruptedException {
        onFreshThread(this::holdsAtMostTheBudget);
    }

    private void holdsAtMostTheBudget() {
        List<Record> one = List.of(decoder.decode("{\"q\":1}"));
        List<BatchKeys.Dictionary> full = new ArrayList<>();
        for (int f = 0; f < 65; f++) {
            BatchKeys.Cut cut = BatchKeys.Cut.of(SketchKeys.fields(List.of(NamedField.of("budget" + f, "v"))));
            BatchKeys.Dictionary d = BatchKeys.dictionary(cut, BatchKeys.runs(cut, one, 0, 1L));
            d.clear();
            full.add(d);
        }
        for (int f = 0; f < 64; f++) {
            for (int i = 0; i < BatchKeys.Dictionary.CAPACITY; i++) {
                assertEquals(i, full.get(f).idOf("k" + i));
            }
        }
        assertEquals(BatchKeys.Dictionary.THREAD_KEYS, BatchKeys.threadKeys());
        BatchKeys.Dictionary last = full.get(64);
        assertEquals(-1, last.idOf("k0"), "past the thread's keys: refused");
        assertTrue(!last.full(), "refused by the thread's budget, not its own bounds");
        assertEquals(7, full.get(3).idOf("k7"), "a key held is still found");
        assertEquals(BatchKeys.Dictionary.THREAD_KEYS, BatchKeys.threadKeys(), "a key found again is not counted");
        full.get(3).clear();
        assertEquals(BatchKeys.Dictionary.THREAD_KEYS - BatchKeys.Dictionary.CAPACITY, BatchKeys.threadKeys());
        assertEquals(0, last.idOf("k0"), "room again once a dictionary started again");
        assertEquals(1, last.idOf("k1"));
        assertEquals(-1, full.get(5).idOf("one more"));
        assertTrue(full.get(5).full(), "refused by its own bounds");
    }

    /**
     * When the thread drops its dictionaries (a 129th field list came), their keys no longer count against its budget,
     * and starting a dropped dictionary again does not take them off twice.
     */
    @Test
    void droppedDictionariesLeaveTheBudget() throws InterruptedException {
        onFreshThread(() -> {
            List<Record> one = List.of(decoder.decode("{\"q\":1}"));
            BatchKeys.Cut first = BatchKeys.Cut.of(SketchKeys.fields(List.of(NamedField.of("dropped0", "v"))));
            BatchKeys.Dictionary dropped = BatchKeys.dictionary(first, BatchKeys.runs(first, one, 0, 1L));
            for (int i = 0; i < 100; i++) {
                dropped.idOf("k" + i);
            }
            assertEquals(100, BatchKeys.threadKeys());
            for (int f = 1; f <= BatchKeys.DICTIONARY_SLOTS / 2; f++) { // the 129th list drops them all
                BatchKeys.Cut cut = BatchKeys.Cut.of(SketchKeys.fields(List.of(NamedField.of("dropped" + f, "v"))));
                BatchKeys.dictionary(cut, BatchKeys.runs(cut, one, 0, 1L));
            }
            assertTrue(dropped != BatchKeys.dictionary(first, BatchKeys.runs(first, one, 0, 1L)), "dropped");
            assertEquals(0, BatchKeys.threadKeys());
            dropped.clear();
            assertEquals(0, BatchKeys.threadKeys());
        });
    }

    /**
     * A GROUP with nothing kept whose key the thread's budget refuses feeds its sketch, and does not start its fields'
     * dictionary again: another query keeping groups by that dictionary's ids keeps them.
     */
    @Test
    void aKeyTheBudgetRefusesLeavesTheDictionaryToItsOtherQueries() throws InterruptedException {
        onFreshThread(() -> {
            String json = AGGREGATIONS[0].replace("\"k\":\"k\"", "\"w\":\"w\"");
            Aggregator keeping = Aggregations.create(json);
            Aggregator single = Aggregations.create(json);
            for (int b = 0; b < 4; b++) {
                List<Record> records = wBatch(b, 8); // eight groups, kept
                keeping.consumeBatch(records, 0, -1L);
                records.forEach(single::consume);
            }
            List<Record> one = List.of(decoder.decode("{\"q\":1}"));
            BatchKeys.Cut wCut = BatchKeys.Cut.of(SketchKeys.fields(List.of(NamedField.of("w", "w"))));
            BatchKeys.Dictionary w = BatchKeys.dictionary(wCut, BatchKeys.runs(wCut, one, 0, 1L));
            long epoch = w.epoch();
            assertEquals(8, BatchKeys.threadKeys(), "the thread's one dictionary holds the eight groups' keys");
            for (int f = 0; BatchKeys.threadKeys() < BatchKeys.Dictionary.THREAD_KEYS; f++) { // the budget filled
                BatchKeys.Cut cut = BatchKeys.Cut.of(SketchKeys.fields(List.of(NamedField.of("filler" + f, "v"))));
                BatchKeys.Dictionary d = BatchKeys.dictionary(cut, BatchKeys.runs(cut, one, 0, 1L));
                int i = 0;
                while (i < BatchKeys.Dictionary.CAPACITY && d.idOf("k" + i) >= 0) {
                    i++;
                }
            }
            Aggregator other = Aggregations.create(json);
            Aggregator otherSingle = Aggregations.create(json);
            List<Record> fresh = wBatch(1_000, 1_000_000); // keys the dictionary does not hold
            other.consumeBatch(fresh, 0, -1L);
            fresh.forEach(otherSingle::consume);
            assertEquals(epoch, w.epoch(), "not started again");
            for (int b = 4; b < 8; b++) {
                List<Record> records = wBatch(b, 8);
                keeping.consumeBatch(records, 0, -1L);
                records.forEach(single::consume);
            }
            assertArrayEquals(single.serialize(), keeping.serialize());
            assertArrayEquals(otherSingle.serialize(), other.serialize());
        });
    }

    /** Runs {@code test} on a thread of its own (a thread's dictionaries are its own), failing as it fails. */
    private static void onFreshThread(Runnable test) throws InterruptedException {
        Throwable[] failure = new Throwable[1];
        Thread thread = new Thread(() -> {
            try {
                test.run();
            } catch (Throwable t) {
                failure[0] = t;
            }
        });
        thread.start();
        thread.join(60_000);
        assertTrue(!thread.isAlive(), "finished");
        if (failure[0] instanceof AssertionError) {
            throw (AssertionError) failure[0];
        }
        if (failure[0] != null) {
            throw new AssertionError(failure[0]);
        }
    }
}

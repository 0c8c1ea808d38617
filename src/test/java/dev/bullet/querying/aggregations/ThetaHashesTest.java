package dev.bullet.querying.aggregations;

import dev.bullet.query.NamedField;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import dev.bullet.testing.Queries;
import org.apache.datasketches.theta.CompactSketch;
import org.apache.datasketches.theta.SetOperation;
import org.apache.datasketches.theta.Union;
import org.apache.datasketches.theta.UpdateSketch;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ThetaHashesTest {
    private static final String BY_A = "{\"type\": \"COUNT DISTINCT\", \"fields\": {\"a\": \"a\"}}";
    private final RecordDecoder decoder = new RecordDecoder();

    @Test
    void theLibrarysSketchTakesHashes() {
        assertTrue(ThetaHashes.AVAILABLE, "UpdateSketch.hashUpdate is reachable: COUNT DISTINCT keeps its hashes apart");
    }

    /** A hash handed over is what the key would have been, for byte keys and text keys, ASCII or not. */
    @Test
    void aHashHandedToASketchIsItsKey() {
        Random random = new Random(7);
        UpdateSketch byKeys = UpdateSketch.builder().setNominalEntries(64).build();
        UpdateSketch byHashes = UpdateSketch.builder().setNominalEntries(64).build();
        for (int i = 0; i < 5_000; i++) {
            String key = randomText(random);
            if (random.nextBoolean()) {
                byKeys.update(key);
                ThetaHashes.update(byHashes, ThetaHashes.of(key));
            } else {
                byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
                byKeys.update(bytes);
                ThetaHashes.update(byHashes, ThetaHashes.of(bytes));
            }
        }
        assertTrue(byKeys.isEstimationMode());
        assertArrayEquals(byKeys.compact(true, null).toByteArray(), byHashes.compact(true, null).toByteArray());
    }

    @Test
    void sortsWithoutRepeats() {
        Random random = new Random(11);
        for (int n : new int[] {0, 1, 2, 47, 48, 49, 100, 1000, 16_384, 40_000}) {
            for (int range : new int[] {1, 10, n + 1, Integer.MAX_VALUE}) {
                long[] hashes = new long[n];
                TreeSet<Long> expected = new TreeSet<>();
                for (int i = 0; i < n; i++) {
                    long h = range == Integer.MAX_VALUE ? random.nextLong() >>> 1
                            : (random.nextInt(range) * 0x9E3779B97F4A7C15L) >>> 1;
                    hashes[i] = h;
                    expected.add(h);
                }
                hashes = Arrays.copyOf(hashes, n + 5); // slots past n are not the caller's
                int d = ThetaHashes.sortDistinct(hashes, n);
                assertEquals(expected.size(), d, n + " in " + range);
                assertArrayEquals(expected.stream().mapToLong(Long::longValue).toArray(), Arrays.copyOf(hashes, d));
            }
        }
    }

    /** Written compact bytes equal the library's for one hash, two, and many, up to the nominal entries. */
    @Test
    void compactBytesAreTheLibrarys() {
        Random random = new Random(3);
        for (int n : new int[] {1, 2, 3, 50, 4_096, 16_384}) {
            UpdateSketch sketch = UpdateSketch.builder().setNominalEntries(16_384).build();
            long[] hashes = new long[n];
            for (int i = 0; i < n; i++) {
                byte[] key = ("k" + random.nextLong()).getBytes(StandardCharsets.UTF_8);
                sketch.update(key);
                hashes[i] = ThetaHashes.of(key);
            }
            int d = ThetaHashes.sortDistinct(hashes, n);
            assertArrayEquals(sketch.compact(true, null).toByteArray(), ThetaHashes.compactBytes(hashes, d), n + "");
        }
    }

    /**
     * The aggregator's partials, rows and metadata equal those of one sketch fed every key in order (the aggregator
     * before it kept hashes apart): for nominal entries below, at and above the kept capacity, keys of few and of many
     * values, records read lazily and decoded, one by one and a batch at a time, over partials of every size, with
     * reads of the rows between keys.
     */
    @Test
    void partialsAreThoseOfOneSketchFedEveryKey() {
        Random random = new Random(5);
        SketchKeys.Fields keys = SketchKeys.fields(List.of(NamedField.of("a", "a")));
        for (int entries : new int[] {16, 100, 1000, 16_384, 65_536}) {
            QuerySettings settings = Queries.withSketchEntries(entries, 16, 16, 16);
            Aggregator cd = Aggregations.create(BY_A, settings);
            for (int partial = 0; partial < 12; partial++) {
                UpdateSketch expected = UpdateSketch.builder().setNominalEntries(entries).build();
                int n = random.nextInt(4) == 0 ? random.nextInt(5) : random.nextInt(3 * Math.min(entries, 20_000));
                int cardinality = 1 + random.nextInt(random.nextBoolean() ? 50 : 100_000);
                List<Record> batch = new ArrayList<>();
                boolean peeked = false;
                for (int i = 0; i < n; i++) {
                    Record record = record(random, cardinality);
                    expected.update(SketchKeys.keyOf(keys, record));
                    if (random.nextInt(3) == 0) {
                        cd.consume(record);
                    } else {
                        batch.add(record);
                        if (batch.size() == 64 || random.nextInt(40) == 0) {
                            cd.consumeBatch(batch, 0, batch.size() == 64 ? -1L : (1L << batch.size()) - 1);
                            batch.clear();
                        }
                    }
                    if (!peeked && random.nextInt(20_000) == 0) { // the sketch read mid-partial
                        peeked = true;
                        cd.consumeBatch(batch, 0, batch.isEmpty() ? 0 : (1L << batch.size()) - 1);
                        batch.clear();
                        assertEquals(rowOf(expected, entries), cd.records().get(0).get("COUNT DISTINCT"));
                    }
                }
                if (!batch.isEmpty()) {
                    cd.consumeBatch(batch, 0, (1L << batch.size()) - 1);
                }
                String where = entries + " entries, partial " + partial + ", " + n + " keys of " + cardinality;
                assertArrayEquals(partialOf(expected, entries), cd.serialize(), where);
                assertEquals(rowOf(expected, entries), cd.records().get(0).get("COUNT DISTINCT"), where);
                cd.reset();
            }
        }
    }

    private Record record(Random random, int cardinality) {
        int v = random.nextInt(cardinality);
        String json;
        switch (random.nextInt(4)) {
            case 0:
                json = "{\"a\":" + v + "}";
                break;
            case 1:
                json = "{\"a\":\"v" + v + "\"}";
                break;
            case 2:
                json = "{\"a\":\"caf\u00e9" + v + "\"}";
                break;
            default:
                json = "{\"a\":" + v + ".5}";
                break;
        }
        return random.nextBoolean() ? decoder.decode(json.getBytes(StandardCharsets.UTF_8)) : decoder.decode(json);
    }

    /** The partial the aggregator wrote when it fed its sketch key by key. */
    private static byte[] partialOf(UpdateSketch sketch, int entries) {
        if (!sketch.isEstimationMode() && sketch.getRetainedEntries(true) <= entries) {
            return sketch.compact(true, null).toByteArray();
        }
        return merged(sketch, entries).toByteArray();
    }

    private static Object rowOf(UpdateSketch sketch, int entries) {
        CompactSketch result = merged(sketch, entries);
        return result.isEstimationMode() ? (Object) result.getEstimate() : (Object) Math.round(result.getEstimate());
    }

    private static CompactSketch merged(UpdateSketch sketch, int entries) {
        Union none = SetOperation.builder().setNominalEntries(entries).buildUnion();
        Union u = SetOperation.builder().setNominalEntries(entries).buildUnion();
        u.union(none.getResult());
        u.union(sketch);
        return u.getResult();
    }

    private static String randomText(Random random) {
        StringBuilder text = new StringBuilder();
        int length = 1 + random.nextInt(12);
        for (int i = 0; i < length; i++) {
            text.append(random.nextInt(4) == 0 ? (char) (0x80 + random.nextInt(0x2000)) : (char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }
}

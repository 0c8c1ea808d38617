package dev.bullet.querying.aggregations;

import dev.bullet.record.Record;
import dev.bullet.testing.Queries;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Aggregator#heldBytes()}: grows with what is kept, never far below it, and drops on reset. */
class HeldBytesTest {
    private static final String GROUP_BY_K = "{\"type\": \"GROUP\", \"size\": 500, \"fields\": {\"k\": \"k\"},"
                                             + " \"attributes\": {\"operations\": [{\"type\": \"COUNT\"}]}}";

    private static List<Record> keyed(int n, int keyLength) {
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            records.add(Records.of("k", i + "-" + "k".repeat(keyLength)).build());
        }
        return records;
    }

    @Test
    void rawRowsCountTheirJsonAndAnOverheadEach() {
        RawAggregator raw = new RawAggregator(10);
        byte[] row = "{\"a\":\"0123456789\"}".getBytes(StandardCharsets.UTF_8);
        raw.addJson(row);
        raw.addJson(row);
        assertEquals(2 * (row.length + HeapEstimate.ROW_OVERHEAD), raw.heldBytes());
        assertEquals(row.length + HeapEstimate.ROW_OVERHEAD, RawAggregator.rowBytes(row));

        raw.reset();
        assertEquals(0, raw.heldBytes());
    }

    @Test
    void rawRowsHeldAsMapsCountAtLeastTheirJson() {
        RawAggregator raw = new RawAggregator(10);
        Record record = Records.of("id", "x".repeat(5_000), "n", 5L).build();
        raw.consume(record);
        assertTrue(raw.heldBytes() >= record.asMap().toString().length(), "held " + raw.heldBytes());
    }

    @Test
    void rawRowsCombinedAtTheJoinAreCounted() {
        RawAggregator filter = new RawAggregator(100);
        keyed(10, 1_000).forEach(filter::consume);
        RawAggregator join = new RawAggregator(100);
        join.combine(filter.serialize());
        assertTrue(join.heldBytes() >= 10 * 1_000, "held " + join.heldBytes());
    }

    @Test
    void groupsCountTheirKeysOnBothSides() {
        Aggregator small = Aggregations.consumeAll(Aggregations.create(GROUP_BY_K), keyed(100, 10));
        Aggregator large = Aggregations.consumeAll(Aggregations.create(GROUP_BY_K), keyed(100, 10_000));
        assertTrue(large.heldBytes() >= 100 * 10_000, "held " + large.heldBytes());
        assertTrue(small.heldBytes() < large.heldBytes() / 10);

        Aggregator join = Aggregations.create(GROUP_BY_K);
        join.combine(large.serialize());
        assertTrue(join.heldBytes() >= 100 * 10_000, "held at the Join " + join.heldBytes());

        large.reset();
        assertEquals(HeapEstimate.FIXED, large.heldBytes());
    }

    @Test
    void topKCountsItsItemsKeys() {
        Aggregator topK = Aggregations.consumeAll(
            Aggregations.create("{\"type\": \"TOP K\", \"size\": 10, \"fields\": {\"k\": \"k\"}}"), keyed(50, 5_000));
        assertTrue(topK.heldBytes() >= 50 * 5_000, "held " + topK.heldBytes());
    }

    @Test
    void countDistinctIsBoundedByItsSketchWhateverItsKeys() {
        Aggregator distinct = Aggregations.consumeAll(
            Aggregations.create("{\"type\": \"COUNT DISTINCT\", \"fields\": {\"k\": \"k\"}}",
                                Queries.withSketchEntries(16, 16, 128, 8)),
            keyed(2_000, 1_000));
        assertTrue(distinct.heldBytes() < 64 * 1024, "held " + distinct.heldBytes());
    }

    @Test
    void distributionStaysSmall() {
        Aggregator distribution = Aggregations.create(
            "{\"type\": \"DISTRIBUTION\", \"fields\": {\"n\": \"n\"}, \"attributes\": {\"type\": \"QUANTILE\","
            + " \"points\": [0.5]}}");
        for (long i = 0; i < 10_000; i++) {
            distribution.consume(Records.of("n", i).build());
        }
        assertTrue(distribution.heldBytes() > HeapEstimate.FIXED && distribution.heldBytes() < 64 * 1024,
                   "held " + distribution.heldBytes());
    }
}

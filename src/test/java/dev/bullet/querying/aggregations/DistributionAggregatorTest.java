package dev.bullet.querying.aggregations;

import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.testing.Queries;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DistributionAggregatorTest {

    private static String distribution(String attributes) {
        return "{\"type\": \"DISTRIBUTION\", \"fields\": {\"v\": \"v\"}, \"attributes\": {" + attributes + "}}";
    }

    /** v = 1..10, plus records the distribution must skip. */
    private static List<Record> oneToTen() {
        List<Record> records = new ArrayList<>();
        for (long i = 10; i >= 1; i--) {
            records.add(Records.of("v", i % 2 == 0 ? (Object) (double) i : (Object) i).build());
        }
        records.add(Records.of("v", "7").build());
        records.add(Records.of("v", null).build());
        records.add(Records.of("w", 3L).build());
        return records;
    }

    private static List<Map<String, Object>> rows(String attributes) {
        return Aggregations.consumeAll(Aggregations.create(distribution(attributes)), oneToTen()).records();
    }

    @Test
    void quantilesAtExplicitPoints() {
        // exclusive ranks (the original Bullet's): the q-quantile is the smallest value with more than q*n values at or below it
        assertEquals(List.of(mapOf("Quantile", 0.0, "Value", 1.0), mapOf("Quantile", 0.25, "Value", 3.0),
                             mapOf("Quantile", 0.5, "Value", 6.0), mapOf("Quantile", 1.0, "Value", 10.0)),
                     rows("\"type\": \"QUANTILE\", \"points\": [0.5, 0, 1, 0.25]"));
    }

    @Test
    void quantilesAtEvenlySpacedPoints() {
        assertEquals(List.of(mapOf("Quantile", 0.0, "Value", 1.0), mapOf("Quantile", 0.5, "Value", 6.0), mapOf("Quantile", 1.0, "Value", 10.0)),
                     rows("\"type\": \"QUANTILE\", \"numberOfPoints\": 3"));
    }

    @Test
    void pmfCountsEachRange() {
        assertEquals(List.of(mapOf("Range", "(-\u221e to 3.0)", "Count", 2.0, "Probability", 0.2),
                             mapOf("Range", "[3.0 to 7.0)", "Count", 4.0, "Probability", 0.4),
                             mapOf("Range", "[7.0 to +\u221e)", "Count", 4.0, "Probability", 0.4)),
                     rows("\"type\": \"PMF\", \"points\": [7, 3]"));
    }

    @Test
    void cdfCountsEverythingBelowEachPoint() {
        assertEquals(List.of(mapOf("Range", "(-\u221e to 3.0)", "Count", 2.0, "Probability", 0.2),
                             mapOf("Range", "(-\u221e to 7.0)", "Count", 6.0, "Probability", 0.6),
                             mapOf("Range", "(-\u221e to +\u221e)", "Count", 10.0, "Probability", 1.0)),
                     rows("\"type\": \"CDF\", \"points\": [3, 7]"));
    }

    @Test
    void pmfAtEvenlySpacedPointsSpansTheDataRange() {
        // 3 points over [1, 10]: 1, 5.5, 10
        assertEquals(List.of(mapOf("Range", "(-\u221e to 1.0)", "Count", 0.0, "Probability", 0.0),
                             mapOf("Range", "[1.0 to 5.5)", "Count", 5.0, "Probability", 0.5),
                             mapOf("Range", "[5.5 to 10.0)", "Count", 4.0, "Probability", 0.4),
                             mapOf("Range", "[10.0 to +\u221e)", "Count", 1.0, "Probability", 0.1)),
                     rows("\"type\": \"PMF\", \"numberOfPoints\": 3"));
    }

    @Test
    void pointsSpreadOverARangeNoDoubleHoldsGiveNoRows() {
        // bullet-core's points are then NaN or repeated infinities, which its sketch refuses: its answer has no rows
        List<Record> wide = List.of(Records.of("v", -1.7e308).build(), Records.of("v", 1.7e308).build());
        List<Record> infinite = List.of(Records.of("v", 1.0).build(), Records.of("v", Double.POSITIVE_INFINITY).build());
        for (String type : List.of("PMF", "CDF")) {
            for (List<Record> records : List.of(wide, infinite)) {
                String attributes = "\"type\": \"" + type + "\", \"numberOfPoints\": 3";
                assertEquals(List.of(), Aggregations.consumeAll(Aggregations.create(distribution(attributes)), records)
                        .records(), type + " over " + records);
            }
        }
        // one point may be infinite: every value seen is +Infinity
        List<Record> allInfinite = List.of(Records.of("v", Double.POSITIVE_INFINITY).build());
        List<Map<String, Object>> rows = Aggregations.consumeAll(
                Aggregations.create(distribution("\"type\": \"CDF\", \"numberOfPoints\": 3")), allInfinite).records();
        assertEquals(2, rows.size(), rows.toString());
        assertEquals(1.0, rows.get(1).get("Count"), rows.toString());
        // quantiles spread over [0, 1] whatever the data
        assertEquals(3, Aggregations.consumeAll(Aggregations.create(distribution("\"type\": \"QUANTILE\", \"numberOfPoints\": 3")),
                                                wide).records().size());
    }

    @Test
    void pointsFromStartEndIncrement() {
        List<Map<String, Object>> rows = rows("\"type\": \"CDF\", \"start\": 0, \"end\": 10, \"increment\": 5");
        assertEquals(List.of("(-\u221e to 0.0)", "(-\u221e to 5.0)", "(-\u221e to 10.0)", "(-\u221e to +\u221e)"),
                     rows.stream().map(r -> r.get("Range")).toList());
        assertEquals(List.of(0.0, 4.0, 9.0, 10.0), rows.stream().map(r -> r.get("Count")).toList());
    }

    @Test
    void noNumericValuesMeansNoRows() {
        Aggregator d = Aggregations.create(distribution("\"type\": \"QUANTILE\", \"points\": [0.5]"));
        d.consume(Records.of("v", "x").build());
        assertTrue(d.isEmpty());
        assertEquals(List.of(), d.records());
        assertEquals(0L, d.sketchMetadata().get("items_seen"));
    }

    @Test
    void metadataDescribesTheSketch() {
        Aggregator d = Aggregations.consumeAll(Aggregations.create(distribution("\"type\": \"PMF\", \"points\": [5]")), oneToTen());
        Map<String, Object> meta = d.sketchMetadata();
        assertEquals(false, meta.get("was_estimated"));
        assertEquals("QUANTILES", meta.get("family"));
        assertEquals(1.0, meta.get("minimum_value"));
        assertEquals(10.0, meta.get("maximum_value"));
        assertEquals(10L, meta.get("items_seen"));
        assertTrue((Double) meta.get("normalized_rank_error") > 0);
    }

    @Test
    void partialsMergeExactlyBelowTheCapacity() {
        String json = distribution("\"type\": \"QUANTILE\", \"points\": [0, 0.25, 0.5, 0.75, 1]");
        List<Record> records = oneToTen();
        Aggregator a = Aggregations.consumeAll(Aggregations.create(json), records.subList(0, 5));
        Aggregator b = Aggregations.consumeAll(Aggregations.create(json), records.subList(5, records.size()));
        Aggregator join = Aggregations.create(json);
        join.combine(a.serialize());
        join.combine(b.serialize());
        assertEquals(Aggregations.consumeAll(Aggregations.create(json), records).records(), join.records());
    }

    @Test
    void beyondTheCapacityQuantilesAreWithinTheRankError() {
        QuerySettings small = Queries.withSketchEntries(16, 16, 16, 16);
        Aggregator d = Aggregations.create(distribution("\"type\": \"QUANTILE\", \"points\": [0.1, 0.5, 0.9]"), small);
        int n = 10_000;
        for (long i = 0; i < n; i++) {
            d.consume(Records.of("v", (i * 7919) % n).build());
        }
        Map<String, Object> meta = d.sketchMetadata();
        assertEquals(true, meta.get("was_estimated"));
        double epsilon = (Double) meta.get("normalized_rank_error");
        for (Map<String, Object> row : d.records()) {
            double q = (Double) row.get("Quantile");
            double value = (Double) row.get("Value");
            // values are 0..n-1 once each: the true rank of v is v / n
            assertTrue(Math.abs(value / n - q) <= epsilon, row + " rank error " + epsilon);
        }
    }
}

package dev.bullet.querying.aggregations;

import dev.bullet.query.NamedField;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.testing.Queries;
import dev.bullet.testing.Records;
import org.apache.datasketches.theta.SetOperation;
import org.apache.datasketches.theta.Union;
import org.apache.datasketches.theta.UpdateSketch;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CountDistinctAggregatorTest {
    private static final String BY_AB = "{\"type\": \"COUNT DISTINCT\", \"fields\": {\"a\": \"a\", \"b\": \"b\"}}";

    @Test
    void countsDistinctCombinationsOfTheFields() {
        Aggregator cd = Aggregations.create(BY_AB);
        cd.consume(Records.of("a", "x", "b", 1L).build());
        cd.consume(Records.of("a", "x", "b", 1L).build());
        cd.consume(Records.of("a", "x", "b", 2L).build());
        cd.consume(Records.of("a", "y", "b", 1L).build());
        cd.consume(Records.of("a", "y").build());
        cd.consume(Records.of("a", "y", "b", null).build());
        cd.consume(Records.of("a", "y", "b", "1").build());
        cd.consume(Records.of("a", "y", "b", 1.0).build());
        // (x,1) (x,2) (y,1) (y,null) (y,"1") (y,1.0): a missing field and a null count as the same value
        assertEquals(List.of(mapOf("COUNT DISTINCT", 6L)), cd.records());
        assertInstanceOf(Long.class, cd.records().get(0).get("COUNT DISTINCT"));
    }

    /**
     * An exact sketch is serialised without a union: the bytes must be those of the union of it (what the partial is
     * defined as, and what a sketch past its nominal entries still goes through), for every size up to the capacity,
     * one key, none, and only keys the sketch rejects.
     */
    @Test
    void anExactPartialHasTheBytesOfItsUnion() {
        int entries = QuerySettings.defaults().countDistinctEntries();
        SketchKeys.Fields keys = SketchKeys.fields(List.of(NamedField.of("a", "a")));
        for (int n : new int[] {0, 1, 2, 3, 17, 1000, entries - 1, entries, entries + 1, 2 * entries, 5 * entries}) {
            Aggregator cd = Aggregations.create("{\"type\": \"COUNT DISTINCT\", \"fields\": {\"a\": \"a\"}}");
            UpdateSketch expected = UpdateSketch.builder().setNominalEntries(entries).build();
            for (int i = 0; i < n; i++) {
                Record record = Records.of("a", "k" + (i * 7919L % 1_000_003L)).build();
                cd.consume(record);
                expected.update(SketchKeys.keyOf(keys, record));
                if (i % 3 == 0) { // a repeat changes nothing
                    cd.consume(record);
                }
            }
            Union union = SetOperation.builder().setNominalEntries(entries).buildUnion();
            union.union(expected);
            assertArrayEquals(union.getResult().toByteArray(), cd.serialize(), n + " keys");
            cd.reset();
            Union empty = SetOperation.builder().setNominalEntries(entries).buildUnion();
            assertArrayEquals(empty.getResult().toByteArray(), cd.serialize(), "after a reset, " + n);
        }
    }

    @Test
    void aPartialAfterCombiningIsTheUnionOfBoth() {
        Aggregator filter = Aggregations.create(BY_AB);
        filter.consume(Records.of("a", "x", "b", 1L).build());
        Aggregator join = Aggregations.create(BY_AB);
        join.combine(filter.serialize());
        join.consume(Records.of("a", "y", "b", 1L).build());
        join.consume(Records.of("a", "x", "b", 1L).build());
        Aggregator reread = Aggregations.create(BY_AB);
        reread.combine(join.serialize());
        assertEquals(List.of(mapOf("COUNT DISTINCT", 2L)), reread.records());
    }

    @Test
    void newNameNamesTheColumn() {
        Aggregator cd = Aggregations.create("{\"type\": \"COUNT DISTINCT\", \"fields\": {\"a\": \"a\"}, \"attributes\": {\"newName\": \"uniques\"}}");
        cd.consume(Records.of("a", 1L).build());
        assertEquals(List.of(mapOf("uniques", 1L)), cd.records());
    }

    @Test
    void noRecordsCountsZero() {
        Aggregator cd = Aggregations.create(BY_AB);
        assertTrue(cd.isEmpty());
        assertEquals(List.of(mapOf("COUNT DISTINCT", 0L)), cd.records());
    }

    @Test
    void exactBelowTheCapacity() {
        Aggregator cd = Aggregations.create(BY_AB);
        for (long i = 0; i < 1000; i++) {
            cd.consume(Records.of("a", i, "b", i % 7).build());
        }
        assertEquals(List.of(mapOf("COUNT DISTINCT", 1000L)), cd.records());
        Map<String, Object> meta = cd.sketchMetadata();
        assertEquals(false, meta.get("was_estimated"));
        assertEquals(1.0, meta.get("theta"));
        assertEquals(1000.0, meta.get("uniques_estimate"));
        assertEquals("COMPACT", meta.get("family"));
    }

    @Test
    void beyondTheCapacityTheEstimateIsWithinTheReportedBounds() {
        QuerySettings small = Queries.withSketchEntries(16, 16, 16, 16);
        Aggregator cd = Aggregations.create(BY_AB, small);
        for (long i = 0; i < 5000; i++) {
            cd.consume(Records.of("a", i, "b", "x").build());
        }
        Object estimate = cd.records().get(0).get("COUNT DISTINCT");
        assertInstanceOf(Double.class, estimate, "an estimate is not a whole count");
        Map<String, Object> meta = cd.sketchMetadata();
        assertEquals(true, meta.get("was_estimated"));
        assertTrue((Double) meta.get("theta") < 1.0);
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Double>> sd = (Map<String, Map<String, Double>>) meta.get("standard_deviations");
        assertTrue(sd.get("3").get("lowerBound") <= 5000 && 5000 <= sd.get("3").get("upperBound"), sd.toString());
        assertTrue(sd.get("1").get("lowerBound") <= (Double) estimate && (Double) estimate <= sd.get("1").get("upperBound"));
    }

    @Test
    void bqlsEstimateIsRoundedAsBulletCoresIs() {
        QuerySettings small = Queries.withSketchEntries(16, 16, 16, 16);
        Aggregator cd = Aggregations.create("{\"type\": \"COUNT DISTINCT\", \"fields\": {\"a\": \"a\"},"
                                            + " \"attributes\": {\"groupValuesAsStrings\": true}}", small);
        for (long i = 0; i < 5000; i++) {
            cd.consume(Records.of("a", i).build());
        }
        assertEquals(true, cd.sketchMetadata().get("was_estimated"));
        Object estimate = cd.records().get(0).get("COUNT DISTINCT");
        assertInstanceOf(Long.class, estimate, "bullet-core's count is Math.round of its estimate");
        assertEquals(Math.round((Double) cd.sketchMetadata().get("uniques_estimate")), estimate);
    }

    @Test
    void partialsMerge() {
        Aggregator a = Aggregations.create(BY_AB);
        Aggregator b = Aggregations.create(BY_AB);
        for (long i = 0; i < 100; i++) {
            a.consume(Records.of("a", i, "b", 0L).build());
            b.consume(Records.of("a", i + 50, "b", 0L).build());
        }
        Aggregator join = Aggregations.create(BY_AB);
        join.combine(a.serialize());
        join.combine(b.serialize());
        assertEquals(List.of(mapOf("COUNT DISTINCT", 150L)), join.records());
    }
}

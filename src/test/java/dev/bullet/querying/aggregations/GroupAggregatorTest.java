package dev.bullet.querying.aggregations;

import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.testing.Queries;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GroupAggregatorTest {
    private static final String METRICS = "\"attributes\": {\"operations\": [{\"type\": \"COUNT\"}, {\"type\": \"SUM\", \"field\": \"v\"},"
            + " {\"type\": \"MIN\", \"field\": \"v\"}, {\"type\": \"MAX\", \"field\": \"v\"}, {\"type\": \"AVG\", \"field\": \"v\"}]}";
    private static final String BY_COLOR = "{\"type\": \"GROUP\", \"fields\": {\"color\": \"c\"}, " + METRICS + "}";

    private static final List<Record> RECORDS = List.of(
            Records.of("color", "red", "v", 1L).build(),
            Records.of("color", "red", "v", 4L).build(),
            Records.of("color", "blue", "v", 2.5).build(),
            Records.of("color", "red", "v", "not a number").build(),
            Records.of("color", "blue").build(),
            Records.of("color", "blue", "v", null).build(),
            Records.of("v", 10L).build());

    @Test
    void oneRowPerGroupWithItsMetrics() {
        Aggregator group = Aggregations.consumeAll(Aggregations.create(BY_COLOR), RECORDS);
        List<Map<String, Object>> rows = group.records();
        assertEquals(Set.of(
                mapOf("c", "blue", "COUNT", 3L, "SUM_v", 2.5, "MIN_v", 2.5, "MAX_v", 2.5, "AVG_v", 2.5),
                mapOf("c", "red", "COUNT", 3L, "SUM_v", 5L, "MIN_v", 1L, "MAX_v", 4L, "AVG_v", 2.5),
                mapOf("c", null, "COUNT", 1L, "SUM_v", 10L, "MIN_v", 10L, "MAX_v", 10L, "AVG_v", 10.0)),
                new HashSet<>(rows));
        assertEquals(3, rows.size());
        assertEquals(List.of("c", "COUNT", "SUM_v", "MIN_v", "MAX_v", "AVG_v"), List.copyOf(rows.get(0).keySet()));
    }

    @Test
    void sumStaysWholeWhileEveryValueIsWholeAndMixesToDouble() {
        Aggregator group = Aggregations.create("{\"type\": \"GROUP\", \"attributes\": {\"operations\": [{\"type\": \"SUM\", \"field\": \"v\"}]}}");
        group.consume(Records.of("v", 2L).build());
        group.consume(Records.of("v", 3L).build());
        assertInstanceOf(Long.class, group.records().get(0).get("SUM_v"));
        group.consume(Records.of("v", 0.5).build());
        assertEquals(5.5, group.records().get(0).get("SUM_v"));
    }

    @Test
    void metricsWithoutAnyUsableValueAreNull() {
        Aggregator group = Aggregations.consumeAll(Aggregations.create(BY_COLOR), List.of(Records.of("color", "x", "v", "text").build()));
        assertEquals(List.of(mapOf("c", "x", "COUNT", 1L, "SUM_v", null, "MIN_v", null, "MAX_v", null, "AVG_v", null)), group.records());
    }

    @Test
    void groupsBySeveralAndNestedFields() {
        Aggregator group = Aggregations.create("{\"type\": \"GROUP\", \"fields\": {\"a\": \"a\", \"m.b\": \"b\"},"
                                               + " \"attributes\": {\"operations\": [{\"type\": \"COUNT\", \"newName\": \"n\"}]}}");
        Aggregations.consumeAll(group, List.of(
                Records.of("a", 1L).map("m", "b", "x").build(),
                Records.of("a", 1L).map("m", "b", "x").build(),
                Records.of("a", 1L).map("m", "b", "y").build(),
                Records.of("a", 1.0).map("m", "b", "x").build()));
        Set<Map<String, Object>> rows = new HashSet<>(group.records());
        assertEquals(Set.of(mapOf("a", 1L, "b", "x", "n", 2L), mapOf("a", 1L, "b", "y", "n", 1L), mapOf("a", 1.0, "b", "x", "n", 1L)), rows);
    }

    @Test
    void fieldsWithoutOperationsAreDistinct() {
        Aggregator distinct = Aggregations.create("{\"type\": \"GROUP\", \"fields\": {\"color\": \"color\"}}");
        Aggregations.consumeAll(distinct, RECORDS);
        Set<Map<String, Object>> rows = new HashSet<>(distinct.records());
        assertEquals(Set.of(mapOf("color", "red"), mapOf("color", "blue"), mapOf("color", null)), rows);
    }

    @Test
    void atMostSizeGroupsAreEmitted() {
        Aggregator group = Aggregations.create("{\"type\": \"GROUP\", \"size\": 2, \"fields\": {\"i\": \"i\"}}");
        for (long i = 0; i < 10; i++) {
            group.consume(Records.of("i", i).build());
        }
        assertEquals(2, group.records().size());
        assertEquals(10.0, group.sketchMetadata().get("uniques_estimate"));
    }

    @Test
    void exactBelowTheSketchCapacity() {
        Aggregator group = Aggregations.create(BY_COLOR);
        Aggregations.consumeAll(group, RECORDS);
        Map<String, Object> meta = group.sketchMetadata();
        assertEquals(false, meta.get("was_estimated"));
        assertEquals("TUPLE", meta.get("family"));
        assertEquals(1.0, meta.get("theta"));
        assertEquals(3.0, meta.get("uniques_estimate"));
        assertEquals(3, meta.get("size"));
        assertTrue(meta.containsKey("standard_deviations"));
    }

    @Test
    void beyondTheSketchCapacityGroupsAreASampleMarkedEstimated() {
        QuerySettings small = Queries.withSketchEntries(16, 16, 16, 16);
        Aggregator group = Aggregations.create("{\"type\": \"GROUP\", \"fields\": {\"i\": \"i\"}, \"attributes\": {\"operations\": [{\"type\": \"COUNT\"}]}}", small);
        for (long i = 0; i < 1000; i++) {
            group.consume(Records.of("i", i % 200).build());
        }
        Map<String, Object> meta = group.sketchMetadata();
        assertEquals(true, meta.get("was_estimated"));
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Double>> sd = (Map<String, Map<String, Double>>) meta.get("standard_deviations");
        assertTrue(sd.get("3").get("lowerBound") <= 200 && 200 <= sd.get("3").get("upperBound"), sd.toString());
        List<Map<String, Object>> rows = group.records();
        assertTrue(rows.size() >= 16 && rows.size() <= 32, "about the sketch's nominal entries, got " + rows.size());
        for (Map<String, Object> row : rows) {
            assertEquals(5L, row.get("COUNT"), "a sampled group's metrics are exact: " + row);
        }
    }

    @Test
    void partialsRoundTrip() {
        Aggregator source = Aggregations.consumeAll(Aggregations.create(BY_COLOR), RECORDS);
        Aggregator target = Aggregations.roundTrip(BY_COLOR, QuerySettings.defaults(), source);
        assertEquals(source.records(), target.records());
    }

    /**
     * A partial carries each group's values and metrics with their types: longs at their limits, -0.0, huge and
     * infinite doubles, booleans, missing values, non-ASCII text, maps and lists (grouped as their JSON text).
     */
    @Test
    void partialsCarryEveryKindOfValueWithItsType() {
        String json = "{\"type\": \"GROUP\", \"size\": 100, \"fields\": {\"g\": \"g\", \"h\": \"h\"}, " + METRICS + "}";
        List<Object> groups = Arrays.asList("r\u00e9sum\u00e9 \u20ac \uD83D\uDE00", "", Long.MIN_VALUE, Long.MAX_VALUE,
            -0.0, 0.0, 1e300, Double.MIN_VALUE, true, false, null, Map.of("a", 1L), List.of("x", 2L), "[\"x\",2]");
        List<Object> metrics = Arrays.asList(Long.MAX_VALUE, 1L, -0.0, 1e308, 1e308, Long.MIN_VALUE, -1L, 2.5, null, "x");
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            for (int j = 0; j < metrics.size(); j += 1 + i % 3) {
                Records b = Records.of("v", metrics.get(j));
                if (groups.get(i) != null) {
                    b = Records.of("g", groups.get(i), "h", i % 2 == 0 ? "even" : (Object) (long) i, "v", metrics.get(j));
                }
                records.add(b.build());
            }
        }
        Aggregator source = Aggregations.consumeAll(Aggregations.create(json), records);
        List<Map<String, Object>> rows = source.records();
        assertTrue(rows.size() >= groups.size() - 1, rows.toString());
        assertTrue(rows.stream().anyMatch(r -> Double.valueOf(Double.POSITIVE_INFINITY).equals(r.get("SUM_v"))), rows.toString());
        Aggregator target = Aggregations.roundTrip(json, QuerySettings.defaults(), source);
        assertEquals(rows, target.records()); // Map.equals: a Long is not a Double, -0.0 is not 0.0
        Aggregator twice = Aggregations.roundTrip(json, QuerySettings.defaults(), target);
        assertEquals(rows, twice.records());
    }

    /** MIN and MAX compare longs exactly and anything else as doubles (-0.0 below 0); the winner keeps its type. */
    @Test
    void minAndMaxKeepTheWinnersType() {
        List<Record> records = List.of(Records.of("v", 3L).build(), Records.of("v", 2.5).build(),
            Records.of("v", -0.0).build(), Records.of("v", 0L).build(), Records.of("v", Long.MAX_VALUE).build(),
            Records.of("v", Long.MAX_VALUE - 1).build(), Records.of("v", -5L).build());
        String json = "{\"type\": \"GROUP\", " + METRICS + "}";
        Map<String, Object> row = Aggregations.consumeAll(Aggregations.create(json), records).records().get(0);
        assertEquals(-5L, row.get("MIN_v"), "a long below a double minimum takes its place, as a long");
        assertEquals(Long.MAX_VALUE, row.get("MAX_v"));
        Map<String, Object> firstFour = Aggregations.consumeAll(Aggregations.create(json), records.subList(0, 4)).records().get(0);
        assertEquals(-0.0, firstFour.get("MIN_v"), "-0.0 is below 0");
        assertEquals(3L, firstFour.get("MAX_v"));
        assertInstanceOf(Double.class, row.get("SUM_v"), "a double in the sum makes it a double");
        Aggregator a = Aggregations.consumeAll(Aggregations.create(json), records.subList(0, 3));
        Aggregator b = Aggregations.consumeAll(Aggregations.create(json), records.subList(3, records.size()));
        Aggregator join = Aggregations.create(json);
        join.combine(b.serialize());
        join.combine(a.serialize());
        assertEquals(row, join.records().get(0), "merged in another order, the same row");
    }

    @Test
    void manyPartialsMergedInAnyOrderEqualOnePassAndLeaveEachOtherAlone() {
        // the Join's union merges each group's metrics in place: every partial, every earlier result and the other
        // Join fed the same bytes must be unaffected
        Random random = new Random(3);
        String[] colors = {"red", "blue", "green", "cyan"};
        Aggregator single = Aggregations.create(BY_COLOR);
        List<byte[]> partials = new ArrayList<>();
        for (int p = 0; p < 12; p++) {
            Aggregator filter = Aggregations.create(BY_COLOR);
            for (int i = 0; i < 50; i++) {
                Object v = random.nextInt(4) == 0 ? (Object) (random.nextInt(100) / 4.0) : (Object) (long) random.nextInt(1000);
                Record r = Records.of("color", colors[random.nextInt(colors.length)], "v", v).build();
                filter.consume(r);
                single.consume(r);
            }
            partials.add(filter.serialize());
        }
        Aggregator inOrder = Aggregations.create(BY_COLOR);
        List<Map<String, Object>> afterFirst = null;
        for (byte[] partial : partials) {
            inOrder.combine(partial);
            if (afterFirst == null) {
                afterFirst = inOrder.records();
            }
        }
        List<byte[]> shuffled = new ArrayList<>(partials);
        Collections.shuffle(shuffled, random);
        Aggregator reordered = Aggregations.create(BY_COLOR);
        shuffled.forEach(reordered::combine);
        Aggregator firstOnly = Aggregations.create(BY_COLOR);
        firstOnly.combine(partials.get(0));

        assertEquals(byColor(single.records()), byColor(inOrder.records()));
        assertEquals(byColor(single.records()), byColor(reordered.records()));
        assertEquals(byColor(firstOnly.records()), byColor(afterFirst), "a result taken earlier keeps its values");
        inOrder.combine(partials.get(0));
        assertEquals(byColor(firstOnly.records()), byColor(afterFirst));
        long red = (long) byColor(single.records()).get("red").get("COUNT");
        long firstRed = (long) byColor(firstOnly.records()).get("red").get("COUNT");
        assertEquals(red + firstRed, (long) byColor(inOrder.records()).get("red").get("COUNT"),
                     "the first partial merged twice counts twice");
    }

    /** Rows by their group, AVG rounded (merge order changes a double sum's last bits). */
    private static Map<Object, Map<String, Object>> byColor(List<Map<String, Object>> rows) {
        Map<Object, Map<String, Object>> out = new HashMap<>();
        for (Map<String, Object> row : rows) {
            Map<String, Object> copy = new HashMap<>(row);
            for (String k : List.of("SUM_v", "AVG_v")) {
                if (copy.get(k) instanceof Double d) {
                    copy.put(k, Math.round(d * 1e6) / 1e6);
                }
            }
            out.put(row.get("c"), copy);
        }
        return out;
    }

    @Test
    void mergingPartialsAddsUpTheirGroups() {
        Aggregator a = Aggregations.consumeAll(Aggregations.create(BY_COLOR), RECORDS.subList(0, 3));
        Aggregator b = Aggregations.consumeAll(Aggregations.create(BY_COLOR), RECORDS.subList(3, RECORDS.size()));
        Aggregator join = Aggregations.create(BY_COLOR);
        join.combine(a.serialize());
        join.combine(b.serialize());
        Aggregator single = Aggregations.consumeAll(Aggregations.create(BY_COLOR), RECORDS);
        assertEquals(single.records(), join.records());
    }

    @Test
    void resetForgetsEverything() {
        Aggregator group = Aggregations.consumeAll(Aggregations.create(BY_COLOR), RECORDS);
        group.reset();
        assertTrue(group.isEmpty());
        assertEquals(List.of(), group.records());
    }

    // ------------------------------------------------------------------------------- no group-by fields

    @Test
    void withoutFieldsOneGroupCoversEveryRecord() {
        Aggregator all = Aggregations.create("{\"type\": \"GROUP\", " + METRICS + "}");
        Aggregations.consumeAll(all, RECORDS);
        assertEquals(List.of(mapOf("COUNT", 7L, "SUM_v", 17.5, "MIN_v", 1L, "MAX_v", 10L, "AVG_v", 4.375)), all.records());
        assertTrue(all.sketchMetadata().isEmpty());
    }

    @Test
    void withoutFieldsAndWithoutRecordsThereIsStillOneRow() {
        Aggregator all = Aggregations.create("{\"type\": \"GROUP\", " + METRICS + "}");
        assertTrue(all.isEmpty());
        assertEquals(List.of(mapOf("COUNT", 0L, "SUM_v", null, "MIN_v", null, "MAX_v", null, "AVG_v", null)), all.records());
    }

    @Test
    void withoutFieldsPartialsMergeExactly() {
        String json = "{\"type\": \"GROUP\", " + METRICS + "}";
        Aggregator a = Aggregations.consumeAll(Aggregations.create(json), RECORDS.subList(0, 2));
        Aggregator b = Aggregations.consumeAll(Aggregations.create(json), RECORDS.subList(2, RECORDS.size()));
        Aggregator join = Aggregations.create(json);
        join.combine(a.serialize());
        join.combine(b.serialize());
        assertEquals(Aggregations.consumeAll(Aggregations.create(json), RECORDS).records(), join.records());
    }
}

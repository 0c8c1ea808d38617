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

class TopKAggregatorTest {

    /** a: x ×5, y ×3, z ×3, w ×1, and one record without a. */
    private static List<Record> records() {
        List<Record> records = new ArrayList<>();
        for (String a : new String[] {"x", "y", "x", "z", "x", "y", "w", "z", "x", "y", "z", "x"}) {
            records.add(Records.of("a", a, "b", a.equals("x") ? 1L : 2L).build());
        }
        records.add(Records.of("b", 2L).build());
        return records;
    }

    private static List<Map<String, Object>> rows(String json) {
        return Aggregations.consumeAll(Aggregations.create(json), records()).records();
    }

    @Test
    void mostFrequentFirstTiesByValue() {
        assertEquals(List.of(mapOf("a", "x", "COUNT", 5L), mapOf("a", "y", "COUNT", 3L), mapOf("a", "z", "COUNT", 3L)),
                     rows("{\"type\": \"TOP K\", \"size\": 3, \"fields\": {\"a\": \"a\"}}"));
    }

    @Test
    void everyCombinationWhenKIsLarge() {
        List<Map<String, Object>> rows = rows("{\"type\": \"TOP K\", \"fields\": {\"a\": \"a\"}}");
        assertEquals(5, rows.size());
        assertEquals(mapOf("a", "w", "COUNT", 1L), rows.get(3));
        assertEquals(mapOf("a", null, "COUNT", 1L), rows.get(4));
    }

    @Test
    void thresholdDropsRareCombinations() {
        assertEquals(List.of(mapOf("a", "x", "COUNT", 5L), mapOf("a", "y", "COUNT", 3L), mapOf("a", "z", "COUNT", 3L)),
                     rows("{\"type\": \"TOP K\", \"fields\": {\"a\": \"a\"}, \"attributes\": {\"threshold\": 3}}"));
        assertEquals(List.of(mapOf("a", "x", "COUNT", 5L)),
                     rows("{\"type\": \"TOP K\", \"fields\": {\"a\": \"a\"}, \"attributes\": {\"threshold\": 4}}"));
    }

    @Test
    void newNameAndSeveralFields() {
        assertEquals(List.of(mapOf("A", "x", "B", 1L, "hits", 5L), mapOf("A", "y", "B", 2L, "hits", 3L)),
                     rows("{\"type\": \"TOP K\", \"size\": 2, \"fields\": {\"a\": \"A\", \"b\": \"B\"}, \"attributes\": {\"newName\": \"hits\"}}"));
    }

    @Test
    void exactCountsAndMetadataBelowTheCapacity() {
        Aggregator topK = Aggregations.consumeAll(Aggregations.create("{\"type\": \"TOP K\", \"fields\": {\"a\": \"a\"}}"), records());
        Map<String, Object> meta = topK.sketchMetadata();
        assertEquals(false, meta.get("was_estimated"));
        assertEquals("FREQUENCY", meta.get("family"));
        assertEquals(13L, meta.get("items_seen"));
        assertEquals(0L, meta.get("maximum_count_error"));
        assertEquals(5, meta.get("active_items"));
    }

    @Test
    void partialsMerge() {
        String json = "{\"type\": \"TOP K\", \"size\": 3, \"fields\": {\"a\": \"a\"}}";
        List<Record> all = records();
        Aggregator a = Aggregations.consumeAll(Aggregations.create(json), all.subList(0, 6));
        Aggregator b = Aggregations.consumeAll(Aggregations.create(json), all.subList(6, all.size()));
        Aggregator join = Aggregations.create(json);
        join.combine(a.serialize());
        join.combine(b.serialize());
        assertEquals(rows(json), join.records());
    }

    @Test
    void beyondTheCapacityHeavyHittersSurviveWithBoundedError() {
        QuerySettings small = Queries.withSketchEntries(16, 16, 16, 16);
        Aggregator topK = Aggregations.create("{\"type\": \"TOP K\", \"size\": 3, \"fields\": {\"a\": \"a\"}}", small);
        for (int i = 0; i < 3000; i++) {
            topK.consume(Records.of("a", "heavy" + (i % 3)).build());
            topK.consume(Records.of("a", "rare" + i).build());
        }
        Map<String, Object> meta = topK.sketchMetadata();
        assertEquals(true, meta.get("was_estimated"));
        long maxError = (Long) meta.get("maximum_count_error");
        List<Map<String, Object>> rows = topK.records();
        assertEquals(3, rows.size());
        for (Map<String, Object> row : rows) {
            assertTrue(((String) row.get("a")).startsWith("heavy"), rows.toString());
            long estimate = (Long) row.get("COUNT");
            assertTrue(estimate - maxError <= 1000 && 1000 <= estimate, row + " error " + maxError);
        }
    }
}

package dev.bullet.querying;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.query.Query;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.aggregations.RawAggregator;
import dev.bullet.record.JsonCodec;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import dev.bullet.testing.Queries;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FilterQuerierTest {
    private static final long START = 1_000_000L;

    private static FilterQuerier filter(String json) {
        return filter(json, QuerySettings.defaults());
    }

    private static FilterQuerier filter(String json, QuerySettings settings) {
        Query query = Queries.parse(json, settings);
        return new FilterQuerier("q1", query, START, settings);
    }

    private static List<Map<String, Object>> rawPartial(FilterQuerier filter) {
        byte[] partial = filter.takePartial();
        return partial == null ? List.of() : RawAggregator.decode(partial);
    }

    @Test
    void consumeReportsWhetherTheRecordMatched() {
        FilterQuerier f = filter("{\"filters\": [{\"field\": \"id\", \"operation\": \"==\", \"values\": [\"a\"]}]}");
        assertTrue(f.consume(Records.of("id", "a").build(), START));
        assertFalse(f.consume(Records.of("id", "b").build(), START));
        assertEquals(List.of(mapOf("id", "a")), rawPartial(f));
    }

    @Test
    void partialsAreTakenOnceAndNullWhenNothingWasConsumed() {
        FilterQuerier f = filter("{}");
        assertFalse(f.hasPartial());
        assertNull(f.takePartial());
        f.consume(Records.of("a", 1L).build(), START);
        assertTrue(f.hasPartial());
        assertEquals(List.of(mapOf("a", 1L)), rawPartial(f));
        assertNull(f.takePartial());
    }

    @Test
    void projectionIsAppliedBeforeAggregating() {
        FilterQuerier f = filter("{\"projection\": {\"fields\": {\"m.x\": \"x\"}}}");
        f.consume(Records.of("id", "a").map("m", "x", 7L, "y", 8L).build(), START);
        assertEquals(List.of(mapOf("x", 7L)), rawPartial(f));
    }

    @Test
    void rawWithoutAWindowIsSatisfiedAfterSizeMatches() {
        FilterQuerier f = filter("{\"aggregation\": {\"type\": \"RAW\", \"size\": 2}}");
        f.consume(Records.of("i", 1L).build(), START);
        assertFalse(f.isSatisfied());
        f.consume(Records.of("i", 2L).build(), START);
        assertTrue(f.isSatisfied());
        f.consume(Records.of("i", 3L).build(), START);
        assertEquals(List.of(mapOf("i", 1L), mapOf("i", 2L)), rawPartial(f));
    }

    @Test
    void rawSizeCountsAcrossPartials() {
        FilterQuerier f = filter("{\"aggregation\": {\"type\": \"RAW\", \"size\": 2}}");
        f.consume(Records.of("i", 1L).build(), START);
        assertEquals(1, rawPartial(f).size());
        f.consume(Records.of("i", 2L).build(), START);
        f.consume(Records.of("i", 3L).build(), START);
        assertEquals(List.of(mapOf("i", 2L)), rawPartial(f));
    }

    @Test
    void rawInTumblingWindowsKeepsAtMostSizePerWindow() {
        FilterQuerier f = filter("{\"aggregation\": {\"size\": 1}, \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}}}");
        f.consume(Records.of("i", 1L).build(), START + 10);
        f.consume(Records.of("i", 2L).build(), START + 20);
        f.consume(Records.of("i", 3L).build(), START + 1010);
        f.consume(Records.of("i", 4L).build(), START + 1020);
        assertFalse(f.isSatisfied());
        assertEquals(List.of(mapOf("i", 1L), mapOf("i", 3L)), rawPartial(f));
    }

    @Test
    void rawInSlidingWindowsIsNotCapped() {
        FilterQuerier f = filter("{\"aggregation\": {\"size\": 1}, \"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 2}}}");
        for (long i = 0; i < 5; i++) {
            f.consume(Records.of("i", i).build(), START);
        }
        assertEquals(5, rawPartial(f).size());
    }

    @Test
    void injectsTheMatchTimestampIntoRawRecordsWhenEnabled() {
        QuerySettings settings = QuerySettings.defaults().withInjectTimestamp(true);
        FilterQuerier f = filter("{\"projection\": {\"fields\": {\"id\": \"id\"}}}", settings);
        f.consume(Records.of("id", "a", "x", 1L).build(), START + 42);
        assertEquals(List.of(mapOf("id", "a", "bullet_project_timestamp", START + 42)), rawPartial(f));
    }

    /**
     * A record read lazily gets its timestamp added to its bytes (nothing decoded); the partial must read back exactly
     * as when the record is decoded and the timestamp put in its map: a key it has already keeps its place and takes
     * the timestamp, whitespace goes, an empty record gets only the timestamp, a key that needs escaping is escaped.
     */
    @Test
    void aTimestampInjectedIntoARecordsBytesReadsBackAsInjectedIntoItsMap() {
        String[] records = {"{\"id\":\"a\",\"n\":1.50,\"m\":{\"k\":[1,2]}}", "  {\"id\" : \"b\" }\n", "{}", " { } ",
                            "{\"ts\":5,\"id\":\"c\"}", "{\"t\\\"s\":5,\"id\":\"d\",\"ts\":null}",
                            "{\"id\":\"\u00e9\\u0041\",\"big\":123456789012345678901234567890}"};
        String[] queries = {"{}", "{\"projection\": {\"fields\": {\"id\": \"id\", \"m.k\": \"k\"}}}",
                            "{\"projection\": {\"fields\": {\"ts\": \"ts\"}}}"};
        RecordDecoder decoder = new RecordDecoder();
        for (String key : new String[] {"ts", "t\"s", "bullet_project_timestamp"}) {
            QuerySettings settings = QuerySettings.from(BulletSettings.load(null, Map.of(
                    SettingsTable.RECORD_INJECT_TIMESTAMP_ENABLE, true, SettingsTable.RECORD_INJECT_TIMESTAMP_KEY, key)));
            for (String query : queries) {
                for (String json : records) {
                    Record lazy = decoder.decode(json.getBytes(StandardCharsets.UTF_8));
                    assertTrue(lazy instanceof LazyRecord || json.contains("\\"), "read lazily: " + json);
                    FilterQuerier fromBytes = filter(query, settings);
                    FilterQuerier fromMap = filter(query, settings);
                    fromBytes.consume(lazy, START + 7);
                    fromMap.consume(RecordDecoder.decodeEagerly(json), START + 7);
                    String expected = JsonCodec.toJson(rawPartial(fromMap)); // key order counts
                    assertEquals(expected, JsonCodec.toJson(rawPartial(fromBytes)), key + " " + query + " " + json);
                    assertTrue(expected.contains(JsonCodec.toJson(key) + ":" + (START + 7)), expected);
                }
            }
        }
    }

    @Test
    void aggregatesOtherThanRawShipSerializedSketches() {
        FilterQuerier f = filter("{\"aggregation\": {\"type\": \"COUNT DISTINCT\", \"fields\": {\"a\": \"a\"}}}");
        assertFalse(f.isRaw());
        f.consume(Records.of("a", 1L).build(), START);
        assertTrue(f.hasPartial());
        assertTrue(f.takePartial().length > 0);
        assertFalse(f.isSatisfied());
    }

    @Test
    void expiresWhenTheDurationIsOver() {
        FilterQuerier f = filter("{\"duration\": 5000}");
        assertFalse(f.isExpired(START + 4999));
        assertTrue(f.isExpired(START + 5000));
        assertEquals("q1", f.id());
        assertEquals(START, f.startTime());
    }
}

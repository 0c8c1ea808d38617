package dev.bullet.bench;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import com.yahoo.bullet.common.BulletConfig;
import dev.bullet.generator.RecordGenerator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sanity of the E1 baseline: bullet-core really evaluates the queries on the decoded records. */
class BulletCoreBaselineTest {
    private static final long NOW = 1_700_000_000_000L;

    private static List<byte[]> records(int count) {
        RecordGenerator generator = new RecordGenerator(5, () -> NOW);
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(generator.next());
        }
        return records;
    }

    private static String id(byte[] record) {
        return new Gson().fromJson(new String(record, StandardCharsets.UTF_8), JsonObject.class).get("id").getAsString();
    }

    private static void assertFindsOnlyThePresentId(boolean partitioned) {
        List<byte[]> records = records(40);
        String present = id(records.get(17));
        List<String> values = new ArrayList<>(BulletCoreBaseline.absentValues(3));
        values.add(present);

        Map<String, Object> result = BulletCoreBaseline.run(records, values, partitioned, 0.3, 0.0, true);

        assertEquals(Map.of("q3", List.of(present)), result.get("matched"), "only the query on a present id matches");
        assertEquals(3, result.get("queries_active_at_end"));
        assertTrue((Long) result.get("records") > records.size(), "cycled over the records: " + result);
        assertEquals(partitioned ? "partitioned" : "default", result.get("mode"));
    }

    @Test
    void defaultManagerFindsTheMatchingRecordAndNothingElse() {
        assertFindsOnlyThePresentId(false);
    }

    @Test
    void partitionedManagerFindsTheMatchingRecordAndNothingElse() {
        assertFindsOnlyThePresentId(true);
    }

    @Test
    void e1WorkloadNeverMatchesAndReportsRates() {
        List<byte[]> records = records(40);
        Map<String, Object> result = BulletCoreBaseline.run(records, 10, true, 0.2, 0.05);

        assertEquals(Map.of(), result.get("matched"));
        assertEquals(10, result.get("queries_active_at_end"));
        assertEquals("bullet-core 1.5.2", result.get("engine"));
        assertEquals(true, result.get("decode_included"));
        double rps = (Double) result.get("records_per_second");
        assertTrue(rps > 0);
        assertEquals(rps * 10, (Double) result.get("query_evaluations_per_second"), 1e-6);
        assertEquals("com.yahoo.bullet.record.avro.TypedAvroBulletRecordProvider", result.get("record_provider"));
    }

    @Test
    void configIsBulletCoresOwnDefaultsNotTheProjectsFileOfTheSameName() {
        BulletConfig config = BulletCoreBaseline.config(true);
        assertEquals(Long.MAX_VALUE, config.getAs(BulletConfig.QUERY_MAX_DURATION, Number.class).longValue());
        assertEquals(100, config.getAs(BulletConfig.RAW_AGGREGATION_MAX_SIZE, Number.class).intValue());
        assertEquals(true, config.get(BulletConfig.RATE_LIMIT_ENABLE));
        assertEquals(true, config.get(BulletConfig.QUERY_PARTITIONER_ENABLE));
        assertEquals(List.of("id"), config.get(BulletConfig.EQUALITY_PARTITIONER_FIELDS));
        assertEquals(false, BulletCoreBaseline.config(false).get(BulletConfig.QUERY_PARTITIONER_ENABLE));
    }

    @Test
    void preDecodedModeAlsoEvaluates() {
        List<byte[]> records = records(20);
        String present = id(records.get(3));
        Map<String, Object> result = BulletCoreBaseline.run(records, List.of("absent-x", present), false, 0.2, 0.0,
                                                            false);
        assertEquals(Map.of("q1", List.of(present)), result.get("matched"));
        assertEquals(false, result.get("decode_included"));
    }
}

package dev.bullet.fuzz;

import dev.bullet.common.BulletError;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.FieldPath;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import dev.bullet.testing.Fuzz;
import dev.bullet.tools.OfflineRunner;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The invariants every fuzzed input must keep, shared by the properties and the corpus replay. */
final class FuzzChecks {
    private static final QuerySettings SETTINGS = QuerySettings.defaults();
    private static final RecordDecoder DECODER = new RecordDecoder();

    private FuzzChecks() {
    }

    /**
     * The parser never throws; an invalid query has errors that each carry a resolution; a valid query runs to its
     * final result over the seed records through the same engine as the topology, without throwing.
     */
    static void queryIsAnsweredNeverThrown(String query) throws IOException {
        QueryParser.Result parsed = new QueryParser(SETTINGS).parse(query);
        assertTrue(parsed.isValid() != !parsed.errors().isEmpty(), query);
        for (BulletError e : parsed.errors()) {
            assertFalse(e.error().isBlank(), query);
            assertFalse(e.resolutions().isEmpty(), "no resolution for " + e.error());
        }
        String records = String.join("\n", Fuzz.RECORD_SEEDS);
        List<String> results = new ArrayList<>();
        long[] now = {1_000_000L};
        OfflineRunner.Outcome outcome = new OfflineRunner(SETTINGS, () -> now[0]++).run(
                query, new BufferedReader(new StringReader(records)), r -> results.add(r.toJson()),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(parsed.isValid(), outcome.valid(), query);
        assertFalse(results.isEmpty(), "a query always gets at least one result: " + query);
        assertEquals(0, outcome.malformed(), "a seed record failed under " + query);
    }

    /** The lazy decode accepts exactly what gson accepts, and reads the same values (SPEC §5). */
    static void lazyDecodeEqualsGson(byte[] message) {
        Record lazy = DECODER.decode(message);
        Record full = RecordDecoder.decodeEagerly(new String(message, StandardCharsets.UTF_8));
        if (lazy == null && full != null) {
            // only a bound may reject what gson accepts (bullet.record.max.depth / max.bytes)
            assertTrue(DECODER.rejection(message).contains("bullet.record.max"), DECODER.rejection(message));
            return;
        }
        assertEquals(full == null, lazy == null, () -> "accepted differently: " + new String(message, StandardCharsets.UTF_8));
        if (full == null) {
            assertNotNull(DECODER.rejection(message));
            return;
        }
        Map<String, Object> expected = full.asMap();
        assertEquals(expected, lazy.asMap());
        for (String key : expected.keySet()) {
            assertEquals(expected.get(key), DECODER.decode(message).get(FieldPath.of(key)), key);
        }
    }
}

package dev.bullet.querying;

import dev.bullet.index.FoldedEquality;
import dev.bullet.index.IndexFeature;
import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.FieldPath;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Expression filters {@code LOWER(f) = 'x'} and {@code UPPER(f) IN (...)} waiting under their folded literals
 * ({@link IndexFeature#FOLDED}) give the partials, byte for byte, of the same queries tested on every record: over
 * values of every kind — mixed case ASCII, escapes, letters whose case mappings leave ASCII or change length
 * ({@code ß}, {@code İ}, the Kelvin sign), numbers, booleans, null, maps, lists, a missing field, in records read
 * from their bytes or decoded whole — in batches of any size, with queries added and removed between them.
 */
class FoldedIndexPropertyTest {
    private static final String[] VALUES = {
        "\"alpha\"", "\"Alpha\"", "\"ALPHA\"", "\"aLpHa\"", "\"bravo\"", "\"BRAVO\"", "\"Straße\"", "\"STRASSE\"",
        "\"\u212Aelvin\"", "\"kelvin\"", "\"\u0130stanbul\"", "\"istanbul\"", "\"al\\u0070ha\"", "\"AL\\\"PHA\"",
        "\"\u00c4rger\"", "\"\u00e4rger\"", "\"\"", "\" alpha\"", "5", "5.5", "true", "null", "{\"alpha\":1}",
        "[\"alpha\"]", "\"MIXED-case_123\"", "\"mixed-case_123\"",
    };

    private static final String[] FILTERS = {
        "LOWER(s) = 'alpha'", "UPPER(s) = 'ALPHA'", "'bravo' = LOWER(s)", "LOWER(s) IN ('alpha', 'bravo')",
        "UPPER(s) = 'STRASSE'", "LOWER(s) = 'kelvin'", "LOWER(s) = 'i\u0307stanbul'", "LOWER(s) = 'istanbul'",
        "UPPER(s) = '\u00c4RGER'", "LOWER(s) = ''", "LOWER(s) = ' alpha'", "LOWER(s) = 'al\"pha'",
        "LOWER(t) = 'mixed-case_123'", "UPPER(t) IN ('MIXED-CASE_123', 'ALPHA')", "LOWER(s) = 'alpha' AND n > 3",
        "LOWER(s) = 'alpha' OR n > 3", "LOWER(s) = t", "LOWER(s) = 'alpha' AND UPPER(t) = 'BRAVO'", "UPPER(s) = 'alpha'",
    };

    private static final String[] SELECTS = {
        "SELECT * FROM STREAM(30000, TIME) WHERE %s LIMIT 7",
        "SELECT COUNT(*) FROM STREAM(30000, TIME) WHERE %s",
        "SELECT s, COUNT(*) FROM STREAM(30000, TIME) WHERE %s GROUP BY s",
    };

    @Test
    void foldedEqualitiesGiveThePartialsOfQueriesTestedOnEveryRecord() {
        for (long seed = 1; seed <= 6; seed++) {
            Random r = new Random(seed);
            List<String> queries = new ArrayList<>();
            for (String filter : FILTERS) {
                for (String select : SELECTS) {
                    queries.add(String.format(select, filter));
                }
            }
            List<String> stream = new ArrayList<>();
            for (int i = 0; i < 3_000; i++) {
                stream.add(record(r, i));
            }
            EnumSet<IndexFeature> without = IndexFeature.all();
            without.remove(IndexFeature.FOLDED);
            FilterEngine folded = new FilterEngine(QuerySettings.defaults(), IndexFeature.all());
            FilterEngine tested = new FilterEngine(QuerySettings.defaults(), without);
            List<String> expected = run(tested, queries, stream, new Random(seed * 31));
            int unindexedWithout = tested.unindexed();
            List<String> actual = run(folded, queries, stream, new Random(seed * 31));
            assertSame(expected, actual, seed);
            assertTrue(folded.unindexed() < unindexedWithout,
                       "the folded equalities wait in the index: " + folded.unindexed() + " against " + unindexedWithout);
            assertTrue(expected.stream().anyMatch(p -> !p.endsWith("none")), "some query matched");
        }
    }

    @Test
    void onlyConjunctsThatFoldATopLevelFieldToLiteralsAreTaken() {
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        FoldedEquality lower = folded(parser, "LOWER(s) = 'x'");
        assertEquals(new FoldedEquality(false, FieldPath.of("s"), List.of("x")), lower);
        assertEquals(new FoldedEquality(true, FieldPath.of("s"), List.of("X", "Y")), folded(parser, "UPPER(s) IN ('X', 'Y')"));
        assertEquals(lower, folded(parser, "'x' = LOWER(s)"));
        assertEquals(lower, folded(parser, "n > 3 AND LOWER(s) = 'x'"));
        assertNull(folded(parser, "LOWER(s) = t"));
        assertNull(folded(parser, "LOWER(s) = 'x' OR n > 3"));
        assertNull(folded(parser, "LOWER(s) != 'x'"));
        assertNull(folded(parser, "TRIM(s) = 'x'"));
        assertNull(folded(parser, "LOWER(m['k']) = 'x'"));
        assertNull(folded(parser, "LOWER(s) IN ('x', t)"));
        assertNull(folded(parser, "s = 'x'"));
    }

    /** Equal lists of partials, or the first that differs in the message (the whole lists are too long to read). */
    private static void assertSame(List<String> expected, List<String> actual, long seed) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), "seed " + seed + ", partial " + i);
        }
        assertEquals(expected.size(), actual.size(), "seed " + seed + ": partials");
    }

    private static FoldedEquality folded(QueryParser parser, String filter) {
        return FoldedEqualities.of(parse(parser, "SELECT * FROM STREAM(30000, TIME) WHERE " + filter + " LIMIT 1").where());
    }

    private static String record(Random r, int id) {
        StringBuilder sb = new StringBuilder("{\"id\":").append(id);
        if (r.nextInt(10) > 0) {
            sb.append(",\"s\":").append(VALUES[r.nextInt(VALUES.length)]);
        }
        if (r.nextBoolean()) {
            sb.append(",\"t\":").append(VALUES[r.nextInt(VALUES.length)]);
        }
        if (r.nextInt(16) == 0) {
            sb.append(",\"k\\u0065y\":1"); // an escaped key: the record is decoded whole, not read from its bytes
        }
        return sb.append(",\"n\":").append(r.nextInt(8)).append('}').toString();
    }

    /** Batches of random sizes, a tick after some, a query removed or added again between some. */
    private static List<String> run(FilterEngine engine, List<String> queries, List<String> stream, Random r) {
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        for (int q = 0; q < queries.size(); q++) {
            engine.add("q" + q, parse(parser, queries.get(q)), 0L);
        }
        RecordDecoder decoder = new RecordDecoder();
        List<String> out = new ArrayList<>();
        int step = 0;
        for (int start = 0; start < stream.size(); step++) {
            int end = Math.min(stream.size(), start + 1 + r.nextInt(r.nextBoolean() ? 70 : 400));
            List<Record> batch = new ArrayList<>();
            for (String json : stream.subList(start, end)) {
                batch.add(decoder.decode(json.getBytes(StandardCharsets.UTF_8)));
            }
            start = end;
            List<FilterEngine.Partial> partials = new ArrayList<>();
            engine.consume(batch, 10L, partials);
            if (r.nextInt(3) == 0) {
                engine.tick(10L, partials);
            }
            if (r.nextInt(8) == 0) {
                int q = r.nextInt(queries.size());
                engine.remove("q" + q);
                engine.add("q" + q, parse(parser, queries.get(q)), 0L);
            }
            partials.sort((a, b) -> a.id().compareTo(b.id()));
            for (FilterEngine.Partial p : partials) {
                out.add(step + " " + p.id() + " " + (p.data() == null ? "none" : Arrays.toString(p.data())));
            }
        }
        return out;
    }

    private static Query parse(QueryParser parser, String text) {
        QueryParser.Result parsed = parser.parse(text);
        assertTrue(parsed.isValid(), text + ": " + parsed.errors());
        return parsed.query();
    }
}

package dev.bullet.querying;

import dev.bullet.index.FoldedEquality;
import dev.bullet.index.IndexFeature;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.FieldPath;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static dev.bullet.querying.WithAndWithout.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

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
        List<String> queries = new ArrayList<>();
        for (String filter : FILTERS) {
            for (String select : SELECTS) {
                queries.add(String.format(select, filter));
            }
        }
        WithAndWithout.compare(IndexFeature.FOLDED, queries, FoldedIndexPropertyTest::record);
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
}

package dev.bullet.querying;

import dev.bullet.index.ComputedEquality;
import dev.bullet.index.IndexFeature;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.eval.Evaluators;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static dev.bullet.querying.WithAndWithout.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Expression filters {@code E = literal} and {@code E IN (...)} waiting under their literals' keys, {@code E} evaluated
 * once a record for all the queries over it ({@link IndexFeature#COMPUTED}), give the partials, byte for byte, of the
 * same queries tested on every record: arithmetic over longs, doubles, longs past 2^53 and -0.0, casts, sizes,
 * conditionals, substrings and hashes; literals of another type than the value (a long beside a double, a string
 * beside a number); values that fail, are null or missing, in records read from their bytes or
 * decoded whole, in batches of any size, with queries added and removed between them.
 */
class ComputedIndexPropertyTest {
    private static final String[] NUMBERS = {
        "0", "1", "2", "3", "5", "7", "10", "-3", "2.5", "-0.0", "0.0", "1e3", "9007199254740993", "9007199254740992",
        "\"5\"", "\"abc\"", "true", "null", "[1,2]", "{\"a\":1}",
    };

    private static final String[] FILTERS = {
        "n % 3 = 1", "n % 3 IN (0, 2)", "ABS(n) = 3", "n * 2 = 5.0", "n + 0.5 = 3", "CAST(n AS STRING) = '5'",
        "CAST(n AS DOUBLE) = 0", "n * 1.0 = 0.0", "n + 0 = 9007199254740992", "SIZEOF(tags) = 2", "SIZEOF(s) IN (1, 5)",
        "IF(n > 3, 'big', 'small') = 'big'", "SUBSTRING(s, 1, 2) = 'al'", "HASH(s) = HASH('alpha')", "3 = n - 2",
        "n % 3 = 1 AND s = 'alpha'", "n % 3 = 1 OR m > 2", "n % 3 IN (1, 4)", "TRIM(s) = 'alpha'",
        "n % 3 = m", "CAST(n AS LONG) = 3 AND m % 2 = 0", "n / 0 = 1",
    };

    /** Expression filters BQL's type check refuses, in the JSON form: a string or a null beside a number. */
    private static final String[] JSON_EXPRESSIONS = {
        "{\"op\":\"=\",\"left\":" + mod3() + ",\"right\":{\"value\":\"1\",\"type\":\"STRING\"}}",
        "{\"op\":\"=\",\"left\":" + mod3() + ",\"right\":{\"value\":null}}",
        "{\"op\":\"IN\",\"left\":" + mod3() + ",\"right\":{\"list\":[{\"value\":1,\"type\":\"INTEGER\"},"
            + "{\"value\":null},{\"value\":\"2\",\"type\":\"STRING\"},{\"value\":2.0,\"type\":\"DOUBLE\"}]}}",
        "{\"op\":\"=\",\"left\":{\"field\":\"s\"},\"right\":{\"value\":true,\"type\":\"BOOLEAN\"}}",
    };

    private static String mod3() {
        return "{\"op\":\"%\",\"left\":{\"field\":\"n\"},\"right\":{\"value\":3,\"type\":\"INTEGER\"}}";
    }

    private static final String[] SELECTS = {
        "SELECT * FROM STREAM(30000, TIME) WHERE %s LIMIT 7",
        "SELECT COUNT(*) FROM STREAM(30000, TIME) WHERE %s",
        "SELECT s, COUNT(*) FROM STREAM(30000, TIME) WHERE %s GROUP BY s",
    };

    @Test
    void computedEqualitiesGiveThePartialsOfQueriesTestedOnEveryRecord() {
        List<String> queries = new ArrayList<>();
        for (String filter : FILTERS) {
            for (String select : SELECTS) {
                queries.add(String.format(select, filter));
            }
        }
        for (String expression : JSON_EXPRESSIONS) {
            queries.add("{\"filters\":[{\"expression\":" + expression + "}],\"aggregation\":{\"type\":\"RAW\","
                        + "\"size\":7},\"duration\":30000}");
            queries.add("{\"filters\":[{\"expression\":" + expression + "}],\"aggregation\":{\"type\":\"GROUP\","
                        + "\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}},\"duration\":30000}");
        }
        WithAndWithout.compare(IndexFeature.COMPUTED, queries, ComputedIndexPropertyTest::record);
    }

    @Test
    void onlyConjunctsThatCompareAnExpressionOfTheRecordWithLiteralsAreTaken() {
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        assertEquals(List.of(1), computed(parser, "n % 3 = 1").literals());
        assertEquals(List.of(1), computed(parser, "1 = n % 3").literals());
        assertEquals(List.of(0, 2), computed(parser, "n % 3 IN (0, 2)").literals());
        assertEquals(List.of("5"), computed(parser, "m > 1 AND CAST(n AS STRING) = '5'").literals());
        assertNull(computed(parser, "n % 3 = m"));
        assertNull(computed(parser, "n % 3 = 1 OR m > 2"));
        assertNull(computed(parser, "n % 3 != 1"));
        assertNull(computed(parser, "n % 3 IN (1, m)"));
        assertNull(computed(parser, "UNIXTIMESTAMP() % 2 = 0"));
        assertNull(computed(parser, "n + UNIXTIMESTAMP() = 5"));
        assertTrue(ComputedEqualities.readsRecordOnly(parse(parser, "SELECT * FROM STREAM(30000, TIME) WHERE "
                                                                    + "m['k'] % 2 = 0 LIMIT 1").where().get(0)));
    }

    private static ComputedEquality computed(QueryParser parser, String filter) {
        return ComputedEqualities.of(parse(parser, "SELECT * FROM STREAM(30000, TIME) WHERE " + filter + " LIMIT 1").where(),
                                     e -> Evaluators.compile(e, () -> 0L, QuerySettings.defaults().limits()));
    }

    private static String record(Random r, int id) {
        StringBuilder sb = new StringBuilder("{\"id\":").append(id);
        if (r.nextInt(10) > 0) {
            sb.append(",\"n\":").append(NUMBERS[r.nextInt(NUMBERS.length)]);
        }
        sb.append(",\"m\":").append(NUMBERS[r.nextInt(NUMBERS.length)]);
        sb.append(",\"s\":").append(r.nextBoolean() ? "\"alpha\"" : r.nextBoolean() ? "\" alpha \"" : "\"bravo\"");
        if (r.nextBoolean()) {
            sb.append(",\"tags\":").append(r.nextBoolean() ? "[\"x\",\"y\"]" : "[\"x\"]");
        }
        if (r.nextInt(16) == 0) {
            sb.append(",\"k\\u0065y\":1"); // an escaped key: the record is decoded whole, not read from its bytes
        }
        return sb.append('}').toString();
    }
}

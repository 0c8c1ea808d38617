package dev.bullet.query;

import dev.bullet.common.BulletError;
import dev.bullet.common.Limits;
import dev.bullet.regex.RegexSize;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Queries over a bound are invalid, with every problem and its resolution, and never recurse deeply. */
class QueryBoundsTest {
    private final QueryParser parser = new QueryParser(QuerySettings.defaults());

    static String nestedNots(int n) {
        StringBuilder b = new StringBuilder("{\"filters\":[");
        for (int i = 0; i < n; i++) {
            b.append("{\"operation\":\"NOT\",\"clauses\":[");
        }
        b.append("{\"field\":\"a\",\"operation\":\"==\",\"values\":[\"1\"]}");
        for (int i = 0; i < n; i++) {
            b.append("]}");
        }
        return b.append("]}").toString();
    }

    private static String messages(List<BulletError> errors) {
        return errors.toString();
    }

    @Test
    void twentyThousandNestedNotsAreRejectedQuickly() {
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            for (int n : new int[]{20_000, 100_000}) {
                QueryParser.Result r = parser.parse(nestedNots(n));
                assertFalse(r.isValid());
                assertEquals(1, r.errors().size());
                assertTrue(messages(r.errors()).contains("bullet.query.max.depth"), messages(r.errors()));
                assertFalse(r.errors().get(0).resolutions().isEmpty());
            }
            // unbalanced, deep garbage is no different
            assertFalse(parser.parse("[".repeat(200_000)).isValid());
            assertFalse(parser.parse("{\"filters\":" + "[".repeat(200_000)).isValid());
        });
    }

    @Test
    void depthUpToTheBoundIsAccepted() {
        // {filters:[ NOT{clauses:[ ... ]} ]}: the query object (1), filters (2), then 2 per NOT, the leaf clause (+1)
        int limit = QuerySettings.defaults().limits().queryDepth();
        int nots = (limit - 3) / 2;
        assertTrue(parser.parse(nestedNots(nots)).isValid());
        assertFalse(parser.parse(nestedNots(nots + 1)).isValid());
    }

    @Test
    void tooManyClausesValuesAndALongRegexAreAllReportedAtOnce() {
        QuerySettings d = QuerySettings.defaults();
        QueryParser small = new QueryParser(d.withLimits(new Limits(d.limits().queryDepth(), 3, 5, 10,
                                                                     d.limits().recordDepth(), d.limits().recordBytes())));
        String clause = "{\"field\":\"a\",\"operation\":\"==\",\"values\":[\"1\",\"2\"]}";
        String q = "{\"filters\":[" + clause + "," + clause + "," + clause + ",{\"field\":\"s\",\"operation\":\"RLIKE\","
                   + "\"values\":[\"" + "x".repeat(11) + "\"]}]}";
        QueryParser.Result r = small.parse(q);
        assertFalse(r.isValid());
        String all = messages(r.errors());
        assertTrue(all.contains("bullet.query.max.clauses"), all);
        assertTrue(all.contains("bullet.query.max.values"), all);
        r.errors().forEach(e -> assertFalse(e.resolutions().isEmpty()));
        QueryParser.Result regex = small.parse("{\"filters\":[{\"field\":\"s\",\"operation\":\"RLIKE\",\"values\":[\""
                                               + "x".repeat(11) + "\"]}]}");
        assertTrue(messages(regex.errors()).contains("bullet.query.max.regex.length"), messages(regex.errors()));
        assertTrue(small.parse("{\"filters\":[{\"field\":\"s\",\"operation\":\"RLIKE\",\"values\":[\"" + "x".repeat(10)
                               + "\"]}]}").isValid());
    }

    @Test
    void regexesThatWouldExhaustTheHeapWhileCompilingAreRejected() {
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            for (String p : new String[]{"((a{1000}){1000}){1000}", "(a{1000}){1000}", "((((x{100}){100}){100}))"}) {
                QueryParser.Result r = parser.parse("{\"filters\":[{\"field\":\"s\",\"operation\":\"RLIKE\",\"values\":[\""
                                                    + p + "\"]}]}");
                assertFalse(r.isValid(), p);
                assertTrue(messages(r.errors()).contains("repeats too much"), messages(r.errors()));
            }
        });
        for (String ok : new String[]{"a{1000}", "(ab){100}[a-z]{3,5}", ".*root.*", "[{}]{2}", "x{", "a{1,}"}) {
            assertTrue(RegexSize.estimate(ok) <= RegexSize.MAX, ok);
            assertTrue(parser.parse("{\"filters\":[{\"field\":\"s\",\"operation\":\"RLIKE\",\"values\":[\""
                                    + ok + "\"]}]}").isValid(), ok);
        }
        assertTrue(RegexSize.estimate("((a{1000}){1000}){1000}") >= 1_000_000_000L);
    }

    @Test
    void adversarialLiteralsAreValid() {
        for (String v : new String[]{"NaN", "-NaN", "Infinity", "-Infinity", "-0", "1e400", "99999999999999999999999", ""}) {
            for (String op : new String[]{"==", "!=", "<", "<=", ">", ">="}) {
                assertTrue(parser.parse("{\"filters\":[{\"field\":\"n\",\"operation\":\"" + op + "\",\"values\":[\"" + v
                                        + "\"]}]}").isValid(), op + " " + v);
            }
        }
    }
}

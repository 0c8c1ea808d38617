package dev.bullet.querying;

import dev.bullet.bql.Bql;
import dev.bullet.query.Query;
import dev.bullet.testing.Queries;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A BQL range {@code WHERE f > k} (k an integer) is its typed clause with the same comparison beside it as an
 * expression filter: a record the index decides matches the clause passes that expression too, so it is not tested
 * again. Anything else keeps the expression on every match (the partials: {@code BatchAggregationPropertyTest}).
 */
class WhereFollowsDecisionTest {
    private static Query bql(String where) {
        Bql.Translation t = Bql.translate("SELECT COUNT(*) FROM STREAM(30000, TIME) WHERE " + where);
        assertTrue(t.isValid(), where + " " + t.errors());
        return Queries.parse(t.query().toString());
    }

    @Test
    void aBqlIntegerRangeFollowsItsDecision() {
        for (String where : new String[] {"l_1 > 5000", "l_1 >= 5000", "l_1 < -3", "l_1 <= 0", "l_1 > 5000000000"}) {
            assertTrue(FilterQuerier.whereFollowsDecision(bql(where)), where);
        }
    }

    @Test
    void otherFiltersKeepTheirExpression() {
        for (String where : new String[] {"l_1 > 5000.5", "l_1 = 5", "l_1 != 5", "l_1 > 5 AND l_2 > 3", "l_1 + 1 > 5",
                                          "l_1 > 5 OR l_2 > 3", "NOT (l_1 > 5)", "m.k > 5", "s = 'x'", "l_1 IN (1, 2)"}) {
            assertFalse(FilterQuerier.whereFollowsDecision(bql(where)), where);
        }
        // the JSON query: an expression that is not the clause's comparison
        assertFalse(FilterQuerier.whereFollowsDecision(Queries.parse(
            "{\"filters\":[{\"field\":\"n\",\"operation\":\">\",\"values\":[{\"kind\":\"VALUE\",\"value\":\"3\",\"type\":"
            + "\"LONG\"}]},{\"expression\":{\"op\":\">\",\"left\":{\"field\":\"n\"},\"right\":{\"value\":4,\"type\":"
            + "\"LONG\"}}}]}")));
        assertFalse(FilterQuerier.whereFollowsDecision(Queries.parse(
            "{\"filters\":[{\"field\":\"n\",\"operation\":\">\",\"values\":[\"3\"]},{\"expression\":{\"op\":\">\","
            + "\"left\":{\"field\":\"n\"},\"right\":{\"value\":3,\"type\":\"LONG\"}}}]}")));
    }
}

package dev.bullet.bench;

import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checked-in realistic mix is what its generator makes, and every query of it is valid and of its kind. */
class RealisticQueriesTest {
    @Test
    void checkedInMixIsTheGeneratorsOutput() throws Exception {
        assertEquals(RealisticQueries.generate(), RealisticQueries.load(),
                     "regenerate with: java -cp target/test-classes:... dev.bullet.bench.RealisticQueries "
                     + "src/test/resources" + RealisticQueries.RESOURCE);
    }

    @Test
    void everyQueryIsValidAndTheMixHasItsShares() throws Exception {
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        List<String> queries = RealisticQueries.load();
        assertEquals(1000, queries.size());
        int rlike = 0;
        int raw = 0;
        for (String q : queries) {
            QueryParser.Result parsed = parser.parse(q);
            assertTrue(parsed.isValid(), q + " " + parsed.errors());
            Query query = parsed.query();
            raw += query.isRaw() ? 1 : 0;
            rlike += q.contains("\"RLIKE\"") ? 1 : 0;
        }
        assertEquals(850, raw);
        assertTrue(rlike >= 150 && rlike < 250, "RLIKE queries: " + rlike);
    }
}

package dev.bullet.bench;

import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each shape's set is 100 valid queries of the shape, distinct from the reference, then the reference's last 900. */
class QueryShapesTest {
    @Test
    void everySetIsAHundredValidQueriesOfItsShapeAndTheReferencesRest() {
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        List<String> reference = QueryShapes.reference();
        assertEquals(1_000, reference.size());
        Map<String, List<String>> sets = QueryShapes.sets(5);
        assertTrue(sets.size() >= 20, "shapes: " + sets.keySet());
        for (Map.Entry<String, List<String>> set : sets.entrySet()) {
            List<String> lines = set.getValue();
            assertEquals(1_000, lines.size(), set.getKey());
            assertEquals(reference.subList(100, 1_000), lines.subList(100, 1_000), set.getKey());
            for (String q : lines.subList(0, 100)) {
                QueryParser.Result parsed = parser.parse(q);
                assertTrue(parsed.isValid(), set.getKey() + ": " + q + " " + parsed.errors());
                assertTrue(!q.contains("\"id\""), set.getKey() + " draws on the generator's other fields: " + q);
            }
            assertTrue(new HashSet<>(lines.subList(0, 100)).size() > 1, set.getKey() + " draws distinct queries");
        }
        assertEquals(QueryShapes.sets(5), sets, "the same seed draws the same sets");
    }
}

package dev.bullet.bench;

import com.google.gson.JsonParser;
import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The expression mix and the BQL form of the realistic mix are what their generators make, and every query of them
 * is valid: the BQL form has the JSON form's query type, window and duration, query by query.
 */
class BenchQuerySetsTest {
    private final QueryParser parser = new QueryParser(QuerySettings.defaults());

    @Test
    void theExpressionMixIsItsGeneratorsOutputAndValid() throws IOException {
        List<String> queries = lines("expression-queries.jsonl");
        assertEquals(new ExpressionQueries().generate(), queries,
                     "regenerate with: java -cp target/test-classes:... dev.bullet.bench.ExpressionQueries FILE");
        int withExpressions = 0;
        for (String q : queries) {
            QueryParser.Result parsed = parser.parse(q);
            assertTrue(parsed.isValid(), q + " " + parsed.errors());
            withExpressions += parsed.query().where().isEmpty() && parsed.query().computed().isEmpty() ? 0 : 1;
        }
        assertEquals(1000, withExpressions);
    }

    @Test
    void theBqlFormOfTheRealisticMixIsBqlFormsOutputAndRunsTheSameKindOfQuery() throws IOException {
        List<String> json = lines("realistic-queries.jsonl");
        List<String> bql = lines("realistic-queries.bql");
        assertEquals(json.size(), bql.size());
        for (int i = 0; i < json.size(); i++) {
            assertEquals(BqlForms.bql(JsonParser.parseString(json.get(i)).getAsJsonObject()), bql.get(i),
                         "regenerate with: java -cp target/test-classes:... dev.bullet.bench.BqlForms IN OUT");
            QueryParser.Result fromJson = parser.parse(json.get(i));
            QueryParser.Result fromBql = parser.parse(bql.get(i));
            assertTrue(fromBql.isValid(), bql.get(i) + " " + fromBql.errors());
            Query a = fromJson.query();
            Query b = fromBql.query();
            assertEquals(a.aggregation().type(), b.aggregation().type(), bql.get(i));
            assertEquals(a.durationMs(), b.durationMs(), bql.get(i));
            assertEquals(a.window(), b.window(), bql.get(i));
        }
    }

    private static List<String> lines(String name) throws IOException {
        try (InputStream in = BenchQuerySetsTest.class.getResourceAsStream("/dev/bullet/bench/" + name)) {
            assertNotNull(in, name);
            List<String> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    out.add(line);
                }
            }
            return out;
        }
    }
}

package dev.bullet.schema;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.bullet.bql.Bql;
import dev.bullet.common.BulletError;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QueryFieldCheckTest {
    private static final SchemaSnapshot SAMPLED = sampled();

    private static SchemaSnapshot sampled() {
        SchemaInference inference = new SchemaInference(1);
        inference.accept(List.of(JsonParser.parseString(
                "{\"id\":\"a\",\"kind\":\"x\",\"n\":1,\"tags\":{\"env\":\"prod\"},\"list\":[1,2],"
                + "\"lm\":[{\"k0\":\"a\"}]}").getAsJsonObject()), 1);
        return inference.snapshot();
    }

    private static List<BulletError> check(String json) {
        return QueryFieldCheck.warnings(JsonParser.parseString(json), SAMPLED);
    }

    private static List<String> errors(List<BulletError> warnings) {
        return warnings.stream().map(BulletError::error).toList();
    }

    @Test
    void aQueryOnKnownFieldsHasNoWarnings() {
        assertEquals(List.of(), check("{\"filters\":[{\"field\":\"kind\",\"operation\":\"==\",\"values\":[\"x\"]},"
                                      + "{\"field\":\"tags.env\",\"operation\":\"==\",\"values\":[\"prod\"]},"
                                      + "{\"field\":\"tags\",\"operation\":\"CONTAINSKEY\",\"values\":[\"env\"]}],"
                                      + "\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"kind\":\"k\"},"
                                      + "\"attributes\":{\"operations\":[{\"type\":\"SUM\",\"field\":\"n\"}]}}}"));
    }

    @Test
    void aKeyOfAListsMapsNamedWithoutAnIndexIsAWarning() {
        List<BulletError> w = check("{\"filters\":[{\"field\":\"lm.k0\",\"operation\":\"==\",\"values\":[\"a\"]}],"
                                    + "\"projection\":{\"fields\":{\"lm.0.k0\":\"ok\",\"list.1\":\"ok2\"}}}");
        assertEquals(1, w.size(), errors(w).toString());
        assertTrue(w.get(0).error().startsWith("The field lm.k0 (in the filters) reads nothing: lm is a LIST of MAP"),
                   w.get(0).error());
        assertEquals(List.of("Name an element: lm.0.k0 (in BQL lm[0].k0)"), w.get(0).resolutions());

        JsonElement bql = Bql.translate("SELECT lm.k0 AS a, lm[0].k0 AS b FROM STREAM(1000, TIME)").query();
        List<BulletError> fromBql = QueryFieldCheck.warnings(bql, SAMPLED);
        assertEquals(List.of("The field lm.k0 (in the projection) reads nothing: lm is a LIST of MAP, whose "
                             + "elements are found by their index, not by a key"), errors(fromBql), bql.toString());
    }

    @Test
    void aFieldNeverSeenIsAWarningWithTheNearestField() {
        List<BulletError> w = check("{\"filters\":[{\"field\":\"knd\",\"operation\":\"==\",\"values\":[\"x\"]}],"
                                    + "\"projection\":{\"fields\":{\"id\":\"id\",\"nope.x\":\"y\"}}}");
        assertEquals(2, w.size(), errors(w).toString());
        assertTrue(w.get(0).error().startsWith("The field knd (in the filters) was not seen in the 1 records"), w.get(0).error());
        assertTrue(w.get(0).resolutions().contains("Did you mean kind?"), w.get(0).resolutions().toString());
        assertTrue(w.get(1).error().startsWith("The field nope (in the projection)"), w.get(1).error());
    }

    @Test
    void anOperationThatCannotMatchTheFieldsTypeIsAWarning() {
        List<String> w = errors(check("{\"filters\":[{\"field\":\"tags\",\"operation\":\"==\",\"values\":[\"x\"]},"
                                      + "{\"operation\":\"OR\",\"clauses\":[{\"field\":\"kind\",\"operation\":"
                                      + "\"CONTAINSKEY\",\"values\":[\"a\"]}]},"
                                      + "{\"field\":\"list\",\"operation\":\"==\",\"values\":[null]}]}"));
        assertEquals(2, w.size(), w.toString());
        assertTrue(w.get(0).contains("tags == cannot match: tags is a MAP of STRING"), w.get(0));
        assertTrue(w.get(1).contains("kind CONTAINSKEY cannot match: kind is a STRING"), w.get(1));
    }

    @Test
    void aliasesComputedColumnsAndTheOuterQueryAreNotRecordFields() {
        assertEquals(List.of(), check("{\"lateralView\":[{\"explode\":{\"field\":\"list\"},\"keyAlias\":\"e\"}],"
                                      + "\"filters\":[{\"field\":\"e\",\"operation\":\">\",\"values\":[\"1\"]}],"
                                      + "\"projection\":{\"fields\":{\"e\":\"e\"},\"computed\":{\"t\":{\"op\":\"+\","
                                      + "\"left\":{\"field\":\"n\"},\"right\":{\"value\":1,\"type\":\"LONG\"}}}},"
                                      + "\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"t\":\"t\"}},"
                                      + "\"outerQuery\":{\"filters\":[{\"field\":\"whatever\",\"operation\":\"==\","
                                      + "\"values\":[\"1\"]}]}}"));
        List<String> w = errors(check("{\"projection\":{\"computed\":{\"t\":{\"op\":\"+\",\"left\":{\"field\":\"nn\"},"
                                      + "\"right\":{\"field\":\"n\"}}}}}"));
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).contains("nn (in the computed column t)"), w.get(0));
    }

    @Test
    void aBqlQueryIsCheckedInItsJsonForm() {
        JsonObject json = Bql.translate("SELECT kind, COUNT(*) FROM STREAM(5000, TIME) WHERE colour = 'red' "
                                        + "GROUP BY kind").query();
        List<String> w = errors(QueryFieldCheck.warnings(json, SAMPLED));
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).contains("colour"), w.get(0));
    }

    @Test
    void noSchemaNoWarnings() {
        JsonElement q = JsonParser.parseString("{\"filters\":[{\"field\":\"x\",\"operation\":\"==\",\"values\":[\"1\"]}]}");
        assertEquals(List.of(), QueryFieldCheck.warnings(q, SchemaSnapshot.emptySample()));
        assertEquals(List.of(), QueryFieldCheck.warnings(JsonParser.parseString("[1]"), SAMPLED));
    }

    @Test
    void aSchemaFilesFieldsAreWhatIsKnown() {
        SchemaSnapshot file = SchemaFile.parse("[{\"name\":\"id\",\"type\":\"STRING\"}]", new ArrayList<>(), 1);
        List<String> w = errors(QueryFieldCheck.warnings(JsonParser.parseString(
                "{\"filters\":[{\"field\":\"ids\",\"operation\":\"==\",\"values\":[\"1\"]}]}"), file));
        assertEquals(List.of("The field ids (in the filters) is not in the schema file"), w);
    }
}

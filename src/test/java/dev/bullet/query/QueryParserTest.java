package dev.bullet.query;

import dev.bullet.common.BulletError;
import dev.bullet.record.FieldPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static dev.bullet.testing.Queries.errors;
import static dev.bullet.testing.Queries.messages;
import static dev.bullet.testing.Queries.parse;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QueryParserTest {

    // ------------------------------------------------------------------------------------------ valid

    @Test
    void seedQueryParsesVerbatim() {
        Query q = parse("{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"c39ba8cfe8\"]}],"
                        + "\"aggregation\":{\"type\":\"LIMIT\",\"size\":10},\"duration\":30000}");
        assertEquals(AggregationType.RAW, q.aggregation().type());
        assertEquals(10, q.aggregation().size());
        assertEquals(30000L, q.durationMs());
        Clause.Relational filter = assertInstanceOf(Clause.Relational.class, q.filter());
        assertEquals(FieldPath.of("id"), filter.field());
        assertEquals(Operation.EQUALS, filter.operation());
        assertEquals(List.of(FilterValue.literal("c39ba8cfe8", null)), filter.values());
        assertNull(q.window());
        assertNull(q.projection());
        assertTrue(q.warnings().isEmpty());
        assertTrue(q.original().getAsJsonObject().has("filters"));
    }

    @Test
    void emptyObjectIsRawWithDefaultSizeAndDuration() {
        Query q = parse("{}");
        assertTrue(q.isRaw());
        assertEquals(500, q.aggregation().size());
        assertEquals(30000L, q.durationMs());
        assertNull(q.filter());
        assertNull(q.projection());
        assertNull(q.window());
        assertTrue(q.postAggregations().isEmpty());
        assertTrue(q.warnings().isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"RAW", "raw", "LIMIT", "limit", "Raw"})
    void rawAndLimitAreTheSameAggregationInAnyCase(String type) {
        assertEquals(AggregationType.RAW, parse("{\"aggregation\": {\"type\": \"" + type + "\"}}").aggregation().type());
    }

    @ParameterizedTest
    @CsvSource({"COUNT DISTINCT, COUNT_DISTINCT", "count distinct, COUNT_DISTINCT", "COUNT_DISTINCT, COUNT_DISTINCT",
                "TOP K, TOP_K", "top k, TOP_K", "GROUP, GROUP", "group, GROUP"})
    void aggregationTypesAreCaseInsensitive(String type, AggregationType expected) {
        String query = "{\"aggregation\": {\"type\": \"" + type + "\", \"fields\": {\"a\": \"a\"}}}";
        assertEquals(expected, parse(query).aggregation().type());
    }

    @Test
    void topLevelFiltersAreAnded() {
        Query q = parse("{\"filters\": [{\"field\": \"a\", \"operation\": \"==\", \"values\": [\"1\"]},"
                        + " {\"field\": \"b\", \"operation\": \">\", \"values\": [2]}]}");
        Clause.Logical and = assertInstanceOf(Clause.Logical.class, q.filter());
        assertEquals(Operation.AND, and.operation());
        assertEquals(2, and.clauses().size());
        Clause.Relational second = (Clause.Relational) and.clauses().get(1);
        assertEquals(List.of(FilterValue.literal("2", null)), second.values());
    }

    @Test
    void emptyFilterListMatchesEverything() {
        assertNull(parse("{\"filters\": []}").filter());
    }

    @Test
    void logicalClausesNest() {
        Query q = parse("{\"filters\": [{\"operation\": \"or\", \"clauses\": ["
                        + "{\"operation\": \"NOT\", \"clauses\": [{\"field\": \"a\", \"operation\": \"==\", \"values\": [\"x\"]}]},"
                        + "{\"operation\": \"AND\", \"clauses\": [{\"field\": \"b\", \"operation\": \"RLIKE\", \"values\": [\"^a.*\"]}]}]}]}");
        Clause.Logical or = assertInstanceOf(Clause.Logical.class, q.filter());
        assertEquals(Operation.OR, or.operation());
        assertEquals(Operation.NOT, or.clauses().get(0).operation());
        assertEquals(Operation.AND, or.clauses().get(1).operation());
    }

    @Test
    void filterValuesMayBeNullTypedValuesOrFields() {
        Query q = parse("{\"filters\": [{\"field\": \"a\", \"operation\": \"==\", \"values\": [null, 5, true,"
                        + " {\"kind\": \"VALUE\", \"value\": \"7\", \"type\": \"LONG\"}, {\"kind\": \"FIELD\", \"value\": \"b.c\"}]}]}");
        List<FilterValue> values = ((Clause.Relational) q.filter()).values();
        assertTrue(values.get(0).isNull());
        assertEquals(FilterValue.literal("5", null), values.get(1));
        assertEquals(FilterValue.literal("true", null), values.get(2));
        assertEquals(FilterValue.literal("7", ValueType.LONG), values.get(3));
        assertEquals(FilterValue.field("b.c", null), values.get(4));
    }

    @Test
    void projectionKeepsPathsAndNames() {
        Query q = parse("{\"projection\": {\"fields\": {\"a.b\": \"ab\", \"c\": \"c\"}}}");
        assertEquals(List.of(NamedField.of("a.b", "ab"), NamedField.of("c", "c")), q.projection());
    }

    @Test
    void groupWithOperationsGetsDefaultNames() {
        Query q = parse("{\"aggregation\": {\"type\": \"GROUP\", \"fields\": {\"g\": \"group\"}, \"attributes\": {\"operations\": ["
                        + "{\"type\": \"COUNT\"}, {\"type\": \"SUM\", \"field\": \"x\"}, {\"type\": \"avg\", \"field\": \"y.z\"},"
                        + "{\"type\": \"MIN\", \"field\": \"x\"}, {\"type\": \"MAX\", \"field\": \"x\", \"newName\": \"top\"}]}}}");
        List<String> names = q.aggregation().operations().stream().map(GroupOperation::name).toList();
        assertEquals(List.of("COUNT", "SUM_x", "AVG_y.z", "MIN_x", "top"), names);
        assertEquals(List.of(NamedField.of("g", "group")), q.aggregation().fields());
    }

    @Test
    void groupWithFieldsAndNoOperationsIsDistinct() {
        Query q = parse("{\"aggregation\": {\"type\": \"GROUP\", \"fields\": {\"a\": \"a\"}}}");
        assertTrue(q.aggregation().operations().isEmpty());
        assertEquals(1, q.aggregation().fields().size());
    }

    @Test
    void countDistinctAndTopKNamesAndThreshold() {
        Query cd = parse("{\"aggregation\": {\"type\": \"COUNT DISTINCT\", \"fields\": {\"a\": \"a\"}}}");
        assertEquals("COUNT DISTINCT", cd.aggregation().newName());
        Query cdNamed = parse("{\"aggregation\": {\"type\": \"COUNT DISTINCT\", \"fields\": {\"a\": \"a\"}, \"attributes\": {\"newName\": \"n\"}}}");
        assertEquals("n", cdNamed.aggregation().newName());
        Query topK = parse("{\"aggregation\": {\"type\": \"TOP K\", \"size\": 3, \"fields\": {\"a\": \"a\"}, \"attributes\": {\"threshold\": 2}}}");
        assertEquals("COUNT", topK.aggregation().newName());
        assertEquals(2L, topK.aggregation().threshold());
        assertEquals(3, topK.aggregation().size());
    }

    @Test
    void distributionPointsFromAList() {
        DistributionSpec spec = parse(distribution("\"type\": \"QUANTILE\", \"points\": [0.9, 0.5, 0.5, 0]")).aggregation().distribution();
        assertEquals(DistributionSpec.Type.QUANTILE, spec.type());
        assertArrayEquals(new double[] {0.0, 0.5, 0.9}, spec.points());
    }

    @Test
    void distributionPointsFromStartEndIncrement() {
        DistributionSpec spec = parse(distribution("\"type\": \"PMF\", \"start\": 0, \"end\": 1, \"increment\": 0.1")).aggregation().distribution();
        assertArrayEquals(new double[] {0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0}, spec.points());
    }

    @Test
    void distributionNumberOfPoints() {
        DistributionSpec spec = parse(distribution("\"type\": \"cdf\", \"numberOfPoints\": 5")).aggregation().distribution();
        assertEquals(DistributionSpec.Type.CDF, spec.type());
        assertEquals(5, spec.numberOfPoints());
        assertNull(spec.points());
    }

    private static String distribution(String attributes) {
        return "{\"aggregation\": {\"type\": \"DISTRIBUTION\", \"fields\": {\"v\": \"v\"}, \"attributes\": {" + attributes + "}}}";
    }

    @Test
    void postAggregationsParseInOrder() {
        Query q = parse("{\"aggregation\": {\"type\": \"GROUP\", \"fields\": {\"a\": \"a\"}, \"attributes\": {\"operations\": [{\"type\": \"COUNT\"}]}},"
                        + "\"postAggregations\": [{\"type\": \"HAVING\", \"filter\": {\"field\": \"COUNT\", \"operation\": \">\", \"values\": [\"1\"]}},"
                        + "{\"type\": \"COMPUTATION\", \"newName\": \"twice\", \"expression\": {\"operation\": \"*\","
                        + " \"left\": {\"value\": {\"kind\": \"FIELD\", \"value\": \"COUNT\"}}, \"right\": {\"value\": {\"kind\": \"VALUE\", \"value\": \"2\", \"type\": \"LONG\"}}}},"
                        + "{\"type\": \"ORDERBY\", \"fields\": [\"twice\", \"a\"], \"direction\": \"DESC\"}]}");
        List<PostAggregation> p = q.postAggregations();
        assertInstanceOf(PostAggregation.Having.class, p.get(0));
        PostAggregation.Computation c = assertInstanceOf(PostAggregation.Computation.class, p.get(1));
        assertEquals("twice", c.newName());
        Expression.Binary b = assertInstanceOf(Expression.Binary.class, c.expression());
        assertEquals('*', b.operator());
        PostAggregation.OrderBy o = assertInstanceOf(PostAggregation.OrderBy.class, p.get(2));
        assertEquals(List.of("twice", "a"), o.fields());
        assertTrue(o.descending());
    }

    @Test
    void orderByIsAscendingByDefault() {
        Query q = parse("{\"postAggregations\": [{\"type\": \"ORDERBY\", \"fields\": [\"a\"]}]}");
        assertFalse(((PostAggregation.OrderBy) q.postAggregations().get(0)).descending());
    }

    @Test
    void windowKinds() {
        Window tumbling = parse("{\"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 5000}, \"include\": {\"type\": \"TIME\", \"first\": 5000}}}").window();
        assertEquals(new Window(Window.Kind.TUMBLING, 5000), tumbling);
        Window tumblingNoInclude = parse("{\"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 5000}}}").window();
        assertEquals(new Window(Window.Kind.TUMBLING, 5000), tumblingNoInclude);
        Window additive = parse("{\"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 2000}, \"include\": {\"type\": \"ALL\"}}}").window();
        assertEquals(new Window(Window.Kind.ADDITIVE_TUMBLING, 2000), additive);
        Window sliding = parse("{\"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 3}, \"include\": {\"type\": \"RECORD\", \"first\": 3}}}").window();
        assertEquals(new Window(Window.Kind.SLIDING, 3), sliding);
        assertTrue(tumbling.isTimeBased());
        assertFalse(sliding.isTimeBased());
    }

    @Test
    void everyProblemOfAWindowIsListed() {
        List<BulletError> errors = errors("{\"window\": {\"emit\": {\"type\": \"BOGUS\", \"every\": \"x\"},"
                                          + " \"include\": {\"type\": \"NOPE\", \"first\": \"y\"}}}");
        String all = String.join("; ", messages(errors));
        assertEquals(4, errors.size(), all);
        for (String part : List.of("window.emit.type", "window.emit.every", "window.include.type", "window.include.first")) {
            assertTrue(all.contains(part), part + " in " + all);
        }
        errors = errors("{\"aggregation\": {\"type\": \"GROUP\", \"fields\": {\"a\": \"a\"}},"
                        + " \"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 0}}}");
        all = String.join("; ", messages(errors));
        assertEquals(2, errors.size(), all);
        assertTrue(all.contains("must be positive") && all.contains("only supported for RAW"), all);
    }

    // --------------------------------------------------------------------------------------- clamping

    @Test
    void rawSizeAboveTheMaximumIsClampedWithAWarning() {
        Query q = parse("{\"aggregation\": {\"type\": \"RAW\", \"size\": 10000}}");
        assertEquals(500, q.aggregation().size());
        assertEquals(1, q.warnings().size());
        assertTrue(q.warnings().get(0).error().contains("clamped to the maximum 500"), q.warnings().toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"9223372036854775806", "9223372036854775808", "99999999999999999999999999", "1e19", "1e400",
                            "5e1000000000", "1000.0000"})
    void aWholeNumberOfAnySizeIsClampedNotRefused(String size) {
        Query q = parse("{\"aggregation\": {\"type\": \"RAW\", \"size\": " + size + "},"
                        + " \"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": " + size + "}}}");
        assertEquals(500, q.aggregation().size());
        assertEquals(500L, q.window().every());
        assertEquals(2, q.warnings().size(), q.warnings().toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.0000000000000001", "1e-400", "-1e-5000000000", "2.5e0"})
    void aNumberWithAFractionIsNoWholeNumberHoweverItIsWritten(String size) {
        assertOneError("{\"aggregation\": {\"size\": " + size + "}}", "aggregation.size must be a whole number");
    }

    @Test
    void groupSizeAboveTheMaximumIsClampedWithAWarning() {
        Query q = parse("{\"aggregation\": {\"type\": \"GROUP\", \"size\": 501, \"fields\": {\"a\": \"a\"}}}");
        assertEquals(500, q.aggregation().size());
        assertEquals(1, q.warnings().size());
    }

    @Test
    void durationAboveTheMaximumIsClampedWithAWarning() {
        Query q = parse("{\"duration\": 100000000000}");
        assertEquals(86_400_000L, q.durationMs());
        assertEquals(1, q.warnings().size());
        assertTrue(q.warnings().get(0).error().contains("duration"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-5", "null"})
    void nonPositiveOrMissingDurationIsTheDefault(String duration) {
        Query q = parse("{\"duration\": " + duration + "}");
        assertEquals(30000L, q.durationMs());
        assertTrue(q.warnings().isEmpty());
    }

    @Test
    void shortTimeWindowIsRaisedToTheMinimumWithAWarning() {
        Query q = parse("{\"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 100}, \"include\": {\"type\": \"TIME\", \"first\": 100}}}");
        assertEquals(1000L, q.window().every());
        assertEquals(1, q.warnings().size());
        assertTrue(q.warnings().get(0).error().contains("raised to the minimum 1000"));
    }

    @Test
    void recordWindowsAreNotRaised() {
        Query q = parse("{\"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 1}}}");
        assertEquals(1L, q.window().every());
        assertTrue(q.warnings().isEmpty());
    }

    /** A RECORD window's rows wait in the Join until it is full: 2,000,000,000 of them would fill the heap. */
    @Test
    void recordWindowsAreBoundedByTheRawMaximumWithAWarning() {
        Query q = parse("{\"aggregation\": {\"type\": \"RAW\", \"size\": 500}, \"window\": {\"emit\": {\"type\": \"RECORD\","
                        + " \"every\": 2000000000}}, \"duration\": 600000}");
        assertEquals(500L, q.window().every());
        assertEquals(1, q.warnings().size());
        assertTrue(q.warnings().get(0).error().contains("bullet.query.aggregation.raw.max.size"), q.warnings().toString());
        assertEquals(500L, parse("{\"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 500}}}").window().every());
    }

    @Test
    void tooManyDistributionPointsAreClampedWithAWarning() {
        Query q = parse(distribution("\"type\": \"PMF\", \"numberOfPoints\": 1000"));
        assertEquals(200, q.aggregation().distribution().numberOfPoints());
        assertEquals(1, q.warnings().size());
    }

    @Test
    void everyClampingIsReported() {
        Query q = parse("{\"aggregation\": {\"size\": 900}, \"duration\": 999999999999,"
                        + " \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 10}}}");
        assertEquals(3, q.warnings().size(), q.warnings().toString());
    }

    @Test
    void defaultSizeAboveASmallerRawMaximumIsFittedSilently() {
        QuerySettings d = QuerySettings.defaults();
        QuerySettings small = new QuerySettings(d.defaultDurationMs(), d.maxDurationMs(), 500, 500, 100,
                                                d.distributionMaxPoints(), d.generatedPointsRounding(), d.countDistinctEntries(),
                                                d.groupEntries(), d.distributionEntries(), d.topKEntries(), d.minEmitEveryMs(),
                                                d.rateLimitEnabled(), d.rateLimitMaxEmitCount(), d.rateLimitIntervalMs(),
                                                d.metadataEnabled(), d.metadataNames(), d.injectTimestamp(), d.timestampKey(), d.limits());
        Query q = parse("{}", small);
        assertEquals(100, q.aggregation().size());
        assertTrue(q.warnings().isEmpty());
        Query asked = parse("{\"aggregation\": {\"size\": 200}}", small);
        assertEquals(100, asked.aggregation().size());
        assertEquals(1, asked.warnings().size());
    }

    // --------------------------------------------------------------------------------- invalid queries

    private static void assertOneError(String query, String expectedFragment) {
        List<BulletError> errors = errors(query);
        assertEquals(1, errors.size(), "errors: " + messages(errors));
        BulletError error = errors.get(0);
        assertTrue(error.error().contains(expectedFragment), "'" + error.error() + "' should mention '" + expectedFragment + "'");
        assertFalse(error.resolutions().isEmpty(), "every error carries a resolution");
        assertFalse(error.resolutions().get(0).isBlank());
    }

    @Test
    void queryMustBeAnObject() {
        assertOneError("[1, 2]", "must be a JSON object");
        assertOneError("\"text\"", "must be a JSON object");
        assertOneError("", "must be a JSON object");
    }

    @Test
    void unknownTopLevelMember() {
        assertOneError("{\"filter\": []}", "Unknown query member \"filter\"");
    }

    @Test
    void filtersMustBeAList() {
        assertOneError("{\"filters\": {\"field\": \"a\"}}", "\"filters\" must be a list");
    }

    @Test
    void unknownOperation() {
        assertOneError("{\"filters\": [{\"field\": \"a\", \"operation\": \"LIKE\", \"values\": [\"x\"]}]}", "unknown operation \"LIKE\"");
    }

    @Test
    void clauseWithoutOperation() {
        assertOneError("{\"filters\": [{\"field\": \"a\", \"values\": [\"x\"]}]}", "no operation");
    }

    @Test
    void relationalClauseWithoutField() {
        assertOneError("{\"filters\": [{\"operation\": \"==\", \"values\": [\"x\"]}]}", "needs a \"field\"");
    }

    @Test
    void relationalClauseWithoutValues() {
        assertOneError("{\"filters\": [{\"field\": \"a\", \"operation\": \"==\"}]}", "non-empty list of \"values\"");
        assertOneError("{\"filters\": [{\"field\": \"a\", \"operation\": \"==\", \"values\": []}]}", "non-empty list of \"values\"");
    }

    @Test
    void notWithTwoClauses() {
        assertOneError("{\"filters\": [{\"operation\": \"NOT\", \"clauses\": ["
                       + "{\"field\": \"a\", \"operation\": \"==\", \"values\": [\"x\"]},"
                       + "{\"field\": \"b\", \"operation\": \"==\", \"values\": [\"y\"]}]}]}", "NOT takes exactly one clause, got 2");
    }

    @Test
    void logicalClauseWithoutClauses() {
        assertOneError("{\"filters\": [{\"operation\": \"AND\"}]}", "AND needs a non-empty list of \"clauses\"");
        assertOneError("{\"filters\": [{\"operation\": \"OR\", \"clauses\": []}]}", "OR needs a non-empty list of \"clauses\"");
    }

    @Test
    void wrongValueTypes() {
        assertOneError("{\"filters\": [{\"field\": \"a\", \"operation\": \"==\", \"values\": [[1]]}]}", "a value must be");
        assertOneError("{\"filters\": [{\"field\": \"a\", \"operation\": \"==\", \"values\": "
                       + "[{\"kind\": \"VALUE\", \"value\": \"abc\", \"type\": \"LONG\"}]}]}", "is not a LONG");
        assertOneError("{\"filters\": [{\"field\": \"a\", \"operation\": \"==\", \"values\": "
                       + "[{\"kind\": \"VALUE\", \"value\": \"1\", \"type\": \"DATE\"}]}]}", "unknown value type");
        assertOneError("{\"filters\": [{\"field\": \"a\", \"operation\": \"==\", \"values\": [{\"kind\": \"COLUMN\", \"value\": \"b\"}]}]}",
                       "unknown value kind");
        assertOneError("{\"filters\": [{\"field\": \"a\", \"operation\": \"==\", \"values\": [{\"kind\": \"FIELD\"}]}]}", "has no \"value\"");
    }

    @Test
    void nullOnlyWithEqualityOperations() {
        assertOneError("{\"filters\": [{\"field\": \"a\", \"operation\": \">\", \"values\": [null]}]}", "null can only be used with == and !=");
    }

    @Test
    void invalidRegularExpression() {
        assertOneError("{\"filters\": [{\"field\": \"a\", \"operation\": \"RLIKE\", \"values\": [\"(unclosed\"]}]}", "invalid regular expression");
    }

    @Test
    void backreferencesAreRejectedBecauseRegexesRunInLinearTime() {
        assertOneError("{\"filters\": [{\"field\": \"a\", \"operation\": \"RLIKE\", \"values\": [\"(a)\\\\1\"]}]}", "invalid regular expression");
    }

    @Test
    void sizeIsNeedsAWholeNumber() {
        assertOneError("{\"filters\": [{\"field\": \"a\", \"operation\": \"SIZEIS\", \"values\": [\"three\"]}]}", "SIZEIS needs a whole number");
    }

    @Test
    void projectionMustHaveFields() {
        assertOneError("{\"projection\": {\"a\": \"b\"}}", "\"projection\" must be");
        assertOneError("{\"projection\": {\"fields\": {\"a\": 5}}}", "output name of \"a\"");
    }

    @Test
    void unknownAggregationType() {
        assertOneError("{\"aggregation\": {\"type\": \"SUM\"}}", "Unknown aggregation type \"SUM\"");
    }

    @Test
    void aggregationSizeMustBeAPositiveWholeNumber() {
        assertOneError("{\"aggregation\": {\"size\": \"ten\"}}", "aggregation.size must be a whole number");
        assertOneError("{\"aggregation\": {\"size\": 2.5}}", "aggregation.size must be a whole number");
        assertOneError("{\"aggregation\": {\"size\": 0}}", "aggregation.size must be positive");
    }

    @Test
    void groupNeedsFieldsOrOperations() {
        assertOneError("{\"aggregation\": {\"type\": \"GROUP\"}}", "GROUP needs fields to group by, operations to compute, or both");
    }

    @Test
    void groupOperationProblems() {
        assertOneError("{\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\": [{\"type\": \"MEDIAN\", \"field\": \"x\"}]}}}",
                       "unknown operation type");
        assertOneError("{\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\": [{\"type\": \"SUM\"}]}}}", "SUM needs a \"field\"");
    }

    @Test
    void countDistinctAndTopKNeedFields() {
        assertOneError("{\"aggregation\": {\"type\": \"COUNT DISTINCT\"}}", "COUNT DISTINCT needs at least one field");
        assertOneError("{\"aggregation\": {\"type\": \"TOP K\"}}", "TOP K needs at least one field");
    }

    @Test
    void topKThresholdMustNotBeNegative() {
        assertOneError("{\"aggregation\": {\"type\": \"TOP K\", \"fields\": {\"a\": \"a\"}, \"attributes\": {\"threshold\": -1}}}",
                       "threshold must not be negative");
    }

    @Test
    void distributionWithoutANumericField() {
        assertOneError("{\"aggregation\": {\"type\": \"DISTRIBUTION\", \"attributes\": {\"type\": \"QUANTILE\", \"points\": [0.5]}}}",
                       "DISTRIBUTION needs exactly one numeric field");
    }

    @Test
    void distributionTypeAndPointProblems() {
        assertOneError(distribution("\"type\": \"HISTOGRAM\", \"points\": [1]"), "attributes.type QUANTILE, PMF or CDF");
        assertOneError(distribution("\"type\": \"PMF\""), "DISTRIBUTION needs points");
        assertOneError(distribution("\"type\": \"QUANTILE\", \"points\": [0.5, 1.5]"), "QUANTILE points must be between 0 and 1");
        assertOneError(distribution("\"type\": \"PMF\", \"points\": [1, \"x\"]"), "must hold only numbers");
        assertOneError(distribution("\"type\": \"PMF\", \"numberOfPoints\": 0"), "numberOfPoints must be positive");
        assertOneError(distribution("\"type\": \"PMF\", \"start\": 10, \"end\": 0, \"increment\": 1"), "start must not exceed end");
        assertOneError(distribution("\"type\": \"PMF\", \"start\": 0, \"end\": 10"), "start, end and increment must all be numbers");
    }

    @Test
    void recordWindowOnGroup() {
        assertOneError("{\"aggregation\": {\"type\": \"GROUP\", \"fields\": {\"a\": \"a\"}},"
                       + " \"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 2}}}", "RECORD windows are only supported for RAW");
    }

    @Test
    void windowCombinationsOutsideTheSpecAreErrors() {
        assertOneError("{\"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}, \"include\": {\"type\": \"RECORD\", \"first\": 1}}}",
                       "A TIME window cannot include RECORD");
        assertOneError("{\"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 2}, \"include\": {\"type\": \"ALL\"}}}",
                       "A RECORD window can only include RECORD");
        assertOneError("{\"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 2}, \"include\": {\"type\": \"TIME\", \"first\": 2}}}",
                       "A RECORD window can only include RECORD");
        assertOneError("{\"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}, \"include\": {\"type\": \"TIME\", \"first\": 2000}}}",
                       "must equal window.emit.every");
        assertOneError("{\"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 2}, \"include\": {\"type\": \"RECORD\", \"first\": 3}}}",
                       "must equal window.emit.every");
    }

    @Test
    void windowShapeProblems() {
        assertOneError("{\"window\": {}}", "must have an \"emit\" object");
        assertOneError("{\"window\": {\"emit\": {\"type\": \"COUNT\", \"every\": 2}}}", "window.emit.type must be TIME or RECORD");
        assertOneError("{\"window\": {\"emit\": {\"type\": \"TIME\"}}}", "window.emit.every must be a whole number");
        assertOneError("{\"window\": {\"emit\": {\"type\": \"TIME\", \"every\": -1}}}", "window.emit.every must be positive");
        assertOneError("{\"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 1000}, \"include\": {\"type\": \"SOME\"}}}",
                       "window.include.type must be TIME, RECORD or ALL");
    }

    @Test
    void durationMustBeANumber() {
        assertOneError("{\"duration\": \"30s\"}", "\"duration\" must be a number");
    }

    @Test
    void postAggregationProblems() {
        assertOneError("{\"postAggregations\": [{\"type\": \"LIMIT\"}]}", "unknown post-aggregation type");
        assertOneError("{\"postAggregations\": [{\"type\": \"ORDERBY\"}]}", "ORDERBY needs a non-empty list of \"fields\"");
        assertOneError("{\"postAggregations\": [{\"type\": \"ORDERBY\", \"fields\": [\"a\"], \"direction\": \"UP\"}]}",
                       "ORDERBY direction must be ASC or DESC");
        assertOneError("{\"postAggregations\": [{\"type\": \"HAVING\"}]}", "HAVING needs a \"filter\"");
        assertOneError("{\"postAggregations\": [{\"type\": \"COMPUTATION\", \"expression\": {\"value\": {\"kind\": \"VALUE\", \"value\": \"1\"}}}]}",
                       "COMPUTATION needs a \"newName\"");
        assertOneError("{\"postAggregations\": [{\"type\": \"COMPUTATION\", \"newName\": \"x\", \"expression\": {\"operation\": \"%\","
                       + " \"left\": {\"value\": {\"kind\": \"VALUE\", \"value\": \"1\"}}, \"right\": {\"value\": {\"kind\": \"VALUE\", \"value\": \"2\"}}}}]}",
                       "unknown arithmetic operation");
        assertOneError("{\"postAggregations\": [{\"type\": \"COMPUTATION\", \"newName\": \"x\", \"expression\": {\"value\": {\"kind\": \"VALUE\", \"value\": \"one\"}}}]}",
                       "is not a number");
        assertOneError("{\"postAggregations\": [{\"type\": \"HAVING\", \"filter\": {\"field\": \"a\", \"operation\": \"~\", \"values\": [\"1\"]}}]}",
                       "unknown operation \"~\"");
    }

    @Test
    void severalProblemsAreAllReportedAtOnce() {
        List<BulletError> errors = errors("{"
                + "\"filters\": [{\"field\": \"a\", \"operation\": \"LIKE\", \"values\": [\"x\"]},"
                + "              {\"operation\": \"NOT\", \"clauses\": [{\"field\": \"b\", \"operation\": \"==\", \"values\": [\"1\"]},"
                + "                                                  {\"field\": \"c\", \"operation\": \"==\", \"values\": [\"2\"]}]}],"
                + "\"projection\": {\"fields\": {\"a\": 1}},"
                + "\"aggregation\": {\"type\": \"GROUP\", \"size\": -3, \"fields\": {\"a\": \"a\"}},"
                + "\"postAggregations\": [{\"type\": \"SORT\"}],"
                + "\"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 5}},"
                + "\"duration\": \"long\","
                + "\"extra\": true}");
        List<String> messages = messages(errors);
        assertEquals(8, errors.size(), messages.toString());
        assertTrue(messages.stream().anyMatch(m -> m.contains("Unknown query member \"extra\"")), messages.toString());
        assertTrue(messages.stream().anyMatch(m -> m.contains("unknown operation \"LIKE\"")), messages.toString());
        assertTrue(messages.stream().anyMatch(m -> m.contains("NOT takes exactly one clause")), messages.toString());
        assertTrue(messages.stream().anyMatch(m -> m.contains("output name of \"a\"")), messages.toString());
        assertTrue(messages.stream().anyMatch(m -> m.contains("aggregation.size must be positive")), messages.toString());
        assertTrue(messages.stream().anyMatch(m -> m.contains("unknown post-aggregation type")), messages.toString());
        assertTrue(messages.stream().anyMatch(m -> m.contains("RECORD windows are only supported for RAW")), messages.toString());
        assertTrue(messages.stream().anyMatch(m -> m.contains("\"duration\" must be a number")), messages.toString());
    }

    @Test
    void malformedJsonReportsLineAndColumn() {
        BulletError error = errors("{\n  \"filters\": [\n    {\"field\": \"a\",, }\n  ]\n}").get(0);
        assertTrue(error.error().startsWith("Malformed JSON at line 3, column"), error.error());
        assertTrue(error.resolutions().get(0).contains("line 3"), error.resolutions().toString());
    }

    @Test
    void truncatedJsonReportsWhereItEnded() {
        List<BulletError> errors = errors("{\"filters\": [");
        assertEquals(1, errors.size());
        assertTrue(errors.get(0).error().startsWith("Malformed JSON at line 1, column"), errors.get(0).error());
    }

    @Test
    void trailingContentAfterTheQueryIsMalformed() {
        List<BulletError> errors = errors("{} {}");
        assertEquals(1, errors.size());
        assertTrue(errors.get(0).error().startsWith("Malformed JSON"), errors.get(0).error());
    }
}

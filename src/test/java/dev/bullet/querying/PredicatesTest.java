package dev.bullet.querying;

import com.google.re2j.Pattern;
import dev.bullet.record.Record;
import dev.bullet.testing.Queries;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Random;

import static dev.bullet.testing.Records.listOf;
import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PredicatesTest {
    private static final Record RECORD = Records.of("id", "abc", "n", 5L, "d", 5.0, "half", 2.5, "s5", "5",
                                                    "t", true, "f", false, "nil", null, "big", Long.MAX_VALUE)
            .list("tags", "x", "y", 3L)
            .map("m", "k1", "v1", "k2", 2L)
            .list("lm", mapOf("a", 1L, "b", "two"), mapOf("c", true))
            .put("word", "hello")
            .put("other", 5L)
            .put("otherD", 2.5)
            .put("empty", "")
            .build();

    private static RecordPredicate compile(String clause) {
        return Predicates.compile(Queries.parse("{\"filters\": [" + clause + "]}").filter());
    }

    private static boolean matches(String clause, Record record) {
        return compile(clause).test(record);
    }

    private static boolean matches(String clause) {
        return matches(clause, RECORD);
    }

    private static String rel(String field, String op, String values) {
        return "{\"field\": \"" + field + "\", \"operation\": \"" + op + "\", \"values\": [" + values + "]}";
    }

    private static void assertMatches(String field, String op, String values) {
        assertTrue(matches(rel(field, op, values)), field + " " + op + " [" + values + "] should match");
    }

    private static void assertNoMatch(String field, String op, String values) {
        assertFalse(matches(rel(field, op, values)), field + " " + op + " [" + values + "] should not match");
    }

    @Test
    void noFilterMatchesEverything() {
        assertTrue(Predicates.compile(null).test(RECORD));
        assertTrue(Predicates.compile(null).test(Records.of().build()));
    }

    // ------------------------------------------------------------------------------------ == and !=

    @Test
    void equalsMatchesWhenAnyValueEquals() {
        assertMatches("id", "==", "\"abc\"");
        assertMatches("id", "==", "\"zzz\", \"abc\"");
        assertNoMatch("id", "==", "\"zzz\", \"ABC\"");
    }

    @Test
    void notEqualsMatchesWhenNoValueEquals() {
        assertMatches("id", "!=", "\"zzz\", \"yyy\"");
        assertNoMatch("id", "!=", "\"zzz\", \"abc\"");
        assertNoMatch("n", "!=", "\"1\", \"5\"");
        assertMatches("n", "!=", "\"1\", \"2\"");
    }

    @Test
    void stringValuesAreCastToANumericFieldsType() {
        assertMatches("n", "==", "\"5\"");
        assertMatches("n", "==", "\"5.0\"");
        assertMatches("n", "==", "5");
        assertMatches("d", "==", "\"5\"");
        assertMatches("d", "==", "\"5.0\"");
        assertMatches("half", "==", "\"2.5\"");
        assertNoMatch("n", "==", "\"5.5\"");
        assertMatches("big", "==", "\"9223372036854775807\"");
        assertNoMatch("big", "==", "\"9223372036854775806\"");
    }

    @Test
    void aStringFieldComparesAsAString() {
        assertMatches("s5", "==", "\"5\"");
        assertMatches("s5", "==", "5");
        assertNoMatch("s5", "==", "\"5.0\"");
    }

    @Test
    void booleanFieldsCompareWithBooleanLiterals() {
        assertMatches("t", "==", "\"true\"");
        assertMatches("t", "==", "true");
        assertMatches("t", "==", "\"TRUE\"");
        assertMatches("f", "==", "\"false\"");
        assertNoMatch("t", "==", "\"false\"");
        assertNoMatch("t", "==", "\"1\"");
    }

    @Test
    void valuesThatCannotBeCastAreIgnored() {
        assertMatches("n", "==", "\"abc\", \"5\"");
        assertNoMatch("n", "==", "\"abc\"");
        assertMatches("n", ">", "\"abc\", \"3\"");
        assertNoMatch("n", "<", "\"abc\"");
        assertNoMatch("t", "==", "\"maybe\"");
        // != ignores them too: the field equals none of the remaining values
        assertMatches("n", "!=", "\"abc\"");
    }

    @Test
    void nullInValuesMatchesMissingOrNullFieldsForEquals() {
        assertMatches("missing", "==", "null");
        assertMatches("nil", "==", "null");
        assertNoMatch("id", "==", "null");
        assertMatches("id", "==", "null, \"abc\"");
        assertMatches("missing", "==", "\"abc\", null");
    }

    @Test
    void nullInValuesMatchesPresentNonNullFieldsForNotEquals() {
        assertMatches("id", "!=", "null");
        assertMatches("n", "!=", "null");
        assertNoMatch("missing", "!=", "null");
        assertNoMatch("nil", "!=", "null");
        assertNoMatch("id", "!=", "null, \"abc\"");
        assertMatches("id", "!=", "null, \"zzz\"");
    }

    @Test
    void aMissingOrNullFieldMakesEveryOtherClauseFalse() {
        for (String field : new String[] {"missing", "nil", "m.nope", "tags.9"}) {
            assertNoMatch(field, "==", "\"abc\"");
            assertNoMatch(field, "!=", "\"abc\"");
            assertNoMatch(field, ">", "\"1\"");
            assertNoMatch(field, "<", "\"1\"");
            assertNoMatch(field, ">=", "\"1\"");
            assertNoMatch(field, "<=", "\"1\"");
            assertNoMatch(field, "RLIKE", "\".*\"");
            assertNoMatch(field, "SIZEIS", "\"0\"");
            assertNoMatch(field, "CONTAINSKEY", "\"k1\"");
            assertNoMatch(field, "CONTAINSVALUE", "\"v1\"");
        }
    }

    @Test
    void nestedPathsAreCompared() {
        assertMatches("m.k1", "==", "\"v1\"");
        assertMatches("m.k2", ">", "\"1\"");
        assertMatches("tags.1", "==", "\"y\"");
        assertMatches("lm.0.b", "==", "\"two\"");
        assertMatches("lm.1.c", "==", "\"true\"");
    }

    @Test
    void mapsAndListsNeverEqualALiteral() {
        assertNoMatch("m", "==", "\"v1\"");
        assertNoMatch("tags", "==", "\"x\"");
    }

    // ------------------------------------------------------------------------------------------ ranges

    @Test
    void rangesCompareNumbersNumerically() {
        assertMatches("n", ">", "\"4\"");
        assertNoMatch("n", ">", "\"5\"");
        assertMatches("n", ">=", "\"5\"");
        assertMatches("n", "<", "\"10\"");
        assertMatches("n", "<", "\"5.5\"");
        assertMatches("n", "<=", "\"5.0\"");
        assertNoMatch("n", "<", "\"5\"");
        assertMatches("half", ">", "\"2\"");
        assertMatches("half", "<", "\"3\"");
        assertMatches("half", ">=", "\"2.5\"");
        assertNoMatch("half", ">", "\"2.5\"");
    }

    @Test
    void rangesMatchWhenAnyValueSatisfiesThem() {
        assertMatches("n", ">", "\"100\", \"1\"");
        assertNoMatch("n", ">", "\"100\", \"5\"");
    }

    @Test
    void rangesOnStringsAreLexicographic() {
        assertMatches("id", ">", "\"abb\"");
        assertMatches("id", "<", "\"b\"");
        assertMatches("word", ">=", "\"hello\"");
        assertNoMatch("word", "<", "\"hello\"");
        assertMatches("s5", ">", "\"10\"");
    }

    // ------------------------------------------------------------------------------------- typed values

    @Test
    void typedValuesAreCastToTheirOwnType() {
        assertMatches("n", "==", "{\"kind\": \"VALUE\", \"value\": \"5\", \"type\": \"LONG\"}");
        assertMatches("n", "==", "{\"kind\": \"VALUE\", \"value\": \"5.0\", \"type\": \"DOUBLE\"}");
        assertMatches("d", "==", "{\"kind\": \"VALUE\", \"value\": \"5\", \"type\": \"INTEGER\"}");
        assertMatches("half", ">", "{\"kind\": \"VALUE\", \"value\": \"2\", \"type\": \"FLOAT\"}");
        assertMatches("t", "==", "{\"kind\": \"VALUE\", \"value\": \"true\", \"type\": \"BOOLEAN\"}");
        assertMatches("id", "==", "{\"kind\": \"VALUE\", \"value\": \"abc\", \"type\": \"STRING\"}");
        assertMatches("id", "==", "{\"value\": \"abc\"}");
        assertNoMatch("n", "==", "{\"kind\": \"VALUE\", \"value\": \"6\", \"type\": \"LONG\"}");
    }

    // ----------------------------------------------------------------------------------- FIELD values

    @Test
    void fieldValuesCompareWithAnotherFieldOfTheSameRecord() {
        String other = "{\"kind\": \"FIELD\", \"value\": \"other\"}";
        assertMatches("n", "==", other);
        assertMatches("d", "==", other);
        assertNoMatch("n", "!=", other);
        assertMatches("n", ">=", other);
        assertNoMatch("n", ">", other);
        assertMatches("half", "==", "{\"kind\": \"FIELD\", \"value\": \"otherD\"}");
        assertMatches("n", ">", "{\"kind\": \"FIELD\", \"value\": \"otherD\"}");
        assertMatches("m.k2", "<", "{\"kind\": \"FIELD\", \"value\": \"n\"}");
        assertMatches("s5", "==", "{\"kind\": \"FIELD\", \"value\": \"n\"}");
    }

    @Test
    void aMissingOtherFieldNeverMatches() {
        String missing = "{\"kind\": \"FIELD\", \"value\": \"missing\"}";
        assertNoMatch("n", "==", missing);
        assertNoMatch("n", ">", missing);
        assertNoMatch("n", "<", missing);
        assertNoMatch("missing", "==", missing);
    }

    @Test
    void fieldValuesCanBeCastToAType() {
        assertMatches("s5", "==", "{\"kind\": \"FIELD\", \"value\": \"n\", \"type\": \"STRING\"}");
        assertMatches("n", "==", "{\"kind\": \"FIELD\", \"value\": \"s5\", \"type\": \"LONG\"}");
    }

    // ------------------------------------------------------------------------------------------- RLIKE

    @Test
    void rlikeMatchesOnlyTheWholeValue() {
        assertMatches("word", "RLIKE", "\"hello\"");
        assertMatches("word", "RLIKE", "\"h.*o\"");
        assertMatches("word", "RLIKE", "\"^h.*o$\"");
        assertNoMatch("word", "RLIKE", "\"ell\"");
        assertNoMatch("word", "RLIKE", "\"^h\"");
        assertNoMatch("word", "RLIKE", "\"lo$\"");
        assertNoMatch("word", "RLIKE", "\"HELLO\"");
        assertMatches("word", "RLIKE", "\"(?i)HELLO\"");
        assertMatches("word", "RLIKE", "\"xyz\", \"hel{2}o\"");
        assertMatches("empty", "RLIKE", "\"^$\"");
        assertMatches("empty", "RLIKE", "\"\"");
    }

    @Test
    void rlikeFindsInsideAValueOnlyWithDotStar() {
        Record root = Records.of("user", "root").build();
        Record adminRoot = Records.of("user", "admin.root").build();
        assertTrue(matches(rel("user", "RLIKE", "\"root\""), root));
        assertFalse(matches(rel("user", "RLIKE", "\"root\""), adminRoot));
        assertTrue(matches(rel("user", "RLIKE", "\".*root.*\""), adminRoot));
        assertTrue(matches(rel("user", "RLIKE", "\".*root.*\""), root));
    }

    @Test
    void rlikeAlternationMustCoverTheWholeValue() {
        assertMatches("word", "RLIKE", "\"hello|x\"");
        assertNoMatch("word", "RLIKE", "\"hell|x\"");
    }

    @Test
    void rlikeReadsNumbersAndBooleansAsText() {
        assertMatches("n", "RLIKE", "\"^5$\"");
        assertMatches("n", "RLIKE", "\"5\"");
        assertMatches("t", "RLIKE", "\"tru.\"");
        assertNoMatch("t", "RLIKE", "\"tru\"");
        assertNoMatch("big", "RLIKE", "\"9\"");
    }

    @Test
    void rlikeNeverMatchesMapsOrLists() {
        assertNoMatch("m", "RLIKE", "\".*\"");
        assertNoMatch("tags", "RLIKE", "\".*\"");
    }

    @Test
    void hostileRegexRunsInLinearTime() {
        RecordPredicate predicate = compile(rel("s", "RLIKE", "\"(a+)+$\", \"(x+x+)+y\", \"^(a|aa)+$\", \"b(a+)+\""));
        Record hostile = Records.of("s", "a".repeat(100_000) + "!").build();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertFalse(predicate.test(hostile)));
        Record xs = Records.of("s", "x".repeat(50_000)).build();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertFalse(predicate.test(xs)));
        Record matching = Records.of("s", "b" + "a".repeat(100_000)).build();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertTrue(predicate.test(matching)));
    }

    // ------------------------------------------------------------------------------------------ SIZEIS

    @Test
    void sizeIsMeasuresListsMapsAndStrings() {
        assertMatches("tags", "SIZEIS", "\"3\"");
        assertMatches("m", "SIZEIS", "2");
        assertMatches("word", "SIZEIS", "\"5\"");
        assertMatches("empty", "SIZEIS", "\"0\"");
        assertMatches("lm", "SIZEIS", "\"1\", \"2\"");
        assertNoMatch("tags", "SIZEIS", "\"2\"");
    }

    @Test
    void sizeIsDoesNotApplyToNumbersOrBooleans() {
        assertNoMatch("n", "SIZEIS", "\"5\"");
        assertNoMatch("n", "SIZEIS", "\"1\"");
        assertNoMatch("t", "SIZEIS", "\"1\"");
    }

    // ------------------------------------------------------------------------- CONTAINSKEY / CONTAINSVALUE

    @Test
    void containsKeyOnAMap() {
        assertMatches("m", "CONTAINSKEY", "\"k1\"");
        assertMatches("m", "CONTAINSKEY", "\"zz\", \"k2\"");
        assertNoMatch("m", "CONTAINSKEY", "\"v1\"");
    }

    @Test
    void containsKeyOnAListOfMaps() {
        assertMatches("lm", "CONTAINSKEY", "\"a\"");
        assertMatches("lm", "CONTAINSKEY", "\"c\"");
        assertNoMatch("lm", "CONTAINSKEY", "\"two\"");
    }

    @Test
    void containsKeyDoesNotApplyToPrimitivesOrListsOfPrimitives() {
        assertNoMatch("tags", "CONTAINSKEY", "\"x\"");
        assertNoMatch("id", "CONTAINSKEY", "\"abc\"");
    }

    @Test
    void containsValueOnAMap() {
        assertMatches("m", "CONTAINSVALUE", "\"v1\"");
        assertMatches("m", "CONTAINSVALUE", "\"2\"");
        assertNoMatch("m", "CONTAINSVALUE", "\"k1\"");
    }

    @Test
    void containsValueOnAListOfPrimitives() {
        assertMatches("tags", "CONTAINSVALUE", "\"y\"");
        assertMatches("tags", "CONTAINSVALUE", "\"3\"");
        assertMatches("tags", "CONTAINSVALUE", "\"nope\", \"x\"");
        assertNoMatch("tags", "CONTAINSVALUE", "\"z\"");
    }

    @Test
    void containsValueOnAListOfMaps() {
        assertMatches("lm", "CONTAINSVALUE", "\"two\"");
        assertMatches("lm", "CONTAINSVALUE", "\"1\"");
        assertMatches("lm", "CONTAINSVALUE", "\"true\"");
        assertNoMatch("lm", "CONTAINSVALUE", "\"a\"");
    }

    @Test
    void containsValueDoesNotApplyToPrimitives() {
        assertNoMatch("id", "CONTAINSVALUE", "\"abc\"");
        assertNoMatch("word", "CONTAINSVALUE", "\"ell\"");
    }

    @Test
    void containsKeyOnAMapOfMapsSearchesOneLevelDown() {
        Record inner = Records.of().map("mm", "y", mapOf("p", "w")).build();
        Record top = Records.of().map("mm", "p", mapOf("q", "u")).build();
        Record deeper = Records.of().map("mm", "a", mapOf("b", mapOf("p", "w"))).build();
        assertTrue(matches(rel("mm", "CONTAINSKEY", "\"p\""), inner));
        assertTrue(matches(rel("mm", "CONTAINSKEY", "\"p\""), top));
        assertTrue(matches(rel("mm", "CONTAINSKEY", "\"q\""), top));
        assertFalse(matches(rel("mm", "CONTAINSKEY", "\"p\""), deeper));
        assertFalse(matches(rel("mm", "CONTAINSKEY", "\"w\""), inner));
    }

    @Test
    void containsKeyDoesNotSearchMapsInsideListsInsideMaps() {
        Record record = Records.of().map("mm", "l", listOf(mapOf("p", "w"))).build();
        assertFalse(matches(rel("mm", "CONTAINSKEY", "\"p\""), record));
        assertTrue(matches(rel("mm", "CONTAINSKEY", "\"l\""), record));
    }

    @Test
    void containsValueOnAMapOfMapsSearchesOneLevelDown() {
        Record inner = Records.of().map("mm", "y", mapOf("p", "w")).build();
        Record top = Records.of().map("mm", "p", mapOf("q", "u")).build();
        Record mixed = Records.of().map("mm", "a", "w", "b", mapOf("c", 7L)).build();
        assertTrue(matches(rel("mm", "CONTAINSVALUE", "\"w\""), inner));
        assertFalse(matches(rel("mm", "CONTAINSVALUE", "\"w\""), top));
        assertFalse(matches(rel("mm", "CONTAINSVALUE", "\"p\""), inner));
        assertTrue(matches(rel("mm", "CONTAINSVALUE", "\"w\""), mixed));
        assertTrue(matches(rel("mm", "CONTAINSVALUE", "\"7\""), mixed));
    }

    @Test
    void containsValueDoesNotLookTwoLevelsDownNorIntoInnerLists() {
        Record deep = Records.of().map("m", "inner", mapOf("deep", mapOf("x", "x"))).build();
        assertFalse(matches(rel("m", "CONTAINSVALUE", "\"x\""), deep));
        Record innerList = Records.of().map("m", "inner", listOf("x")).build();
        assertFalse(matches(rel("m", "CONTAINSVALUE", "\"x\""), innerList));
        Record listOfLists = Records.of().list("l", listOf("x")).build();
        assertFalse(matches(rel("l", "CONTAINSVALUE", "\"x\""), listOfLists));
    }

    // ------------------------------------------------------------------------------------------ logical

    @Test
    void andRequiresEveryClause() {
        assertTrue(matches("{\"operation\": \"AND\", \"clauses\": [" + rel("id", "==", "\"abc\"") + ", " + rel("n", ">", "\"1\"") + "]}"));
        assertFalse(matches("{\"operation\": \"AND\", \"clauses\": [" + rel("id", "==", "\"abc\"") + ", " + rel("n", ">", "\"9\"") + "]}"));
    }

    @Test
    void orRequiresAnyClause() {
        assertTrue(matches("{\"operation\": \"OR\", \"clauses\": [" + rel("id", "==", "\"no\"") + ", " + rel("n", ">", "\"1\"") + "]}"));
        assertFalse(matches("{\"operation\": \"OR\", \"clauses\": [" + rel("id", "==", "\"no\"") + ", " + rel("n", ">", "\"9\"") + "]}"));
    }

    @Test
    void notNegatesItsClause() {
        assertFalse(matches("{\"operation\": \"NOT\", \"clauses\": [" + rel("id", "==", "\"abc\"") + "]}"));
        assertTrue(matches("{\"operation\": \"NOT\", \"clauses\": [" + rel("id", "==", "\"no\"") + "]}"));
        // a missing field makes the inner clause false, so its negation is true
        assertTrue(matches("{\"operation\": \"NOT\", \"clauses\": [" + rel("missing", "==", "\"x\"") + "]}"));
    }

    @Test
    void logicalClausesNestToAnyDepth() {
        String nested = "{\"operation\": \"AND\", \"clauses\": ["
                        + "{\"operation\": \"OR\", \"clauses\": [" + rel("id", "==", "\"no\"") + ", "
                        + "  {\"operation\": \"NOT\", \"clauses\": [" + rel("n", "<", "\"3\"") + "]}]},"
                        + "{\"operation\": \"NOT\", \"clauses\": [{\"operation\": \"NOT\", \"clauses\": [" + rel("t", "==", "\"true\"") + "]}]}]}";
        assertTrue(matches(nested));
        assertFalse(matches(nested, Records.of("id", "no", "n", 5L, "t", false).build()));
        assertTrue(matches(nested, Records.of("id", "no", "n", 1L, "t", true).build()));
        assertFalse(matches(nested, Records.of("id", "x", "n", 1L, "t", true).build()));
    }

    @Test
    void topLevelFiltersAreAnded() {
        RecordPredicate p = Predicates.compile(Queries.parse("{\"filters\": [" + rel("id", "==", "\"abc\"") + ", "
                                                             + rel("n", "==", "\"6\"") + "]}").filter());
        assertFalse(p.test(RECORD));
        assertTrue(p.test(Records.of("id", "abc", "n", 6L).build()));
    }

    @Test
    void operationWordsAreCaseInsensitive() {
        assertMatches("word", "rlike", "\"h.*\"");
        assertMatches("tags", "sizeis", "\"3\"");
        assertTrue(matches("{\"operation\": \"not\", \"clauses\": [" + rel("id", "==", "\"no\"") + "]}"));
    }

    @Test
    void listsAsValuesInsideRecordsAreUntouched() {
        Record record = Records.of().list("l", listOf(1L, 2L)).build();
        assertTrue(matches(rel("l", "SIZEIS", "\"1\""), record));
        assertTrue(matches(rel("l.0", "SIZEIS", "\"2\""), record));
        assertTrue(matches(rel("l.0.1", "==", "\"2\""), record));
    }

    @Test
    void rlikeAnswersRememberedPerValueAreRe2sAnswers() {
        // many values, few slots: values share slots, come back, and each answer must still be RE2's for that value
        String[] patterns = {".*[0-9]{2}.*", "[a-z]+", "(?i)ab.*", "[0-9]+[a-z]+"};
        Random r = new Random(5);
        for (String pattern : patterns) {
            RecordPredicate p = compile(rel("v", "RLIKE", "\"" + pattern.replace("\\", "\\\\") + "\""));
            Pattern re2 = Pattern.compile(pattern);
            for (int i = 0; i < 5_000; i++) {
                StringBuilder v = new StringBuilder();
                for (int k = r.nextInt(4); k >= 0; k--) {
                    v.append("aB1z9_".charAt(r.nextInt(6)));
                }
                if (r.nextInt(50) == 0) {
                    v.append("x".repeat(70)); // longer than what is remembered
                }
                String value = v.toString();
                assertEquals(re2.matcher(value).matches(), p.test(Records.of("v", value).build()),
                             pattern + " on '" + value + "'");
            }
        }
    }
}

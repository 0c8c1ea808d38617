package dev.bullet.index;

import dev.bullet.query.Clause;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import dev.bullet.testing.Queries;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A top-level OR whose branches different indexes serve (a regex or an equality, two ranges on two fields, a contains
 * or a negation) is put under every branch instead of meeting every record; an OR with a branch no index serves is
 * scanned and leaves nothing behind in the indexes that took its other branches. Which records meet which queries is
 * checked against the filters themselves by the property tests; here: the placement, and removal.
 */
class QueryIndexBranchesTest {
    private final RecordDecoder decoder = new RecordDecoder();

    private static Clause filter(String clauses) {
        return Queries.parse("{\"filters\":[{\"operation\":\"OR\",\"clauses\":[" + clauses + "]}]}").filter();
    }

    private static String clause(String field, String op, String value) {
        return "{\"field\":\"" + field + "\",\"operation\":\"" + op + "\",\"values\":[\"" + value + "\"]}";
    }

    private Record record(String json) {
        return decoder.decode(json.getBytes(StandardCharsets.UTF_8));
    }

    private static Set<Integer> candidates(QueryIndex<Integer> index, Record record) {
        Set<Integer> out = new TreeSet<>();
        index.candidates(record, out::add, out::add);
        return out;
    }

    @Test
    void anOrOfBranchesOfDifferentKindsMeetsOnlyTheRecordsABranchMayMatch() {
        QueryIndex<Integer> index = new QueryIndex<>();
        List<Integer> queries = new ArrayList<>();
        String[] ors = {
            clause("s", "RLIKE", "^err.*") + "," + clause("t", "==", "warn"),
            clause("n", ">", "100") + "," + clause("k", "<", "-5"),
            clause("m", "CONTAINSKEY", "a") + "," + clause("s", "!=", "ok"),
            clause("s", "RLIKE", ".*disk.*") + "," + clause("s", "RLIKE", ".*cpu.*"),
            "{\"operation\":\"OR\",\"clauses\":[" + clause("t", "==", "x") + "," + clause("n", "<", "0") + "]},"
                + clause("m.a", "RLIKE", "z+"),
        };
        for (int q = 0; q < ors.length; q++) {
            index.add(q, filter(ors[q]));
            queries.add(q);
        }
        assertEquals(0, index.scanned(), "every branch has a place: none is scanned");
        assertEquals(Set.of(), candidates(index, record("{\"s\":\"ok\",\"t\":\"info\",\"n\":5,\"k\":0,\"m\":{\"b\":1}}")));
        assertTrue(candidates(index, record("{\"s\":\"ok\",\"t\":\"warn\"}")).contains(0));
        assertTrue(candidates(index, record("{\"s\":\"error here\"}")).contains(0));
        assertTrue(candidates(index, record("{\"k\":-9}")).contains(1));
        assertTrue(candidates(index, record("{\"n\":101}")).contains(1));
        assertTrue(candidates(index, record("{\"s\":\"ok\",\"m\":{\"a\":1}}")).contains(2));
        assertTrue(candidates(index, record("{\"s\":\"no cpu left\"}")).contains(3));
        assertTrue(candidates(index, record("{\"s\":\"ok\",\"n\":-1}")).contains(4));
        assertTrue(candidates(index, record("{\"s\":\"ok\",\"m\":{\"a\":\"zz\"}}")).contains(4));
        for (Integer q : queries) {
            assertTrue(index.remove(q));
        }
        assertEquals(0, index.size());
        assertEquals(Set.of(), candidates(index, record("{\"s\":\"error disk cpu\",\"t\":\"warn\",\"n\":101,\"m\":{\"a\":1}}")));
    }

    @Test
    void anOrWithABranchNoIndexServesIsScannedAndLeavesNothingBehind() {
        QueryIndex<Integer> index = new QueryIndex<>();
        Integer query = 7;
        // the regex needs no literal (it would meet every record); the string comparison has no index at all
        index.add(query, filter(clause("s", "RLIKE", "[0-9]+") + "," + clause("t", ">", "m")));
        assertEquals(1, index.scanned());
        assertEquals(0, index.unfilteredRegexQueries(), "the regex branch taken before the comparison was given back");
        assertEquals(Set.of(7), candidates(index, record("{\"a\":1}")));
        assertTrue(index.remove(query));
        assertEquals(0, index.scanned());
        assertEquals(Set.of(), candidates(index, record("{\"s\":\"12\",\"t\":\"z\"}")));
    }

    @Test
    void manyOrsOfRegexesOnOnePathComeAndGoAndTheLastOnesStillAnswer() {
        QueryIndex<Integer> index = new QueryIndex<>();
        // enough literals on one path that taking queries out renumbers them (the prefilter compacts the path)
        Integer[] ids = new Integer[200]; // the index knows a query by identity: one object each throughout
        for (int q = 0; q < ids.length; q++) {
            ids[q] = Integer.valueOf(q + 1000); // past the boxing cache: distinct objects
        }
        for (int round = 0; round < 3; round++) {
            for (int q = 0; q < 200; q++) {
                index.add(ids[q], filter(clause("s", "RLIKE", ".*alpha" + q + "x.*") + ","
                                    + clause("s", "RLIKE", ".*beta" + q + "y.*")));
            }
            assertEquals(0, index.scanned());
            for (int q = 0; q < 199; q++) {
                assertTrue(index.remove(ids[q]));
            }
            assertTrue(candidates(index, record("{\"s\":\"a beta199y b\"}")).contains(ids[199]), "round " + round);
            assertTrue(candidates(index, record("{\"s\":\"alpha199x\"}")).contains(ids[199]), "round " + round);
            assertEquals(Set.of(), candidates(index, record("{\"s\":\"alpha5x beta7y\"}")), "round " + round);
            assertTrue(index.remove(ids[199]));
            assertEquals(Set.of(), candidates(index, record("{\"s\":\"alpha199x\"}")), "round " + round);
        }
    }

    /** What the index hands out for one record: the queries to test, and those it decided matched. */
    private record Handed(Set<Integer> tested, Set<Integer> matched) {
    }

    private Handed handed(QueryIndex<Integer> index, String json) {
        Handed out = new Handed(new TreeSet<>(), new TreeSet<>());
        index.candidates(record(json), out.tested()::add, out.matched()::add);
        return out;
    }

    @Test
    void aNegatedRegexMeetsTheValuesItsRegexSurelyFailsAsMatchesAndTestsTheOthers() {
        QueryIndex<Integer> index = new QueryIndex<>();
        index.add(1, Queries.parse("{\"filters\":[{\"operation\":\"NOT\",\"clauses\":["
                                   + clause("s", "RLIKE", ".*error.*") + "]}]}").filter());
        index.add(2, Queries.parse("{\"filters\":[{\"operation\":\"AND\",\"clauses\":[{\"operation\":\"NOT\","
                                   + "\"clauses\":[" + clause("s", "RLIKE", "^a[0-9]+x$") + "]},"
                                   + clause("t", ">", "m") + "]}]}").filter());
        assertEquals(0, index.scanned());
        for (String json : new String[] {"{\"s\":\"all fine\"}", "{\"t\":\"z\"}", "{\"s\":{\"error\":1}}",
                                         "{\"s\":null}", "{\"s\":[\"error\"]}", "{\"s\":12}"}) {
            Handed h = handed(index, json);
            assertEquals(Set.of(1), h.matched(), "the whole filter is the NOT, surely passed: " + json);
            assertEquals(Set.of(2), h.tested(), "the NOT is a conjunct: the rest is tested: " + json);
        }
        Handed error = handed(index, "{\"s\":\"an error here\",\"t\":\"z\"}");
        assertEquals(Set.of(), error.matched(), "the regex surely matches: the NOT surely fails");
        assertEquals(Set.of(2), error.tested());
        Handed decided = handed(index, "{\"s\":\"a12x\"}");
        assertEquals(Set.of(), decided.tested(), "the regex is decided in the bytes and matches: the NOT surely fails");
        assertEquals(Set.of(1), decided.matched());
        Handed wide = handed(index, "{\"s\":\"a1\u00e9x\"}");
        assertEquals(Set.of(1, 2), wide.tested(), "outside ASCII the regexes are not decided here: both NOTs are tested");
        assertEquals(Set.of(), wide.matched());
        assertTrue(index.remove(1));
        assertTrue(index.remove(2));
        assertEquals(new Handed(Set.of(), Set.of()), handed(index, "{\"s\":\"fine\"}"));
    }

    @Test
    void anOrInsideAnAndIsPlacedUnderItsBranchesButNeverDecided() {
        QueryIndex<Integer> index = new QueryIndex<>();
        // the comparison has no index; the OR's branches do (a whole-literal regex, which could be decided, and ==)
        index.add(1, Queries.parse("{\"filters\":[{\"operation\":\"AND\",\"clauses\":[" + clause("u", ">", "m")
                                   + ",{\"operation\":\"OR\",\"clauses\":[" + clause("s", "RLIKE", ".*error.*") + ","
                                   + clause("t", "==", "x") + "]}]}]}").filter());
        assertEquals(0, index.scanned());
        assertEquals(new Handed(Set.of(1), Set.of()), handed(index, "{\"s\":\"an error\",\"u\":\"a\"}"),
                     "the regex branch matches: a candidate, tested for the comparison, never decided (u > m fails)");
        assertEquals(new Handed(Set.of(1), Set.of()), handed(index, "{\"t\":\"x\"}"));
        assertEquals(new Handed(Set.of(), Set.of()), handed(index, "{\"s\":\"fine\",\"t\":\"y\",\"u\":\"z\"}"),
                     "no branch may match: not a candidate");
        assertTrue(index.remove(1));
        assertEquals(new Handed(Set.of(), Set.of()), handed(index, "{\"s\":\"an error\",\"t\":\"x\"}"));
    }

    @Test
    void aNegatedOrIsPlacedUnderTheNegationOfOneBranchAndNeverDecided() {
        QueryIndex<Integer> index = new QueryIndex<>();
        // NOT (s == debug OR t RLIKE .*health.*): NOT s == debug is required, the negation index takes it
        index.add(1, Queries.parse("{\"filters\":[{\"operation\":\"NOT\",\"clauses\":[{\"operation\":\"OR\","
                                   + "\"clauses\":[" + clause("s", "==", "debug") + "," + clause("t", "RLIKE", ".*health.*")
                                   + "]}]}]}").filter());
        // NOT (m CONTAINSKEY k OR n < 5): no index takes the first negation, a range takes the second (n >= 5 or missing)
        index.add(2, Queries.parse("{\"filters\":[{\"operation\":\"NOT\",\"clauses\":[{\"operation\":\"OR\","
                                   + "\"clauses\":[" + clause("m", "CONTAINSKEY", "k") + "," + clause("n", "<", "5")
                                   + "]}]}]}").filter());
        assertEquals(0, index.scanned());
        assertEquals(new Handed(Set.of(), Set.of()), handed(index, "{\"s\":\"debug\",\"n\":1}"),
                     "s == debug and n < 5: both NOTs surely fail");
        assertEquals(new Handed(Set.of(1, 2), Set.of()), handed(index, "{\"s\":\"info\",\"t\":\"health check\",\"n\":7}"),
                     "each may match: tested (the first fails on t, the second on nothing), never decided");
        assertTrue(index.remove(1));
        assertTrue(index.remove(2));
        assertEquals(new Handed(Set.of(), Set.of()), handed(index, "{\"s\":\"info\",\"n\":7}"));
    }
}

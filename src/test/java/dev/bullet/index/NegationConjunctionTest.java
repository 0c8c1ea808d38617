package dev.bullet.index;

import dev.bullet.query.Clause;
import dev.bullet.querying.Predicates;
import dev.bullet.querying.RecordPredicate;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import dev.bullet.testing.Queries;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Filters made only of negations on several paths ({@code a != x AND NOT b == y}, {@code NOT (a == x OR b == y)}), and
 * negations of null ({@code a != null}, {@code NOT (a == null)}, alone or among literals), are decided by the negation
 * index a batch at a time: a query is handed out as matched only where it matches, and every
 * record it matches meets it — over batches longer than one word of bits, with records missing fields, holding
 * nulls, numbers, strings that read as numbers (typed literals), lists and maps, while queries come and go.
 */
class NegationConjunctionTest {
    private static final String[] FIELDS = {"a", "b", "c", "m.k"};
    private static final String[] LITERALS = {"x", "y", "5", "", "abc"};
    private static final String[] VALUES = {"\"x\"", "\"y\"", "\"z\"", "\"5\"", "\" 5\"", "5", "5.0", "\"\"", "null",
                                            "true", "[\"x\"]", "{\"k\":\"x\"}", "\"abc\"", "\"\\u0078\"", "\"é\""};
    private final RecordDecoder decoder = new RecordDecoder();

    private static String literal(Random r) {
        if (r.nextInt(6) == 0) { // BQL's typed numbers
            return "{\"kind\":\"VALUE\",\"value\":\"5\",\"type\":\"LONG\"}";
        }
        if (r.nextInt(6) == 0) { // a missing or null field
            return "null";
        }
        return "\"" + LITERALS[r.nextInt(LITERALS.length)] + "\"";
    }

    private static String relational(Random r, String op) {
        StringBuilder values = new StringBuilder(literal(r));
        for (int i = r.nextInt(3); i > 0; i--) {
            values.append(',').append(literal(r));
        }
        return "{\"field\":\"" + FIELDS[r.nextInt(FIELDS.length)] + "\",\"operation\":\"" + op + "\",\"values\":["
               + values + "]}";
    }

    private static String logical(String op, String... clauses) {
        return "{\"operation\":\"" + op + "\",\"clauses\":[" + String.join(",", clauses) + "]}";
    }

    /** A negation, or a clause that is a conjunction of negations, or (now and then) one that is not. */
    private static String negation(Random r, int depth) {
        switch (depth > 2 ? r.nextInt(2) : r.nextInt(7)) {
            case 0:
                return relational(r, "!=");
            case 1:
                return logical("NOT", relational(r, "=="));
            case 2:
                return logical("AND", negation(r, depth + 1), negation(r, depth + 1));
            case 3:
                return logical("NOT", logical("OR", relational(r, "=="), relational(r, "=="), relational(r, "==")));
            case 4:
                return logical("NOT", logical("OR", relational(r, "=="), logical("NOT", negation(r, depth + 1))));
            case 5:
                return logical("NOT", logical("NOT", negation(r, depth + 1)));
            default: // not a conjunction of negations: the index must not decide it
                return r.nextBoolean() ? logical("NOT", logical("AND", relational(r, "=="), relational(r, "==")))
                        : logical("OR", negation(r, depth + 1), relational(r, "=="));
        }
    }

    private static String filter(Random r) {
        StringBuilder filters = new StringBuilder(negation(r, 0));
        for (int i = r.nextInt(3); i > 0; i--) {
            filters.append(',').append(negation(r, 0));
        }
        return "{\"filters\":[" + filters + "]}";
    }

    private Record record(Random r) {
        StringBuilder json = new StringBuilder("{");
        for (String field : new String[] {"a", "b", "c"}) {
            if (r.nextInt(8) != 0) {
                json.append(json.length() > 1 ? "," : "").append('"').append(field).append("\":")
                    .append(VALUES[r.nextInt(VALUES.length)]);
            }
        }
        if (r.nextBoolean()) {
            json.append(json.length() > 1 ? "," : "").append("\"m\":{\"k\":").append(VALUES[r.nextInt(VALUES.length)])
                .append('}');
        }
        return decoder.decode(json.append('}').toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Each record's candidates and decided matches from one call over the whole list. */
    private static final class Handed extends Candidates<Integer> {
        final List<Set<Integer>> visited = new ArrayList<>();
        final List<Set<Integer>> matched = new ArrayList<>();

        Handed(int records) {
            for (int i = 0; i < records; i++) {
                visited.add(new HashSet<>());
                matched.add(new HashSet<>());
            }
        }

        @Override
        protected void visit(int record, Integer query) {
            visited.get(record).add(query);
        }

        @Override
        protected void matched(int record, Integer query) {
            matched.get(record).add(query);
        }
    }

    @Test
    void decidedMatchesAreRightAndNoMatchIsMissedOverLongBatches() {
        Random r = new Random(1127);
        int decided = 0;
        for (int round = 0; round < 60; round++) {
            QueryIndex<Integer> index = new QueryIndex<>();
            Map<Integer, RecordPredicate> running = new HashMap<>();
            Map<Integer, String> texts = new HashMap<>();
            int next = 0;
            for (; next < 40; next++) {
                String json = filter(r);
                Clause filter = Queries.parse(json).filter();
                index.add(next, filter);
                running.put(next, Predicates.compile(filter));
                texts.put(next, json);
            }
            for (int step = 0; step < 4; step++) {
                List<Record> records = new ArrayList<>();
                for (int i = 0, n = 1 + r.nextInt(150); i < n; i++) { // one word of bits, or two, or three
                    records.add(record(r));
                }
                int from = r.nextInt(3);
                from = Math.min(from, records.size() - 1);
                Handed handed = new Handed(records.size() - from);
                index.candidates(records, from, records.size(), handed);
                for (int i = from; i < records.size(); i++) {
                    Record record = records.get(i);
                    Set<Integer> visited = handed.visited.get(i - from);
                    Set<Integer> matched = handed.matched.get(i - from);
                    for (Map.Entry<Integer, RecordPredicate> q : running.entrySet()) {
                        boolean matches = q.getValue().test(record);
                        String what = texts.get(q.getKey()) + " on " + record.asMap();
                        if (matched.contains(q.getKey())) {
                            assertTrue(matches, "decided a match but does not match: " + what);
                            decided++;
                        } else if (matches) {
                            assertTrue(visited.contains(q.getKey()), "matches but was not handed out: " + what);
                        }
                    }
                    Set<Integer> handedOut = new HashSet<>(visited);
                    handedOut.addAll(matched);
                    assertTrue(running.keySet().containsAll(handedOut), "only running queries are handed out");
                }
                // queries come and go between batches: a removed one leaves no marks behind
                for (int k = 0; k < 10; k++) {
                    int gone = new ArrayList<>(running.keySet()).get(r.nextInt(running.size()));
                    assertTrue(index.remove(gone));
                    running.remove(gone);
                    String json = filter(r);
                    Clause filter = Queries.parse(json).filter();
                    index.add(next, filter);
                    running.put(next, Predicates.compile(filter));
                    texts.put(next, json);
                    next++;
                }
            }
        }
        assertTrue(decided > 10_000, "too few decided matches to prove anything: " + decided);
    }

    @Test
    void aNegatedOrOfEqualitiesOnTwoFieldsIsDecided() {
        QueryIndex<Integer> index = new QueryIndex<>();
        index.add(0, Queries.parse("{\"filters\":[" + logical("NOT", logical("OR",
            "{\"field\":\"a\",\"operation\":\"==\",\"values\":[\"x\"]}",
            "{\"field\":\"b\",\"operation\":\"==\",\"values\":[\"y\"]}")) + "]}").filter());
        index.add(1, Queries.parse("{\"filters\":[{\"field\":\"a\",\"operation\":\"!=\",\"values\":[\"x\"]},"
                                   + "{\"field\":\"b\",\"operation\":\"!=\",\"values\":[\"y\"]}]}").filter());
        List<Record> records = new ArrayList<>();
        for (String json : new String[] {"{\"a\":\"q\",\"b\":\"q\"}", "{\"a\":\"x\",\"b\":\"q\"}",
                                         "{\"a\":\"q\",\"b\":\"y\"}", "{\"a\":\"q\"}"}) {
            records.add(decoder.decode(json.getBytes(StandardCharsets.UTF_8)));
        }
        Handed handed = new Handed(records.size());
        index.candidates(records, 0, records.size(), handed);
        assertEquals(Set.of(0, 1), handed.matched.get(0), "neither literal: both decided");
        assertTrue(handed.visited.get(0).isEmpty(), "decided, so not tested: " + handed.visited.get(0));
        for (int i = 1; i <= 2; i++) { // a literal found: neither can match
            assertTrue(handed.matched.get(i).isEmpty() && handed.visited.get(i).isEmpty(), "record " + i);
        }
        // b missing: NOT b == y holds (a candidate, tested), b != y does not (not handed out at all)
        assertEquals(Set.of(0), handed.visited.get(3));
        assertFalse(handed.matched.get(3).contains(1));
    }

    @Test
    void aNegatedNullIsDecidedForAnyValueAndFailsAMissingOrNullField() {
        QueryIndex<Integer> index = new QueryIndex<>();
        index.add(0, Queries.parse("{\"filters\":[{\"field\":\"a\",\"operation\":\"!=\",\"values\":[null]}]}").filter());
        index.add(1, Queries.parse("{\"filters\":[" + logical("NOT",
            "{\"field\":\"a\",\"operation\":\"==\",\"values\":[null,\"x\"]}") + "]}").filter());
        List<Record> records = new ArrayList<>();
        for (String json : new String[] {"{\"a\":\"q\"}", "{\"a\":5}", "{\"a\":[1]}", "{\"a\":null}", "{\"b\":1}",
                                         "{\"a\":\"x\"}"}) {
            records.add(decoder.decode(json.getBytes(StandardCharsets.UTF_8)));
        }
        Handed handed = new Handed(records.size());
        index.candidates(records, 0, records.size(), handed);
        assertEquals(Set.of(0, 1), handed.matched.get(0), "a string");
        assertTrue(handed.matched.get(1).contains(0) && handed.matched.get(2).contains(0), "any value: a number, a list");
        for (int i = 3; i <= 4; i++) { // null or missing: neither matches, neither is handed out
            assertTrue(handed.matched.get(i).isEmpty() && handed.visited.get(i).isEmpty(), "record " + i);
        }
        assertEquals(Set.of(0), handed.matched.get(5), "\"x\" is among the second's literals");
    }
}

package dev.bullet.index;

import dev.bullet.query.Clause;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import dev.bullet.testing.Queries;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A path whose last RLIKE query leaves keeps its automata for the next query there (a RAW query alone on its path is
 * started again each time it fills up), among the most recently left {@link RegexPrefilter#RETIRED} paths; a path
 * reused that way, or built anew, answers as a fresh one does.
 */
class RegexPrefilterRetiredPathsTest {
    private final RecordDecoder decoder = new RecordDecoder();
    private final PathSpans spans = new PathSpans();
    private final RegexPrefilter<Integer> prefilter = new RegexPrefilter<>(spans);

    private static Clause rlike(int field, String pattern) {
        return Queries.parse("{\"filters\":[{\"field\":\"f" + field + "\",\"operation\":\"RLIKE\",\"values\":[\""
                             + pattern + "\"]}]}").filter();
    }

    private Record record(int field, String value) {
        return decoder.decode(("{\"x\":1,\"f" + field + "\":\"" + value + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    /** The queries the prefilter hands out for each record, as candidates or as matches. */
    private List<TreeSet<Integer>> candidates(List<Record> records) {
        List<TreeSet<Integer>> out = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            out.add(new TreeSet<>());
        }
        spans.start(records, 0, records.size());
        prefilter.candidates(spans, new Candidates<>() {
            @Override
            protected void visit(int record, Integer query) {
                out.get(record).add(query);
            }

            @Override
            protected void matched(int record, Integer query) {
                out.get(record).add(query);
            }
        });
        spans.clear();
        return out;
    }

    /** Adds the query on its field, checks what it matches, takes it out again. */
    private void roundTrip(int id, int field, String pattern) {
        Integer query = id; // the index knows a query by identity: one object throughout
        assertTrue(prefilter.add(query, rlike(field, pattern)));
        List<TreeSet<Integer>> got = candidates(List.of(record(field, "abc"), record(field, "xbc"),
                                                        record(field + 1, "abc")));
        List<TreeSet<Integer>> expected = List.of(new TreeSet<>(List.of(query)), new TreeSet<>(), new TreeSet<>());
        assertEquals(expected, got, "f" + field + " RLIKE " + pattern);
        assertTrue(prefilter.remove(query));
    }

    @Test
    void aPathLeftAndComeBackToKeepsItsDfa() {
        roundTrip(1, 0, "^ab.*");
        long built = prefilter.dfaBuilds();
        assertEquals(1, built);
        for (int again = 0; again < 50; again++) {
            roundTrip(2 + again, 0, "^ab.*");
        }
        assertEquals(built, prefilter.dfaBuilds(), "the same pattern on a path that was left: no new DFA");
        roundTrip(100, 0, "[a]bc");
        assertEquals(built + 1, prefilter.dfaBuilds(), "a new pattern: the DFA is built again, and answers for it");
    }

    @Test
    void onlyTheMostRecentlyLeftPathsAreKept() {
        int paths = RegexPrefilter.RETIRED + 40;
        for (int f = 0; f < paths; f++) {
            roundTrip(f, 2 * f, "^ab.*");
        }
        assertEquals(paths, prefilter.dfaBuilds());
        for (int f = paths - RegexPrefilter.RETIRED; f < paths; f++) { // kept
            roundTrip(1_000 + f, 2 * f, "^ab.*");
        }
        assertEquals(paths, prefilter.dfaBuilds());
        for (int f = 0; f < 10; f++) { // let go: built again, and right
            roundTrip(2_000 + f, 2 * f, "^ab.*");
        }
        assertEquals(paths + 10, prefilter.dfaBuilds());
    }
}

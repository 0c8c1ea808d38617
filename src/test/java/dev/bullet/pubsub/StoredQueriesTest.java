package dev.bullet.pubsub;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The query store read back: last value wins, tombstones end entries, bad values are skipped, durations end them. */
class StoredQueriesTest {
    private static final long T0 = 1_700_000_000_000L;

    private static byte[] value(String id, long start, int partition) {
        return new StoredQuery(id, "{\"duration\": 1000}", start, partition).toValue();
    }

    @Test
    void anEntryRoundTripsThroughItsJsonForm() {
        StoredQuery q = new StoredQuery("q1", "SELECT * FROM STREAM(30000, TIME) WHERE a = \"é\" LIMIT 1", T0, 3);
        assertEquals(q, StoredQuery.fromValue("q1", q.toValue()));
        assertEquals("{\"v\":1,\"query\":\"{\\\"duration\\\": 1000}\",\"start_time\":" + T0 + ",\"reply_partition\":2}",
                     new String(value("x", T0, 2), StandardCharsets.UTF_8));
    }

    @Test
    void theLastValueOfAnIdWinsAndATombstoneRemovesIt() {
        StoredQueries stored = new StoredQueries();
        stored.apply("a", value("a", T0, 0));
        stored.apply("b", value("b", T0, 1));
        stored.apply("a", value("a", T0 + 5, 2));
        stored.apply("b", null);
        stored.apply("c", value("c", T0, 3));
        stored.apply("gone", null); // a tombstone of an id never seen (its entry compacted away)

        assertEquals(List.of(new StoredQuery("a", "{\"duration\": 1000}", T0 + 5, 2),
                             new StoredQuery("c", "{\"duration\": 1000}", T0, 3)), stored.live());
        assertEquals(0, stored.malformed());
    }

    @Test
    void aValueThatIsNotAStoredQueryIsCountedSkippedAndEndsWhatWasStoredBefore() {
        StoredQueries stored = new StoredQueries();
        stored.apply("a", value("a", T0, 0));
        stored.apply("a", "not json".getBytes(StandardCharsets.UTF_8));
        stored.apply("b", "{\"v\": 2, \"query\": \"{}\", \"start_time\": 1, \"reply_partition\": 0}".getBytes(StandardCharsets.UTF_8));
        stored.apply("c", "{\"v\": 1, \"start_time\": 1, \"reply_partition\": 0}".getBytes(StandardCharsets.UTF_8));
        stored.apply("d", "[1]".getBytes(StandardCharsets.UTF_8));
        stored.apply(null, value("e", T0, 0));
        stored.apply("f", "{\"v\": 1, \"query\": \"{}\", \"start_time\": \"soon\", \"reply_partition\": 0}"
            .getBytes(StandardCharsets.UTF_8));

        assertEquals(List.of(), stored.live());
        assertEquals(6, stored.malformed());
    }

    @Test
    void entriesWhoseDurationIsOverOrThatAreNoLongerValidEnded() {
        StoredQuery running = new StoredQuery("running", "r", T0, 0);
        StoredQuery over = new StoredQuery("over", "o", T0, 0);
        StoredQuery endsNow = new StoredQuery("endsNow", "n", T0, 0);
        StoredQuery invalid = new StoredQuery("invalid", "i", T0, 0);
        StoredQuery forever = new StoredQuery("forever", "f", T0, 0);
        Map<String, Long> durations = Map.of("r", 40_000L, "o", 10_000L, "n", 20_000L, "i", StoredQueries.INVALID,
                                             "f", Long.MAX_VALUE);

        StoredQueries.Split split = StoredQueries.split(List.of(running, over, endsNow, invalid, forever), T0 + 20_000,
                                                        q -> durations.get(q.query()));

        assertEquals(List.of(running, forever), split.live());
        assertEquals(List.of(over, endsNow, invalid), split.ended());
    }

    @Test
    void aStoredQueryNeedsAnIdAndAQuery() {
        assertThrows(IllegalArgumentException.class, () -> new StoredQuery("", "{}", T0, 0));
        assertThrows(IllegalArgumentException.class, () -> new StoredQuery("a", null, T0, 0));
    }
}

package dev.bullet.querying;

import dev.bullet.common.BulletError;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.testing.Queries;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One Join task: ownership, final results, grace for late partials, kills and counters; time only via {@code now}. */
class JoinEngineTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final long GRACE = 500;
    private static final String RAW_2 = "{\"aggregation\": {\"type\": \"RAW\", \"size\": 2}, \"duration\": 10000}";
    private static final String COUNT = "{\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\": [{\"type\": \"COUNT\"}]}},"
                                        + " \"duration\": 1000}";

    private final List<JoinEngine.Emitted> out = new ArrayList<>();

    private static Record rec(long i) {
        return Records.of("i", i).build();
    }

    /** The partial one Filter task sends for {@code records}: RAW right after the batch, others on a tick. */
    private static byte[] partial(String json, long now, Record... records) {
        FilterEngine filter = new FilterEngine(QuerySettings.defaults());
        assertTrue(filter.add("q", json, T0));
        List<FilterEngine.Partial> partials = new ArrayList<>();
        filter.consume(List.of(records), now, partials);
        filter.tick(now, partials);
        assertEquals(1, partials.size());
        return partials.get(0).data();
    }

    @SuppressWarnings("unchecked")
    private static List<BulletError> errors(Result r) {
        return (List<BulletError>) r.meta().get("errors");
    }

    @Test
    void invalidQueryIsAnsweredAtOnceWithErrors() {
        JoinEngine engine = new JoinEngine(QuerySettings.defaults(), 1, GRACE);

        JoinEngine.Emitted error = engine.add("bad", "{\"filters\": [", T0, 3);

        assertNotNull(error);
        assertEquals("bad", error.id());
        assertEquals(3, error.replyPartition());
        assertTrue(error.result().isFinal());
        assertEquals(List.of(), error.result().records());
        assertFalse(errors(error.result()).isEmpty());
        assertEquals(0, engine.size());
        assertEquals(1, engine.improperQueries());
        assertEquals(0, engine.createdQueries());
    }

    @Test
    void rawFinalIsSentWhenTheSizeIsReached() {
        JoinEngine engine = new JoinEngine(QuerySettings.defaults(), 2, GRACE);
        assertNull(engine.add("q", RAW_2, T0, 0));

        engine.combine("q", partial(RAW_2, T0 + 10, rec(1)), false, T0 + 10, out);
        assertEquals(List.of(), out, "one record of two: not done");

        engine.combine("q", partial(RAW_2, T0 + 20, rec(2), rec(3)), false, T0 + 20, out);
        assertEquals(1, out.size());
        Result r = out.get(0).result();
        assertTrue(r.isFinal());
        assertEquals(List.of(Records.of("i", 1L).asMap(), Records.of("i", 2L).asMap()), r.records());
        assertEquals(0, engine.size(), "a final result ends ownership");

        out.clear();
        engine.combine("q", partial(RAW_2, T0 + 30, rec(4)), false, T0 + 30, out);
        engine.tick(T0 + 20_000, out);
        assertEquals(List.of(), out);
    }

    @Test
    void finalWaitsForTheLastPartialOfEveryPartition() {
        JoinEngine engine = new JoinEngine(QuerySettings.defaults(), 2, GRACE);
        assertNull(engine.add("q", COUNT, T0, 0));
        engine.combine("q", partial(COUNT, T0 + 10, rec(1), rec(2)), false, T0 + 100, out);

        engine.tick(T0 + 1000, out);
        assertEquals(List.of(), out, "duration over, but no partition sent its last partial");

        engine.combine("q", partial(COUNT, T0 + 1000, rec(3)), true, T0 + 1001, out);
        engine.tick(T0 + 1002, out);
        assertEquals(List.of(), out, "one partition of two is done");

        engine.combine("q", null, true, T0 + 1003, out);
        assertEquals(List.of(), out, "the final is produced by the next tick");
        engine.tick(T0 + 1004, out);
        assertEquals(1, out.size());
        Result r = out.get(0).result();
        assertTrue(r.isFinal());
        assertEquals(3L, ((Number) r.records().get(0).get("COUNT")).longValue());
        assertEquals(0, engine.size());
    }

    @Test
    void finalIsSentAfterTheGraceWhenAPartitionStaysSilent() {
        JoinEngine engine = new JoinEngine(QuerySettings.defaults(), 2, GRACE);
        assertNull(engine.add("q", COUNT, T0, 0));
        engine.combine("q", partial(COUNT, T0 + 1000, rec(1)), true, T0 + 1000, out);

        engine.tick(T0 + 1000 + GRACE - 1, out);
        assertEquals(List.of(), out);
        engine.tick(T0 + 1000 + GRACE, out);
        assertEquals(1, out.size());
        assertTrue(out.get(0).result().isFinal());
        assertEquals(1L, ((Number) out.get(0).result().records().get(0).get("COUNT")).longValue());
    }

    @Test
    void killDropsTheQuerySilently() {
        JoinEngine engine = new JoinEngine(QuerySettings.defaults(), 1, GRACE);
        assertNull(engine.add("q", COUNT, T0, 0));
        engine.combine("q", partial(COUNT, T0 + 10, rec(1)), false, T0 + 10, out);

        assertTrue(engine.kill("q"));
        assertFalse(engine.kill("q"));
        assertEquals(0, engine.size());

        engine.combine("q", partial(COUNT, T0 + 1000, rec(2)), true, T0 + 1000, out);
        engine.tick(T0 + 1000, out);
        engine.tick(T0 + 10_000, out);
        assertEquals(List.of(), out);
    }

    @Test
    void countsCreatedImproperAndRateExceededQueries() {
        QuerySettings settings = Queries.withRateLimit(true, 2, 60_000);
        JoinEngine engine = new JoinEngine(settings, 1, GRACE);
        String everyRecord = "{\"aggregation\": {\"type\": \"RAW\", \"size\": 1},"
                             + " \"window\": {\"emit\": {\"type\": \"RECORD\", \"every\": 1}}, \"duration\": 10000}";

        assertNull(engine.add("a", COUNT, T0, 0));
        assertNull(engine.add("a", COUNT, T0, 0), "a known id is ignored");
        assertNull(engine.add("fast", everyRecord, T0, 0));
        assertNotNull(engine.add("bad1", "{\"filters\": [", T0, 0));
        assertNotNull(engine.add("bad2", "{\"aggregation\": {\"type\": \"NOPE\"}}", T0, 0));
        assertEquals(2, engine.createdQueries());
        assertEquals(2, engine.improperQueries());
        assertEquals(0, engine.rateExceededQueries());

        FilterEngine filter = new FilterEngine(settings);
        assertTrue(filter.add("fast", everyRecord, T0));
        List<FilterEngine.Partial> partials = new ArrayList<>();
        filter.consume(List.of(rec(1), rec(2), rec(3)), T0 + 10, partials);
        assertEquals(1, partials.size());
        engine.combine("fast", partials.get(0).data(), false, T0 + 10, out);

        assertEquals(3, out.size(), "two windows, then the rate limit stops the query");
        assertFalse(out.get(0).result().isFinal());
        assertFalse(out.get(1).result().isFinal());
        Result stopped = out.get(2).result();
        assertTrue(stopped.isFinal());
        assertFalse(errors(stopped).isEmpty());
        assertEquals(1, engine.rateExceededQueries());
        assertEquals(List.of("a"), engine.ids());
    }

    @Test
    void partialsOfUnknownQueriesAreIgnored() {
        JoinEngine engine = new JoinEngine(QuerySettings.defaults(), 1, GRACE);
        engine.combine("nobody", partial(COUNT, T0, rec(1)), true, T0, out);
        engine.tick(T0 + 5000, out);
        assertEquals(List.of(), out);
    }

    @Test
    void aQueryThatEndedHereIsNotTakenBackFromAFilterThatStillHoldsIt() {
        JoinEngine engine = new JoinEngine(QuerySettings.defaults(), 1, GRACE);
        assertNull(engine.add("done", RAW_2, T0, 0));
        engine.combine("done", partial(RAW_2, T0 + 10, rec(1), rec(2)), false, T0 + 10, out);
        assertEquals(1, out.size());
        assertTrue(out.get(0).result().isFinal());
        assertNull(engine.add("killed", RAW_2, T0, 0));
        assertTrue(engine.kill("killed"));
        assertNull(engine.add("timed", COUNT, T0, 0));
        out.clear();
        engine.tick(T0 + 1000 + GRACE + 1, out);
        assertEquals(1, out.size(), "the GROUP's final result at its end");
        assertEquals(0, engine.size());

        // this task says hello after a restart of a neighbour; a Filter task has not had the COMPLETE/KILL yet
        assertFalse(engine.restore("done", RAW_2, T0, 0, T0 + 2000), "completed: stays ended");
        assertFalse(engine.restore("killed", RAW_2, T0, 0, T0 + 2000), "killed: stays ended");
        assertFalse(engine.restore("timed", COUNT, T0, 0, T0 + 2000), "ended by its duration: stays ended");
        assertEquals(0, engine.size());
        assertTrue(engine.restore("other", RAW_2, T0, 0, T0 + 2000), "a query this task never saw end is taken back");
        assertEquals(List.of("other"), engine.ids());
    }
}

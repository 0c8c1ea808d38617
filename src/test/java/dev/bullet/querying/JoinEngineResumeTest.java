package dev.bullet.querying;

import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A query taken up from the query store by a new topology: original start, {@code meta.restarted}, once only. */
class JoinEngineResumeTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final long GRACE = 500;
    private static final String COUNT = "{\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\":"
                                        + " [{\"type\": \"COUNT\"}]}}, \"duration\": 10000}";

    private final List<JoinEngine.Emitted> out = new ArrayList<>();

    private static byte[] partial(long now, Record... records) {
        FilterEngine filter = new FilterEngine(QuerySettings.defaults());
        assertTrue(filter.add("q", COUNT, T0));
        List<FilterEngine.Partial> partials = new ArrayList<>();
        filter.consume(List.of(records), now, partials);
        filter.tick(now, partials);
        return partials.get(0).data();
    }

    private static Record rec(long i) {
        return Records.of("i", i).build();
    }

    @Test
    void aResumedQueryEndsAtItsOriginalEndAndItsResultSaysTheTopologyRestarted() {
        JoinEngine engine = new JoinEngine(QuerySettings.defaults(), 1, GRACE);
        long resumedAt = T0 + 6_000;
        assertNull(engine.resume("q", COUNT, T0, 2, resumedAt));
        engine.combine("q", partial(resumedAt + 10, rec(1), rec(2)), false, resumedAt + 100, out);
        engine.tick(T0 + 9_999, out);
        assertEquals(List.of(), out, "not over before the original start + duration");

        engine.combine("q", null, true, T0 + 10_000, out);
        engine.tick(T0 + 10_001, out);

        assertEquals(1, out.size());
        Result r = out.get(0).result();
        assertTrue(r.isFinal());
        assertEquals(2, out.get(0).replyPartition());
        assertEquals(2L, ((Number) r.records().get(0).get("COUNT")).longValue());
        assertEquals(Map.of("at", resumedAt, "reason", TopologyRestart.REASON), r.meta().get(TopologyRestart.META_KEY));
        assertTrue(r.toJson().contains("\"restarted\":{\"at\":" + resumedAt + ","), r.toJson());
    }

    @Test
    void aQueryResumedFromItsSavedStateCountsOnAndSaysItsAnswerIsWhole() {
        JoinEngine before = new JoinEngine(QuerySettings.defaults(), 1, GRACE);
        assertNull(before.add("q", COUNT, T0, 2));
        before.combine("q", partial(T0 + 100, rec(1), rec(2), rec(3)), false, T0 + 200, out);
        byte[] saved = JoinSnapshot.of(before.querier("q"));

        JoinEngine engine = new JoinEngine(QuerySettings.defaults(), 1, GRACE);
        long resumedAt = T0 + 6_000;
        assertNull(engine.resume("q", COUNT, T0, 2, resumedAt, saved));
        engine.combine("q", partial(resumedAt + 10, rec(4)), false, resumedAt + 100, out);
        engine.combine("q", null, true, T0 + 10_000, out);
        engine.tick(T0 + 10_001, out);

        Result r = out.get(out.size() - 1).result();
        assertEquals(4L, ((Number) r.records().get(0).get("COUNT")).longValue(), "the saved count goes on");
        assertEquals(Map.of("at", resumedAt, "reason", TopologyRestart.REASON_FROM_STATE),
                     r.meta().get(TopologyRestart.META_KEY));
    }

    @Test
    void aQueryAddedAsNewSaysNothingOfARestart() {
        JoinEngine engine = new JoinEngine(QuerySettings.defaults(), 1, GRACE);
        assertNull(engine.add("q", COUNT, T0, 0));
        engine.combine("q", null, true, T0 + 10_000, out);
        engine.tick(T0 + 10_001, out);
        assertFalse(out.get(0).result().meta().containsKey(TopologyRestart.META_KEY));
    }

    @Test
    void aReplayOfAQueryTheTaskHoldsOrEndedIsIgnored() {
        JoinEngine engine = new JoinEngine(QuerySettings.defaults(), 1, GRACE);
        assertNull(engine.add("q", COUNT, T0, 0));
        assertNull(engine.resume("q", COUNT, T0 - 5_000, 0, T0 + 1));
        assertNull(engine.resume("q", COUNT, T0 - 5_000, 0, T0 + 2));
        assertEquals(1, engine.size());
        assertEquals(T0, engine.running().get(0).startTime(), "the running query keeps its start");
        engine.combine("q", null, true, T0 + 10_000, out);
        engine.tick(T0 + 10_001, out);
        assertFalse(out.get(0).result().meta().containsKey(TopologyRestart.META_KEY), "not taken for a resumed one");

        assertNull(engine.resume("q", COUNT, T0, 0, T0 + 10_002));
        assertEquals(0, engine.size(), "an ended query does not come back");
        assertTrue(engine.kill("other") || true);
        assertNull(engine.resume("other", COUNT, T0, 0, T0 + 10_003));
        assertEquals(0, engine.size(), "nor does a killed one");
    }
}

package dev.bullet.querying;

import dev.bullet.common.BulletError;
import dev.bullet.query.MemoryBounds;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bounds on what queries hold (bullet.query.max.bytes, bullet.query.max.worker.bytes) and how many run
 * (bullet.query.max.running), on the Filter and Join engines without Storm; time only via {@code now}.
 */
class MemoryBoundsTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final long GRACE = 500;
    private static final String RAW_500 = "{\"aggregation\": {\"type\": \"RAW\", \"size\": 500}, \"duration\": 600000}";
    private static final String RECORD_WINDOW = "{\"aggregation\":{\"type\":\"RAW\",\"size\":500},"
            + "\"window\":{\"emit\":{\"type\":\"RECORD\",\"every\":2000000000}},\"duration\":600000}";
    private static final String COUNT = "{\"aggregation\": {\"type\": \"GROUP\", \"attributes\": {\"operations\":"
            + " [{\"type\": \"COUNT\"}]}}, \"duration\": 600000}";
    private static final String GROUP_BY_KEY = "{\"aggregation\": {\"type\": \"GROUP\", \"size\": 500, \"fields\": {\"k\": \"k\"},"
            + " \"attributes\": {\"operations\": [{\"type\": \"COUNT\"}]}}, \"duration\": 600000}";

    private final List<JoinEngine.Emitted> out = new ArrayList<>();

    private static MemoryBounds queryBytes(long bytes) {
        return new MemoryBounds(bytes, Long.MAX_VALUE, Integer.MAX_VALUE);
    }

    private static Record padded(long i, int bytes) {
        return Records.of("i", i).put("pad", "x".repeat(bytes)).build();
    }

    /** The Filter task's partials for these records, taken as the Filter bolt would (RAW after the batch, others on a tick). */
    private static List<FilterEngine.Partial> filter(String json, List<Record> records) {
        FilterEngine filter = new FilterEngine(QuerySettings.defaults());
        assertTrue(filter.add("q", json, T0));
        List<FilterEngine.Partial> partials = new ArrayList<>();
        filter.consume(records, T0 + 1, partials);
        filter.tick(T0 + 1, partials);
        return partials;
    }

    private static List<Record> records(int n, int bytes) {
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            records.add(padded(i, bytes));
        }
        return records;
    }

    @SuppressWarnings("unchecked")
    private static List<BulletError> errors(Result r) {
        return (List<BulletError>) r.meta().get("errors");
    }

    private static String onlyError(Result r) {
        List<BulletError> errors = errors(r);
        assertNotNull(errors, "no meta.errors in " + r.meta());
        assertEquals(1, errors.size());
        return errors.get(0).error() + " / " + errors.get(0).resolutions();
    }

    private void combineAll(JoinEngine join, String id, List<FilterEngine.Partial> partials, long now) {
        for (FilterEngine.Partial p : partials) {
            join.combine(id, p.payload(), p.last(), 0, new long[0], false, now, out);
        }
    }

    @Test
    void rawQueryOverTheByteBudgetEndsWithTheRowsThatFitAndTheError() {
        JoinEngine join = new JoinEngine(QuerySettings.defaults(), 1, GRACE, queryBytes(50_000), 1, WorkerMemory.unbounded());
        assertNull(join.add("q", RAW_500, T0, 0));

        combineAll(join, "q", filter(RAW_500, records(100, 10_000)), T0 + 2); // 100 rows of ~10 KB: 1 MB, bound 50 KB

        assertEquals(1, out.size());
        Result result = out.get(0).result();
        assertTrue(result.isFinal());
        assertEquals(4, result.records().size()); // 4 rows of ~10 KB fit in 50 KB, the fifth would cross it
        String error = onlyError(result);
        assertTrue(error.contains("bullet.query.max.bytes") && error.contains("50000"), error);
        assertTrue(error.contains("Narrow the filter"), error);
        assertEquals(0, join.size());
        assertEquals(1, join.overQueryBytesQueries());
    }

    @Test
    void recordWindowClampedToTheRawMaximumStillEndsAtTheByteBudget() {
        JoinEngine join = new JoinEngine(QuerySettings.defaults(), 1, GRACE, queryBytes(20_000), 1, WorkerMemory.unbounded());
        assertNull(join.add("hostile", RECORD_WINDOW, T0, 0));
        assertNull(join.add("count", COUNT, T0, 0));

        List<Record> batch = records(300, 200);
        combineAll(join, "hostile", filter(RECORD_WINDOW, batch), T0 + 2);
        combineAll(join, "count", filter(COUNT, batch), T0 + 2);

        assertEquals(1, out.size());
        assertEquals("hostile", out.get(0).id());
        Result ended = out.get(0).result();
        assertTrue(ended.isFinal());
        assertTrue(onlyError(ended).contains("bullet.query.max.bytes"));
        int kept = ended.records().size();
        assertTrue(kept > 0 && kept < 300, "rows kept: " + kept);
        String warnings = String.valueOf(ended.meta().get("warnings"));
        assertTrue(warnings.contains("bullet.query.aggregation.raw.max.size"), warnings);
        assertEquals(List.of("count"), join.ids()); // the other query goes on
    }

    @Test
    void groupQueryWhoseKeysOutgrowTheBudgetEndsWithItsGroupsSoFar() {
        JoinEngine join = new JoinEngine(QuerySettings.defaults(), 1, GRACE, queryBytes(100_000), 1, WorkerMemory.unbounded());
        assertNull(join.add("q", GROUP_BY_KEY, T0, 0));
        List<Record> batch = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            batch.add(Records.of("k", i + "-" + "k".repeat(2_000)).build()); // 200 groups of 2 KB keys
        }

        combineAll(join, "q", filter(GROUP_BY_KEY, batch), T0 + 2);

        assertEquals(1, out.size());
        Result ended = out.get(0).result();
        assertTrue(onlyError(ended).contains("bullet.query.max.bytes"));
        assertFalse(ended.records().isEmpty());
    }

    @Test
    void queriesUnderTheBudgetAreNotTouched() {
        JoinEngine join = new JoinEngine(QuerySettings.defaults(), 1, GRACE, MemoryBounds.defaults(), 1,
                                         WorkerMemory.unbounded());
        assertNull(join.add("q", RAW_500, T0, 0));
        combineAll(join, "q", filter(RAW_500, records(100, 1_000)), T0 + 2);
        assertTrue(out.isEmpty());
        assertEquals(1, join.size());
    }

    @Test
    void overTheWorkerBoundTheLargestQueryOfAnyJoinTaskEndsFirstAndTheOthersGoOn() {
        WorkerMemory memory = new WorkerMemory(300_000);
        MemoryBounds bounds = new MemoryBounds(Long.MAX_VALUE, 300_000, Integer.MAX_VALUE);
        JoinEngine taskA = new JoinEngine(QuerySettings.defaults(), 1, GRACE, bounds, 2, memory);
        JoinEngine taskB = new JoinEngine(QuerySettings.defaults(), 1, GRACE, bounds, 2, memory);
        assertNull(taskA.add("small", RAW_500, T0, 0));
        assertNull(taskB.add("large", RAW_500, T0, 0));
        assertNull(taskA.add("medium", RAW_500, T0, 0));

        combineAll(taskA, "small", filter(RAW_500, records(5, 10_000)), T0 + 2);    // ~50 KB
        combineAll(taskB, "large", filter(RAW_500, records(20, 10_000)), T0 + 2);   // ~200 KB
        assertTrue(out.isEmpty());
        combineAll(taskA, "medium", filter(RAW_500, records(10, 10_000)), T0 + 2);  // ~100 KB: 350 KB > 300 KB

        assertTrue(out.isEmpty(), "task A owns none of the largest: " + out); // picked, ended by its owner
        taskB.tick(T0 + 3, out);
        assertEquals(1, out.size());
        assertEquals("large", out.get(0).id());
        Result ended = out.get(0).result();
        assertEquals(20, ended.records().size()); // with the data it kept
        String error = onlyError(ended);
        assertTrue(error.contains("bullet.query.max.worker.bytes") && error.contains("300000"), error);
        assertEquals(1, taskB.overWorkerBytesQueries());
        assertEquals(0, taskB.size());
        assertEquals(2, taskA.size());
        assertTrue(memory.total() <= 300_000, "total " + memory.total());
        taskA.tick(T0 + 4, out);
        assertEquals(1, out.size()); // nothing else ended
    }

    @Test
    void joinTaskRefusesQueriesPastItsShareOfTheRunningBoundWithAnErrorResult() {
        MemoryBounds bounds = new MemoryBounds(Long.MAX_VALUE, Long.MAX_VALUE, 5);
        JoinEngine join = new JoinEngine(QuerySettings.defaults(), 1, GRACE, bounds, 2, WorkerMemory.unbounded());
        for (int i = 0; i < 3; i++) { // its share of 5 over 2 tasks: 3
            assertNull(join.add("q" + i, COUNT, T0, 0));
        }

        JoinEngine.Emitted refused = join.add("q3", COUNT, T0, 7);

        assertNotNull(refused);
        assertEquals(7, refused.replyPartition());
        assertTrue(refused.result().isFinal());
        assertEquals(List.of(), refused.result().records());
        String error = onlyError(refused.result());
        assertTrue(error.contains("bullet.query.max.running") && error.contains("5"), error);
        assertEquals(3, join.size());
        assertEquals(1, join.refusedQueries());
        assertFalse(join.restore("q3", COUNT, T0, 7, T0 + 1)); // a Filter task cannot bring it back to life
    }

    @Test
    void runningShareIsTheSettingSplitOverTheJoinTasksRoundedUp() {
        MemoryBounds bounds = new MemoryBounds(1, 1, 50_000);
        assertEquals(50_000, bounds.runningPerTask(1));
        assertEquals(16_667, bounds.runningPerTask(3));
        assertEquals(50_000, bounds.runningPerTask(0));
    }

    @Test
    void workerBoundDefaultsToAThirdOfTheHeap() {
        assertEquals(300, new MemoryBounds(1, 0, 1).workerBytes(900));
        assertEquals(1234, new MemoryBounds(1, 1234, 1).workerBytes(900));
        MemoryBounds defaults = MemoryBounds.defaults();
        assertEquals(33_554_432L, defaults.queryBytes());
        assertEquals(0L, defaults.workerBytesSetting());
        assertEquals(50_000, defaults.running());
    }

    @Test
    void filterTaskAsksForAnEarlyFlushWhenAQueryHoldsMoreThanTheBudget() {
        FilterEngine filter = new FilterEngine(QuerySettings.defaults(), queryBytes(50_000));
        assertTrue(filter.add("q", GROUP_BY_KEY, T0, 0));
        List<Record> small = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            small.add(Records.of("k", "k" + i).build());
        }
        List<FilterEngine.Partial> partials = new ArrayList<>();
        filter.consume(small, T0 + 1, partials);
        assertFalse(filter.flushDue());

        List<Record> large = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            large.add(Records.of("k", i + "k".repeat(2_000)).build());
        }
        filter.consume(large, T0 + 1, partials);
        assertTrue(filter.flushDue());
        assertFalse(filter.flushDue()); // read once
        filter.tick(T0 + 2, partials);
        assertEquals(1, partials.size());
        filter.consume(small, T0 + 3, partials);
        assertFalse(filter.flushDue()); // its state left with the partial
    }

    @Test
    void filterTaskRefusesQueriesPastTwiceTheRunningBound() {
        FilterEngine filter = new FilterEngine(QuerySettings.defaults(), new MemoryBounds(Long.MAX_VALUE, Long.MAX_VALUE, 2));
        for (int i = 0; i < 4; i++) {
            assertTrue(filter.add("q" + i, COUNT, T0, 0));
        }
        assertFalse(filter.add("q4", COUNT, T0, 0));
        assertEquals(1, filter.refusedQueries());
        assertTrue(filter.remove("q0"));
        assertTrue(filter.add("q4", COUNT, T0, 0));
    }
}

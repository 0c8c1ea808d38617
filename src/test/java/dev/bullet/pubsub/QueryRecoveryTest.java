package dev.bullet.pubsub;

import dev.bullet.testing.ManualClock;
import dev.bullet.testing.MemoryQueryStore;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The query spout's side of the store: take up once, tombstones for ended queries and KILLs, retry while away. */
class QueryRecoveryTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final String LONG = "long";
    private static final String SHORT = "short";

    private static long duration(StoredQuery q) {
        return switch (q.query()) {
            case LONG -> 60_000;
            case SHORT -> 1_000;
            default -> StoredQueries.INVALID;
        };
    }

    @Test
    void theFirstTaskTakesUpTheRunningQueriesOnceWithTheirStartAndEndsTheRest() {
        MemoryQueryStore store = new MemoryQueryStore();
        store.put(new StoredQuery("running", LONG, T0, 2));
        store.put(new StoredQuery("expired", SHORT, T0, 2));
        store.put(new StoredQuery("invalid", "not a query now", T0, 1));
        store.put(new StoredQuery("ended", LONG, T0, 1));
        store.remove("ended");
        ManualClock clock = new ManualClock(T0 + 30_000);
        QueryRecovery recovery = new QueryRecovery(store, true, clock, QueryRecoveryTest::duration);

        assertEquals(List.of(new StoredQuery("running", LONG, T0, 2)), recovery.takeUp());
        assertEquals(List.of("ended", "expired", "invalid"), store.tombstones());
        assertEquals(List.of(), recovery.takeUp(), "taken up once");
        assertEquals(1, store.loads());
        assertEquals(List.of(new StoredQuery("running", LONG, T0, 2)), store.load());
    }

    @Test
    void otherTasksTakeUpNothing() {
        MemoryQueryStore store = new MemoryQueryStore();
        store.put(new StoredQuery("running", LONG, T0, 2));
        QueryRecovery recovery = new QueryRecovery(store, false, new ManualClock(T0), QueryRecoveryTest::duration);

        assertEquals(List.of(), recovery.takeUp());
        assertEquals(0, store.loads());
    }

    @Test
    void anUnreadableStoreIsTriedAgainAfterTheRetryInterval() {
        MemoryQueryStore store = new MemoryQueryStore();
        store.put(new StoredQuery("running", LONG, T0, 2));
        store.failLoads(1);
        ManualClock clock = new ManualClock(T0);
        QueryRecovery recovery = new QueryRecovery(store, true, clock, QueryRecoveryTest::duration);

        assertEquals(List.of(), recovery.takeUp());
        assertTrue(recovery.pending());
        clock.advance(QueryRecovery.RETRY_MS - 1);
        assertEquals(List.of(), recovery.takeUp());
        assertEquals(1, store.loads(), "no second read before the interval");
        clock.advance(1);
        assertEquals(List.of(new StoredQuery("running", LONG, T0, 2)), recovery.takeUp());
        assertFalse(recovery.pending());
    }

    @Test
    void aNewQueryIsStoredAKillEndsItAndATakenUpQueryReadAgainKeepsItsStart() {
        MemoryQueryStore store = new MemoryQueryStore();
        store.put(new StoredQuery("old", LONG, T0, 2));
        QueryRecovery recovery = new QueryRecovery(store, true, new ManualClock(T0 + 1_000), QueryRecoveryTest::duration);
        recovery.takeUp();

        recovery.started("new", LONG, T0 + 1_000, 3);
        recovery.started("old", LONG, T0 + 1_000, 2); // the request topic read again by the new topology's group
        recovery.killed("new");

        assertEquals(List.of(new StoredQuery("old", LONG, T0, 2)), store.load());
        assertEquals(List.of("new"), store.tombstones());
    }
}

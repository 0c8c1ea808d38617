package dev.bullet.rest;

import dev.bullet.rest.QueryListener.Ending;
import dev.bullet.rest.RunningQueries.Running;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The overdue queries of the REST service: each exactly when its deadline has come, even while others register. */
class RunningQueriesTest {
    private static final QueryListener QUIET = new QueryListener() {
        @Override
        public void onResult(String resultJson) {
        }

        @Override
        public void onEnd(Ending ending, String resultJson) {
        }
    };

    private static Running running(String id, long deadline) {
        return new Running(id, null, 0, deadline, 0, false, QUIET);
    }

    private static Set<String> ids(List<Running> rs) {
        return rs.stream().map(r -> r.id).collect(Collectors.toSet());
    }

    @Test
    void aQueryIsOverdueFromItsDeadlineOnUntilItEnds() {
        RunningQueries queries = new RunningQueries(List.of(0), 10);
        Running a = running("a", 100);
        Running b = running("b", 200);
        queries.add(b);
        queries.add(a);
        assertEquals(Set.of(), ids(queries.overdue(99)));
        assertEquals(Set.of("a"), ids(queries.overdue(100)));
        assertEquals(Set.of("a"), ids(queries.overdue(150)), "not ended: still overdue");
        assertTrue(queries.finish(a, Ending.TIMED_OUT, ""));
        assertEquals(Set.of(), ids(queries.overdue(199)));
        Running c = running("c", 120); // registered after the sweeps: an earlier deadline than any left
        queries.add(c);
        assertEquals(Set.of("c"), ids(queries.overdue(120)));
        assertEquals(Set.of("b", "c"), ids(queries.overdue(200)));
    }

    @Test
    void queriesRegisteredWhileTheReaderSweepsAreNeverMissed() throws Exception {
        RunningQueries queries = new RunningQueries(List.of(0), 1_000_000);
        int perThread = 20_000;
        Set<String> ended = ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(2);
        List<Thread> adders = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            int thread = t;
            adders.add(new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    queries.add(running(thread + "-" + i, 1_000 + i % 500)); // every deadline at or before now below
                }
                done.countDown();
            }));
        }
        adders.forEach(Thread::start);
        long now = 5_000;
        while (done.getCount() > 0) { // the reader: sweep and end what is overdue, as QueryService.expire does
            for (Running r : queries.overdue(now)) {
                if (queries.finish(r, Ending.TIMED_OUT, "")) {
                    ended.add(r.id);
                }
            }
        }
        assertTrue(done.await(30, TimeUnit.SECONDS));
        for (Running r : queries.overdue(now)) { // one sweep after the last add
            if (queries.finish(r, Ending.TIMED_OUT, "")) {
                ended.add(r.id);
            }
        }
        assertEquals(2 * perThread, ended.size(), "every query past its deadline was found overdue");
        assertEquals(List.of(), queries.overdue(now));
    }
}

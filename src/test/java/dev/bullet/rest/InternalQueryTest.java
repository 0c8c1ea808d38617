package dev.bullet.rest;

import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Publisher;
import dev.bullet.rest.RunningQueries.Running;
import dev.bullet.testing.ManualClock;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The service's own queries: published, unlisted, and given up after their duration and the caller's patience. */
class InternalQueryTest {
    private static final long GRACE_MS = 40_000;

    private final ManualClock clock = new ManualClock(1_000);
    private final RunningQueries queries = new RunningQueries(List.of(0, 1), 10);
    private final List<PubSubMessage> published = new ArrayList<>();
    private final Publisher publisher = new Publisher() {
        @Override
        public void send(PubSubMessage message) {
            published.add(message);
        }

        @Override
        public void close() {
        }
    };
    private final InternalQuery internal = new InternalQuery(queries, publisher, Runnable::run, clock, GRACE_MS);

    private List<Running> overdueAfter(long ms) {
        return queries.overdue(1_000 + ms);
    }

    @Test
    void aQueryIsGivenUpTheCallersPatienceAfterItsDuration() {
        List<String> ends = new ArrayList<>();
        internal.send("schema", "{\"duration\":2000}", 2_000, 5_000, ends::add);
        assertEquals(1, published.size());
        assertTrue(published.get(0).id().startsWith("schema-"), published.get(0).id());
        assertEquals(List.of(), overdueAfter(6_999));
        List<Running> overdue = overdueAfter(7_000);
        assertEquals(1, overdue.size(), "2 s of duration and 5 s of patience");
        assertEquals(published.get(0).id(), overdue.get(0).id);
        assertTrue(overdue.get(0).probe, "not a client's: unlisted, no slot");
    }

    @Test
    void thePatienceNeverGoesPastTheResultGrace() {
        internal.send("schema", "{\"duration\":2000}", 2_000, 80_000, end -> { });
        assertEquals(List.of(), overdueAfter(2_000 + GRACE_MS - 1));
        assertEquals(1, overdueAfter(2_000 + GRACE_MS).size());
    }
}

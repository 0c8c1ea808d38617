package dev.bullet.pubsub;

import dev.bullet.pubsub.UnconfirmedResults.Outgoing;
import dev.bullet.pubsub.UnconfirmedResults.Policy;
import dev.bullet.testing.ManualClock;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a Join task keeps until the Result bolt confirms it: confirmations, re-sends with backoff, bounds. */
class UnconfirmedResultsTest {
    /** Re-sent 1 s after a send, then 2 s, then 4 s (the longest), 3 re-sends at most. */
    private static final Policy POLICY = new Policy(1_000, 4_000, 3, 100, 1_000_000);

    private final ManualClock clock = new ManualClock(1_000_000);
    private final List<Outgoing> out = new ArrayList<>();

    private UnconfirmedResults results(Policy policy) {
        return new UnconfirmedResults("p-", policy, clock);
    }

    private List<String> drain() {
        List<String> ids = out.stream().map(Outgoing::deliveryId).toList();
        out.clear();
        return ids;
    }

    private List<String> resendAt(UnconfirmedResults results, long afterMs) {
        clock.advance(afterMs);
        results.resend(out);
        return drain();
    }

    @Test
    void aResultIsHandedOutWithADeliveryIdOfItsOwnAndForgottenOnceConfirmed() {
        UnconfirmedResults results = results(POLICY);
        results.add("q", "{\"records\":[1]}", 3, false, out);
        results.add("r", "{\"records\":[2]}", 0, false, out);

        assertEquals(List.of(new Outgoing("q", "p-0", "{\"records\":[1]}", 3, false),
                             new Outgoing("r", "p-1", "{\"records\":[2]}", 0, false)), out);
        out.clear();
        assertEquals(2, results.size());
        assertEquals(30, results.bytes());
        assertTrue(results.confirm("p-0", out));
        assertFalse(results.confirm("p-0", out), "a second confirmation of the same result changes nothing");
        assertFalse(results.confirm("unknown", out));
        assertEquals(1, results.size());
        assertEquals(15, results.bytes());
        assertEquals(List.of("p-1"), resendAt(results, 1_000), "only the unconfirmed one is sent again");
        assertEquals(0, results.dropped());
    }

    @Test
    void anUnconfirmedResultIsSentAgainWithTheSameIdBackingOffThenNoLongerKept() {
        UnconfirmedResults results = results(POLICY);
        results.add("q", "{}", 0, false, out);
        assertEquals(List.of("p-0"), drain());

        assertEquals(List.of(), resendAt(results, 999), "not before its wait");
        assertEquals(List.of("p-0"), resendAt(results, 1), "1 s after its send");
        assertEquals(List.of(), resendAt(results, 1_999));
        assertEquals(List.of("p-0"), resendAt(results, 1), "2 s after the first re-send");
        assertEquals(List.of(), resendAt(results, 3_999));
        assertEquals(List.of("p-0"), resendAt(results, 1), "4 s after the second");
        assertEquals(1, results.size());
        assertEquals(List.of(), resendAt(results, 3_999), "the wait stays at the longest, 4 s");
        assertEquals(0, results.dropped());
        assertEquals(List.of(), resendAt(results, 1), "after the third re-send's wait it is given up");
        assertEquals(0, results.size());
        assertEquals(0, results.bytes());
        assertEquals(1, results.dropped());
        assertEquals(List.of(), resendAt(results, 60_000));
    }

    @Test
    void theUnconfirmedResultsOfAQueryAreSentAgainTogetherOldestFirst() {
        UnconfirmedResults results = results(POLICY);
        results.add("q", "{\"window\":1}", 0, false, out);
        clock.advance(500);
        results.add("other", "{}", 0, false, out);
        results.add("q", "{\"window\":2}", 0, false, out);
        assertEquals(List.of("p-0", "p-1", "p-2"), drain());

        // window 1 is due; window 2 goes with it, so the client gets them in order; the other query is not due
        assertEquals(List.of("p-0", "p-2"), resendAt(results, 500));
        assertTrue(results.confirm("p-0", out));
        assertEquals(List.of(), drain());
        assertEquals(List.of("p-1"), resendAt(results, 500), "the other query's own wait has passed");
        assertEquals(2, results.queries());
    }

    @Test
    void aFinalResultWaitsForTheEarlierResultsOfItsQuery() {
        UnconfirmedResults results = results(POLICY);
        results.add("q", "{\"window\":1}", 0, false, out);
        results.add("q", "{\"window\":2}", 0, false, out);
        results.add("q", "{\"final\":true}", 0, true, out);
        results.add("alone", "{\"final\":true}", 0, true, out);
        assertEquals(List.of("p-0", "p-1", "p-3"), drain(), "q's final is held; a final with nothing before it is not");
        assertTrue(results.confirm("p-3", out));

        assertEquals(List.of("p-0", "p-1"), resendAt(results, 1_000), "a held final is not sent with the re-sends");
        assertTrue(results.confirm("p-1", out));
        assertEquals(List.of(), drain(), "window 1 is still unconfirmed");
        assertTrue(results.confirm("p-0", out));
        assertEquals(List.of("p-2"), drain(), "handed out once every earlier result is confirmed");
        assertEquals(List.of(), resendAt(results, 999), "its own wait starts when it is handed out");
        assertEquals(List.of("p-2"), resendAt(results, 1));
    }

    @Test
    void aHeldFinalIsHandedOutWhenTheResultBeforeItIsGivenUp() {
        UnconfirmedResults results = results(new Policy(1_000, 1_000, 1, 100, 1_000_000));
        results.add("q", "{\"window\":1}", 0, false, out);
        results.add("q", "{\"final\":true}", 0, true, out);
        assertEquals(List.of("p-0"), drain());
        assertEquals(List.of("p-0"), resendAt(results, 1_000));

        assertEquals(List.of("p-1"), resendAt(results, 1_000), "the window is given up, the final goes out");
        assertEquals(1, results.dropped());
        assertEquals(1, results.size());
    }

    @Test
    void pastTheBoundOnResultsTheOldestIsNoLongerKept() {
        UnconfirmedResults results = results(new Policy(1_000, 1_000, 5, 2, 1_000_000));
        results.add("a", "{}", 0, false, out);
        results.add("b", "{}", 0, false, out);
        results.add("c", "{}", 0, false, out);

        assertEquals(List.of("p-0", "p-1", "p-2"), drain(), "every result is handed out");
        assertEquals(2, results.size());
        assertEquals(1, results.dropped());
        assertFalse(results.confirm("p-0", out), "the oldest is no longer kept");
        assertEquals(List.of("p-1", "p-2"), resendAt(results, 1_000));
    }

    @Test
    void pastTheBoundOnBytesTheOldestGoFirstAndAHeldFinalIsHandedOutBeforeItGoes() {
        UnconfirmedResults results = results(new Policy(1_000, 1_000, 5, 100, 10));
        results.add("q", "12345", 0, false, out);
        results.add("q", "final", 0, true, out);
        assertEquals(List.of("p-0"), drain());
        results.add("r", "1234567", 0, false, out); // 17 bytes: the window goes, then the final (held: handed out)

        assertEquals(List.of("p-2", "p-1"), drain());
        assertEquals(2, results.dropped());
        assertEquals(1, results.size());
        assertEquals(7, results.bytes());
    }

    @Test
    void aResultLargerThanTheWholeBoundIsHandedOutAndNotKept() {
        UnconfirmedResults results = results(new Policy(1_000, 1_000, 5, 100, 10));
        results.add("q", "small", 0, false, out);
        results.add("q", "x".repeat(11), 0, true, out);

        assertEquals(List.of("p-0", "p-1"), drain(), "never held: it could not be kept");
        assertEquals(1, results.size());
        assertEquals(1, results.dropped());
    }

    @Test
    void aKilledQueryIsForgotten() {
        UnconfirmedResults results = results(POLICY);
        results.add("q", "{}", 0, false, out);
        results.add("q", "{}", 0, true, out);
        results.add("r", "{}", 0, false, out);
        drain();

        results.forget("q");

        assertEquals(1, results.size());
        assertEquals(2, results.bytes());
        assertEquals(List.of("p-2"), resendAt(results, 1_000));
        assertEquals(0, results.dropped());
    }

    @Test
    void aPolicyIsChecked() {
        assertThrows(IllegalArgumentException.class, () -> new Policy(0, 1_000, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new Policy(2_000, 1_000, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new Policy(1_000, 1_000, 1, 0, 1));
        assertEquals(5_000, Policy.DEFAULT.waitMs(1));
        assertEquals(10_000, Policy.DEFAULT.waitMs(2));
        assertEquals(10_000, Policy.DEFAULT.waitMs(40));
    }
}

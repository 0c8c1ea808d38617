package dev.bullet.querying;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The worker's account of what its queries hold, and the policy that picks the largest queries to end first. */
class WorkerMemoryTest {

    @Test
    void largestQueriesArePickedFirstUntilTheExcessIsFreed() {
        Map<String, Long> sizes = new LinkedHashMap<>();
        sizes.put("small", 10L);
        sizes.put("huge", 900L);
        sizes.put("medium", 300L);
        sizes.put("large", 500L);

        assertEquals(List.of("huge"), WorkerMemory.largestFirst(sizes, 900));
        assertEquals(List.of("huge", "large"), WorkerMemory.largestFirst(sizes, 901));
        assertEquals(List.of("huge", "large", "medium", "small"), WorkerMemory.largestFirst(sizes, 1_000_000));
        assertEquals(List.of(), WorkerMemory.largestFirst(sizes, 0));
    }

    @Test
    void tiesArePickedByIdSoThePolicyIsDeterministic() {
        Map<String, Long> sizes = new LinkedHashMap<>();
        sizes.put("b", 100L);
        sizes.put("a", 100L);

        assertEquals(List.of("a"), WorkerMemory.largestFirst(sizes, 50));
    }

    @Test
    void totalFollowsReportsAndEndedQueries() {
        WorkerMemory memory = new WorkerMemory(1000);
        memory.report("a", 400);
        memory.report("b", 300);
        memory.report("a", 100);
        assertEquals(400, memory.total());
        memory.remove("b");
        memory.remove("unknown");
        assertEquals(100, memory.total());
        assertFalse(memory.isOver());
    }

    @Test
    void overTheBoundTheLargestArePickedOnceAndClaimedByTheirOwner() {
        WorkerMemory memory = new WorkerMemory(1000);
        memory.report("a", 700);
        memory.report("b", 600);
        memory.report("c", 100);
        assertTrue(memory.isOver());

        assertEquals(1, memory.pickLargest()); // 1400 - 700 = 700 fits
        assertEquals(0, memory.pickLargest()); // "a" is already going away: nothing more to pick
        assertEquals(Set.of("a"), memory.picked());

        assertEquals(700, memory.claim("a"));
        assertEquals(-1, memory.claim("a"));
        memory.remove("a");
        assertFalse(memory.isOver());
        assertFalse(memory.hasPicked());
    }

    @Test
    void aQueryThatEndsOnItsOwnIsNoLongerPicked() {
        WorkerMemory memory = new WorkerMemory(100);
        memory.report("a", 500);
        memory.pickLargest();
        memory.remove("a");
        assertFalse(memory.hasPicked());
        assertEquals(0, memory.total());
    }
}

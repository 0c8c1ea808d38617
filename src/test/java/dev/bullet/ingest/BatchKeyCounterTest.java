package dev.bullet.ingest;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BatchKeyCounterTest {
    @Test
    void keysCountUpUnderOnePrefix() {
        BatchKeyCounter counter = new BatchKeyCounter(new SplittableRandom(3));
        long first = counter.next();
        assertNotEquals(0, first >>> 32);
        for (int i = 1; i < 1000; i++) {
            assertEquals(first + i, counter.next());
        }
    }

    @Test
    void twoSpoutsDrawDifferentPrefixesAndNoKeyIsZero() {
        Set<Long> prefixes = new HashSet<>();
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 1000; i++) {
            long key = new BatchKeyCounter(random.split()).next();
            assertNotEquals(0L, key);
            prefixes.add(key >>> 32);
        }
        assertTrue(prefixes.size() >= 999, "prefixes " + prefixes.size());
    }
}

package dev.bullet.querying;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BatchKeySetTest {
    /** Keys drawn to hit run edges: a few prefixes (0, -1 and the extremes included), low parts near 0 and 2^32-1. */
    private static long key(Random random) {
        int[] prefixes = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x5eed};
        long prefix = prefixes[random.nextInt(prefixes.length)] & 0xFFFF_FFFFL;
        long low = switch (random.nextInt(3)) {
            case 0 -> random.nextInt(40);
            case 1 -> 0xFFFF_FFFFL - random.nextInt(40);
            default -> 1000 + random.nextInt(60);
        };
        return prefix << 32 | low;
    }

    @Test
    void answersAsASetDoesForKeysInAnyOrder() {
        for (int seed = 0; seed < 300; seed++) {
            Random random = new Random(seed);
            BatchKeySet keys = new BatchKeySet();
            Set<Long> model = new HashSet<>();
            for (int step = 0; step < 400; step++) {
                long k = key(random);
                if (random.nextBoolean()) {
                    assertEquals(model.add(k), keys.add(k), "seed " + seed + " add " + Long.toHexString(k));
                } else {
                    assertEquals(model.contains(k), keys.contains(k), "seed " + seed + " contains " + Long.toHexString(k));
                }
            }
            for (int i = 0; i < 200; i++) {
                long k = key(random);
                assertEquals(model.contains(k), keys.contains(k), "seed " + seed + " final " + Long.toHexString(k));
            }
        }
    }

    @Test
    void randomLongsAreKeptExactly() {
        Random random = new Random(7);
        BatchKeySet keys = new BatchKeySet();
        Set<Long> added = new HashSet<>();
        for (int i = 0; i < 5_000; i++) {
            long k = random.nextLong();
            assertTrue(keys.add(k));
            added.add(k);
        }
        for (long k : added) {
            assertTrue(keys.contains(k));
            assertFalse(keys.add(k));
        }
        for (long k : added) { // neighbours of a key are not in the set
            assertEquals(added.contains(k + 1), keys.contains(k + 1));
            assertEquals(added.contains(k - 1), keys.contains(k - 1));
        }
    }

    @Test
    void aQueryThatMergesEveryBatchHoldsOneRunPerSpout() {
        // three spouts count up; their batches reach the Join shuffled within a window of 50, as partials of
        // several Filter tasks do
        BatchKeySet keys = new BatchKeySet();
        Random random = new Random(11);
        long[] prefixes = {0x1234L, 0x7FFF_FFFFL, 0x8000_0001L};
        List<Long> window = new ArrayList<>();
        for (int n = 1; n <= 200_000; n++) {
            for (long p : prefixes) {
                window.add(p << 32 | n);
            }
            if (window.size() >= 150) {
                Collections.shuffle(window, random);
                window.forEach(keys::add);
                window.clear();
            }
            assertTrue(keys.runs() <= 3 + 150, "runs " + keys.runs());
        }
        window.forEach(keys::add);
        assertEquals(3, keys.runs());
        assertTrue(keys.contains(0x1234L << 32 | 1));
        assertTrue(keys.contains(0x8000_0001L << 32 | 200_000));
        assertFalse(keys.contains(0x8000_0001L << 32 | 200_001));
        assertFalse(keys.contains(0x1234L << 32));
    }

    @Test
    void aGapIsNotMistakenForAKey() {
        BatchKeySet keys = new BatchKeySet();
        for (long k = 1; k <= 10; k++) {
            if (k != 5) {
                keys.add(k);
            }
        }
        assertEquals(2, keys.runs());
        assertFalse(keys.contains(5));
        assertFalse(keys.contains(0));
        assertFalse(keys.contains(11));
        assertTrue(keys.add(5));
        assertEquals(1, keys.runs());
        assertTrue(keys.contains(5));
    }
}

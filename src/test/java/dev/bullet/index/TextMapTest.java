package dev.bullet.index;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The map answers as a plain map of its keys whatever its summary holds: over random adds and removes of texts
 * (more keys than the summary has bits, then all of them leaving again), a lookup by key and a lookup from bytes
 * with the hash worked out by the caller both find exactly the queries a shadow map has.
 */
class TextMapTest {
    @Test
    void answersAsAPlainMapWhileKeysComeAndGo() {
        Random r = new Random(3L);
        TextMap<Integer> map = new TextMap<>();
        Map<String, List<Integer>> shadow = new HashMap<>();
        TextKey probe = TextKey.probe();
        int found = 0;
        for (int step = 0; step < 40_000; step++) {
            String text = "v" + r.nextInt(step < 30_000 ? 2_000 : 50);
            Integer query = r.nextInt(4);
            List<Integer> queries = shadow.computeIfAbsent(text, k -> new ArrayList<>());
            if (step < 20_000 ? r.nextInt(3) > 0 : r.nextInt(3) == 0) {
                assertEquals(!queries.contains(query), map.add(TextKey.of(text), query));
                if (!queries.contains(query)) {
                    queries.add(query);
                }
            } else {
                map.remove(TextKey.of(text), query);
                queries.remove(query);
            }
            if (queries.isEmpty()) {
                shadow.remove(text);
            }
            String asked = "v" + r.nextInt(2_000);
            List<Integer> expected = shadow.get(asked);
            byte[] bytes = ("\"" + asked + "\"").getBytes(StandardCharsets.UTF_8);
            int hash = TextKey.hash(bytes, 1, bytes.length - 1);
            assertEquals(expected, map.get(bytes, 1, bytes.length - 1, hash, probe), asked);
            assertEquals(expected, map.get(TextKey.of(asked)), asked);
            found += expected == null ? 0 : 1;
        }
        assertTrue(found > 1_000, "lookups must find keys too: " + found);
        for (Map.Entry<String, List<Integer>> e : shadow.entrySet()) {
            for (Integer q : e.getValue()) {
                map.remove(TextKey.of(e.getKey()), q);
            }
        }
        assertTrue(map.isEmpty());
        assertNull(map.get(TextKey.of("v1")));
    }

    @Test
    void theSummaryGrowsWithTheKeysAndTurnsMostOtherTextsAway() {
        TextMap<Integer> map = new TextMap<>();
        assertEquals(TextMap.MIN_SUMMARY_BITS, map.summaryBits());
        for (int i = 0; i < 1_000; i++) {
            map.add(TextKey.of("key" + i), i);
        }
        assertTrue(map.summaryBits() >= 16_000, "bits: " + map.summaryBits());
        for (int i = 0; i < 1_000; i++) {
            assertTrue(map.summaryLets(TextKey.of("key" + i).hashCode()), "a key is always let through");
        }
        int through = 0;
        for (int i = 0; i < 10_000; i++) {
            through += map.summaryLets(TextKey.of("other" + i).hashCode()) ? 1 : 0;
        }
        assertTrue(through < 1_000, "texts no query waits for, let through to the map: " + through);
        for (int i = 0; i < 1_000; i++) {
            map.remove(TextKey.of("key" + i), i);
        }
        assertTrue(map.isEmpty());
        for (int i = 0; i < 1_000; i++) {
            assertTrue(!map.summaryLets(TextKey.of("key" + i).hashCode()), "a key gone clears its bit");
        }
    }
}

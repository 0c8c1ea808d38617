package dev.bullet.index;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Text keys find their literals from a record's bytes, also when a tenant's literals all share one hash. */
class TextKeyTest {
    @Test
    void aProbeOverBytesFindsTheLiteral() {
        Map<TextKey, String> map = new HashMap<>();
        map.put(TextKey.of("abc"), "abc");
        map.put(TextKey.of("été"), "été");
        byte[] record = "{\"s\":\"abc\",\"t\":\"été\"}".getBytes(StandardCharsets.UTF_8);
        TextKey probe = TextKey.probe();
        assertEquals("abc", map.get(probe.set(record, 6, 9)));
        assertEquals("été", map.get(probe.set(record, 16, 21)));
        assertNull(map.get(probe.set(record, 6, 8)));
        assertEquals("été", map.get(probe.set("été")));
    }

    @Test
    void literalsSharingOneHashStillLookUpQuickly() {
        // "Aa" and "BB" have the same byte hash; concatenations of them give 2^15 texts with one hash
        Map<TextKey, Integer> map = new HashMap<>();
        int n = 1 << 15;
        for (int i = 0; i < n; i++) {
            StringBuilder sb = new StringBuilder();
            for (int b = 0; b < 15; b++) {
                sb.append((i >> b & 1) == 0 ? "Aa" : "BB");
            }
            map.put(TextKey.of(sb.toString()), i);
        }
        TextKey probe = TextKey.probe();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            StringBuilder sb = new StringBuilder();
            for (int b = 0; b < 15; b++) {
                sb.append((i >> b & 1) == 0 ? "Aa" : "BB");
            }
            assertEquals(i, map.get(probe.set(sb.toString())));
        }
        assertEquals(n, map.size());
        // a tree bin answers these in ~n log n compares (tens of ms); one list bin would need n^2 / 2 = 537 million
        // compares of 30-byte keys, several seconds even here
        assertEquals(true, System.nanoTime() - start < 5_000_000_000L, "lookups among colliding literals");
    }
}

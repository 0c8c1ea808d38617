package dev.bullet.index;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
    void theHashReadsEveryByteWhereverTheTextLies() {
        // the same text at every offset (so every tail length, and tails at the array's very end) hashes alike, and
        // changing any one byte changes the hash
        for (int len = 0; len <= 40; len++) {
            byte[] text = new byte[len];
            for (int i = 0; i < len; i++) {
                text[i] = (byte) ('a' + i % 26);
            }
            int expected = TextKey.hash(text, 0, len);
            for (int offset = 0; offset < 10; offset++) {
                for (int after = 0; after < 10; after++) {
                    byte[] b = new byte[offset + len + after];
                    Arrays.fill(b, (byte) '"');
                    System.arraycopy(text, 0, b, offset, len);
                    assertEquals(expected, TextKey.hash(b, offset, offset + len), len + " at " + offset);
                }
            }
            for (int i = 0; i < len; i++) {
                byte[] other = text.clone();
                other[i]++;
                org.junit.jupiter.api.Assertions.assertNotEquals(expected, TextKey.hash(other, 0, len), len + "/" + i);
            }
        }
        assertEquals(TextKey.of("abc").hashCode(), TextKey.probe().set("{\"abc\"".getBytes(StandardCharsets.UTF_8), 2, 5)
            .hashCode());
    }

    /** Sixteen bytes whose hash is {@code target}'s: the first eight given, the last eight solved for. */
    private static byte[] colliding(long first, long target) {
        long mix = 0x9E3779B97F4A7C15L;
        long inverse = mix; // Newton's iteration for the inverse of an odd number mod 2^64
        for (int i = 0; i < 6; i++) {
            inverse *= 2 - mix * inverse;
        }
        long h1 = Long.rotateLeft(((16 * mix) ^ first) * mix, 29);
        long second = h1 ^ Long.rotateRight(target, 29) * inverse;
        ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        return b.putLong(first).putLong(second).array();
    }

    @Test
    void keysCraftedToShareOneHashStillLookUpQuickly() {
        // the hash is no defence against a tenant who crafts literals: 2^15 keys with one hash, as a probe reads
        // them from bytes, must still be found in a tree bin (TextKey is Comparable), not one list
        int n = 1 << 15;
        Map<TextKey, Integer> map = new HashMap<>();
        int hash = 0;
        for (int i = 0; i < n; i++) {
            byte[] key = colliding(i, 42);
            TextKey k = TextKey.probe().set(key, 0, 16);
            if (i == 0) {
                hash = k.hashCode();
            }
            assertEquals(hash, k.hashCode(), "crafted to collide");
            map.put(k, i);
        }
        TextKey probe = TextKey.probe();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            byte[] key = colliding(i, 42);
            assertEquals(i, map.get(probe.set(key, 0, 16)));
        }
        assertEquals(n, map.size());
        assertEquals(true, System.nanoTime() - start < 5_000_000_000L, "lookups among colliding keys");
    }
}

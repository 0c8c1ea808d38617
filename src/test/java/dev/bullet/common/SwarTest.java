package dev.bullet.common;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SwarTest {
    private static final int[] EDGES = {0x00, 0x01, 0x1F, 0x20, 0x22, 0x5C, 0x7E, 0x7F, 0x80, 0x81, 0xFE, 0xFF};

    /** Random words, half of them built from edge bytes only, so that zero lanes and borrows meet every neighbour. */
    private static long[] words(long seed, int n) {
        Random random = new Random(seed);
        long[] words = new long[n];
        for (int i = 0; i < n; i++) {
            long w = 0;
            for (int lane = 0; lane < 8; lane++) {
                int b = random.nextBoolean() ? EDGES[random.nextInt(EDGES.length)] : random.nextInt(256);
                w |= (long) b << (8 * lane);
            }
            words[i] = w;
        }
        return words;
    }

    private static int lane(long w, int lane) {
        return (int) (w >>> (8 * lane)) & 0xFF;
    }

    /** The index of the lowest lane whose byte is below {@code n}, or 8. */
    private static int firstBelow(long w, int n) {
        for (int lane = 0; lane < 8; lane++) {
            if (lane(w, lane) < n) {
                return lane;
            }
        }
        return 8;
    }

    @Test
    void zeroBytesMarksExactlyTheZeroLanes() {
        for (long w : words(1, 20_000)) {
            long expected = 0;
            for (int lane = 0; lane < 8; lane++) {
                if (lane(w, lane) == 0) {
                    expected |= 0x80L << (8 * lane);
                }
            }
            assertEquals(expected, Swar.zeroBytes(w), Long.toHexString(w));
        }
    }

    @Test
    void lowestZeroByteFindsTheFirstZeroLane() {
        for (long w : words(2, 20_000)) {
            long found = Swar.lowestZeroByte(w);
            int first = firstBelow(w, 1);
            assertEquals(first == 8, found == 0, Long.toHexString(w));
            if (first < 8) {
                assertEquals(first, Swar.firstLane(found), Long.toHexString(w));
            }
            assertEquals(0, found & ~Swar.HIGH_BITS);
        }
    }

    @Test
    void broadcastFindsEveryByteValue() {
        Random random = new Random(3);
        for (int b = 0; b < 256; b++) {
            long lanes = Swar.broadcast(b);
            for (int lane = 0; lane < 8; lane++) {
                assertEquals(b, lane(lanes, lane));
            }
            assertEquals(lanes, Swar.broadcast(b - 256), "a negative byte is the same lanes");
            for (long w : words(random.nextLong(), 50)) {
                long hits = Swar.zeroBytes(w ^ lanes);
                for (int lane = 0; lane < 8; lane++) {
                    assertEquals(lane(w, lane) == b, (hits >>> (8 * lane + 7) & 1) == 1);
                }
            }
        }
    }

    @Test
    void lowestByteBelowFindsTheFirstSmallLane() {
        int[] limits = {0x01, 0x20, 0x22, 0x7F, 0x80};
        for (int n : limits) {
            long limit = Swar.broadcast(n);
            for (long w : words(4 + n, 10_000)) {
                long found = Swar.lowestByteBelow(w, limit);
                int first = firstBelow(w, n);
                assertEquals(first == 8, found == 0, Long.toHexString(w) + " below " + n);
                if (first < 8) {
                    assertEquals(first, Swar.firstLane(found), Long.toHexString(w) + " below " + n);
                }
            }
        }
    }

    @Test
    void hasHighByteSeesAnyByteAbove7F() {
        for (long w : words(5, 20_000)) {
            boolean expected = false;
            for (int lane = 0; lane < 8; lane++) {
                expected |= lane(w, lane) > 0x7F;
            }
            assertEquals(expected, Swar.hasHighByte(w), Long.toHexString(w));
        }
    }

    @Test
    void wordReadsLittleEndianAndLowBytesCutsIt() {
        Random random = new Random(6);
        byte[] b = new byte[64];
        for (int round = 0; round < 1_000; round++) {
            random.nextBytes(b);
            b[random.nextInt(b.length)] = (byte) EDGES[random.nextInt(EDGES.length)];
            int i = random.nextInt(b.length - 7);
            long w = Swar.word(b, i);
            for (int lane = 0; lane < 8; lane++) {
                assertEquals(b[i + lane] & 0xFF, lane(w, lane));
            }
            for (int n = 1; n <= 8; n++) {
                long cut = w & Swar.lowBytes(n);
                for (int lane = 0; lane < 8; lane++) {
                    assertEquals(lane < n ? b[i + lane] & 0xFF : 0, lane(cut, lane));
                }
            }
        }
    }

    @Test
    void firstLaneIsTheLowestSetLane() {
        for (int lane = 0; lane < 8; lane++) {
            long bit = 0x80L << (8 * lane);
            assertEquals(lane, Swar.firstLane(bit));
            assertEquals(lane, Swar.firstLane(bit | 0x8000_0000_0000_0000L));
        }
    }
}

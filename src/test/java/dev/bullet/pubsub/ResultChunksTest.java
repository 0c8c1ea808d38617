package dev.bullet.pubsub;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Chunks of a large result: each fits, each is UTF-8 on its own, and joined they are the result. */
class ResultChunksTest {
    private static final String[] PIECES = {"a", "é", "✓", "😀", "{\"k\":", "\"Zürich\"", ","};

    @Test
    void aResultThatFitsIsOneChunk() {
        byte[] utf8 = "{\"records\":[]}".getBytes(StandardCharsets.UTF_8);
        List<byte[]> chunks = ResultChunks.split(utf8, utf8.length);
        assertEquals(1, chunks.size());
        assertSame(utf8, chunks.get(0));
    }

    @Test
    void chunksAreCutBetweenCharactersAndJoinToTheResult() {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            StringBuilder text = new StringBuilder();
            int pieces = 1 + random.nextInt(400);
            for (int i = 0; i < pieces; i++) {
                text.append(PIECES[random.nextInt(PIECES.length)]);
            }
            byte[] utf8 = text.toString().getBytes(StandardCharsets.UTF_8);
            int max = 4 + random.nextInt(40);
            List<byte[]> chunks = ResultChunks.split(utf8, max);
            StringBuilder joined = new StringBuilder();
            int bytes = 0;
            for (byte[] chunk : chunks) {
                assertTrue(chunk.length <= max && chunk.length > 0, "chunk of " + chunk.length + " bytes, max " + max);
                String decoded = new String(chunk, StandardCharsets.UTF_8);
                assertArrayEquals(chunk, decoded.getBytes(StandardCharsets.UTF_8), "a chunk is UTF-8 on its own");
                joined.append(decoded);
                bytes += chunk.length;
            }
            assertEquals(utf8.length, bytes);
            assertEquals(text.toString(), joined.toString());
        }
    }

    @Test
    void bytesThatAreNotUtf8AreStillCutWithinTheBound() {
        byte[] continuations = new byte[100];
        Arrays.fill(continuations, (byte) 0x80);
        List<byte[]> chunks = ResultChunks.split(continuations, 8);
        assertEquals(13, chunks.size());
        assertEquals(100, chunks.stream().mapToInt(c -> c.length).sum());
    }

    @Test
    void aChunkLeavesHeadroomUnderTheRequestSize() {
        assertEquals(1024 * 1024 - 16 * 1024, ResultChunks.chunkBytes(1024 * 1024));
        assertEquals(750, ResultChunks.chunkBytes(1000));
        assertEquals(4, ResultChunks.chunkBytes(1));
        assertThrows(IllegalArgumentException.class, () -> ResultChunks.split(new byte[10], 3));
    }
}

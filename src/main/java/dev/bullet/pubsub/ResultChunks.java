package dev.bullet.pubsub;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a result larger than one Kafka message may be travels: its UTF-8 bytes cut into chunks of at most
 * {@code maxChunkBytes}, each cut between two characters (never inside a multi-byte sequence), so every chunk is
 * UTF-8 on its own and the chunks' strings, joined in order, are the result.
 */
public final class ResultChunks {
    /** The smallest chunk: room for the longest UTF-8 sequence. */
    static final int MIN_CHUNK_BYTES = 4;
    /** What a record needs besides its value (key, headers, batch and record framing), at most. */
    static final int MAX_HEADROOM_BYTES = 16 * 1024;

    private ResultChunks() {
    }

    /** The bytes of a chunk for a producer whose {@code max.request.size} is {@code maxRequestSize}. */
    public static int chunkBytes(int maxRequestSize) {
        int headroom = Math.min(MAX_HEADROOM_BYTES, maxRequestSize / 4);
        return Math.max(MIN_CHUNK_BYTES, maxRequestSize - headroom);
    }

    /** {@code utf8} in chunks of at most {@code maxChunkBytes}; one chunk (the array itself) when it fits. */
    public static List<byte[]> split(byte[] utf8, int maxChunkBytes) {
        if (maxChunkBytes < MIN_CHUNK_BYTES) {
            throw new IllegalArgumentException("a chunk needs at least " + MIN_CHUNK_BYTES + " bytes, got "
                                               + maxChunkBytes);
        }
        if (utf8.length <= maxChunkBytes) {
            return List.of(utf8);
        }
        List<byte[]> chunks = new ArrayList<>(utf8.length / maxChunkBytes + 1);
        int from = 0;
        while (from < utf8.length) {
            int to = Math.min(from + maxChunkBytes, utf8.length);
            if (to < utf8.length) {
                int cut = to;
                while (cut > from && (utf8[cut] & 0xC0) == 0x80) { // a continuation byte: cut before its sequence
                    cut--;
                }
                to = cut > from ? cut : to; // not UTF-8 at all: cut by bytes
            }
            chunks.add(Arrays.copyOfRange(utf8, from, to));
            from = to;
        }
        return chunks;
    }
}

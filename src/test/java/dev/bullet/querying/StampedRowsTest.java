package dev.bullet.querying;

import dev.bullet.record.JsonCodec;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/** A stamped row is always what stamping it gives, and queries keeping one row at one time share its array. */
class StampedRowsTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aRowStampedAgainAtTheSameTimeIsTheSameArray() {
        byte[] row = bytes("{\"a\":1}");
        byte[] member = bytes("\"ts\":");
        byte[] first = StampedRows.of(row, member, 7L);
        assertArrayEquals(bytes("{\"a\":1,\"ts\":7}"), first);
        assertSame(first, StampedRows.of(row, bytes("\"ts\":"), 7L), "another query's equal member");
        assertArrayEquals(bytes("{\"a\":1,\"ts\":8}"), StampedRows.of(row, member, 8L));
        assertArrayEquals(bytes("{\"a\":1,\"at\":7}"), StampedRows.of(row, bytes("\"at\":"), 7L));
        byte[] equalRow = bytes("{\"a\":1}");
        byte[] other = StampedRows.of(equalRow, member, 7L);
        assertArrayEquals(first, other);
        byte[] large = bytes("{\"a\":\"" + "x".repeat(StampedRows.MAX_BYTES) + "\"}");
        byte[] stampedLarge = StampedRows.of(large, member, 7L);
        assertArrayEquals(JsonCodec.withMember(large, member, 7L), stampedLarge);
        assertNotSame(stampedLarge, StampedRows.of(large, member, 7L), "a large row is not remembered");
    }

    @Test
    void whateverItRemembersEachRowGetsItsOwnStamp() {
        Random r = new Random(20261128);
        List<byte[]> rows = new ArrayList<>();
        for (int i = 0; i < 3 * StampedRows.SLOTS; i++) { // more rows than slots: slots are shared
            rows.add(bytes("{\"i\":" + i + (r.nextBoolean() ? ",\"s\":\"x\"" : "") + "}"));
        }
        byte[][] members = {bytes("\"ts\":"), bytes("\"t\":")};
        for (int k = 0; k < 20_000; k++) {
            byte[] row = rows.get(r.nextInt(rows.size()));
            byte[] member = members[r.nextInt(2)];
            long time = r.nextInt(3);
            assertArrayEquals(JsonCodec.withMember(row, member, time), StampedRows.of(row, member, time));
        }
    }
}

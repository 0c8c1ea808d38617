package dev.bullet.querying.aggregations;

import dev.bullet.query.NamedField;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/** A key seen again is the instance made the first time; whatever the table holds, every key is its bytes. */
class CanonicalKeysTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void aKeySeenAgainIsTheSameInstanceAndOnlyItsBytesAreRead() {
        CanonicalKeys keys = new CanonicalKeys();
        byte[] scratch = bytes("[\"ab\"]xyz"); // bytes past the length are not the key's
        String first = keys.of(scratch, 6);
        assertEquals("[\"ab\"]", first);
        assertSame(first, keys.of(bytes("[\"ab\"]"), 6));
        assertEquals("[\"ab\"", keys.of(scratch, 5), "a prefix is another key");
    }

    @Test
    void manyMoreKeysThanSlotsAreEachTheirOwnText() {
        // keys sharing a slot take turns: each is still right, only the instance may be new
        CanonicalKeys keys = new CanonicalKeys();
        Random random = new Random(7);
        List<String> made = new ArrayList<>();
        for (int i = 0; i < 4 * CanonicalKeys.SLOTS; i++) {
            made.add("[" + random.nextInt(3 * CanonicalKeys.SLOTS) + "]");
        }
        for (int round = 0; round < 2; round++) {
            for (String s : made) {
                assertEquals(s, keys.of(bytes(s), s.length()));
            }
        }
    }

    @Test
    void longKeysAreMadeAfreshEachTime() {
        CanonicalKeys keys = new CanonicalKeys();
        String s = "[\"" + "x".repeat(CanonicalKeys.MAX_LENGTH) + "\"]";
        String first = keys.of(bytes(s), s.length());
        assertEquals(s, first);
        assertNotSame(first, keys.of(bytes(s), s.length()));
    }

    @Test
    void recordsWithTheSameValuesGetOneKeyInstanceFromBatchToBatch() {
        RecordDecoder decoder = new RecordDecoder();
        SketchKeys.Fields fields = SketchKeys.fields(List.of(NamedField.of("a", "x"), NamedField.of("b", "y")));
        String one = SketchKeys.keyOf(fields, decoder.decode(bytes("{\"a\":\"v\",\"b\":12}")), 0);
        String two = SketchKeys.keyOf(fields, decoder.decode(bytes("{\"b\":12,\"c\":1,\"a\":\"v\"}")), 1);
        assertEquals("[\"v\",12]", one);
        assertSame(one, two);
        assertEquals("[\"v\",null]", SketchKeys.keyOf(fields, decoder.decode(bytes("{\"a\":\"v\"}")), 2));
    }
}

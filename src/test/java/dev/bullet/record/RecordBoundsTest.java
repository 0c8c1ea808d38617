package dev.bullet.record;

import dev.bullet.common.JsonDepth;
import dev.bullet.common.Limits;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hostile records: over a bound they are rejected with the reason, without recursing; UTF-8 agrees with gson. */
class RecordBoundsTest {
    private final RecordDecoder decoder = new RecordDecoder();

    static byte[] nested(int depth) {
        StringBuilder b = new StringBuilder(depth * 7 + 16);
        for (int i = 0; i < depth; i++) {
            b.append("{\"a\":");
        }
        b.append('1');
        for (int i = 0; i < depth; i++) {
            b.append('}');
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aHundredThousandDeepRecordIsRejectedWithoutRecursing() {
        byte[] deep = nested(100_000);
        assertNull(decoder.decode(deep));
        assertTrue(decoder.rejection(deep).contains("bullet.record.max.depth"), decoder.rejection(deep));
        byte[] deepLists = "[".repeat(100_000).getBytes(StandardCharsets.UTF_8);
        assertNull(decoder.decode(("{\"l\":" + new String(deepLists, StandardCharsets.UTF_8) + "}").getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void depthBoundIsExactAndSharedByTheLazyAndTheFullDecode() {
        Limits d = Limits.defaults();
        RecordDecoder three = new RecordDecoder(new Limits(d.queryDepth(), d.queryClauses(), d.queryValues(),
                                                           d.regexLength(), 3, d.recordBytes()));
        assertNotNull(three.decode(nested(3)));
        assertEquals(1L, three.decode(nested(3)).get(FieldPath.of("a.a.a")));
        assertNull(three.decode(nested(4)));
        assertTrue(three.rejection(nested(4)).contains("deeper than 3"));
        // the default bound is far above what real records use, and below what would overflow a stack
        assertNotNull(decoder.decode(nested(d.recordDepth())));
        assertNull(decoder.decode(nested(d.recordDepth() + 1)));
    }

    @Test
    void depthScanIgnoresBracketsInsideStrings() {
        assertFalse(JsonDepth.exceeds("{\"a\":\"[[[[{{{{\\\"[[[\"}", 1));
        assertTrue(JsonDepth.exceeds("{\"a\":[]}", 1));
        assertFalse(JsonDepth.exceeds("{\"a\":[]}".getBytes(StandardCharsets.UTF_8), 2));
    }

    @Test
    void aRecordOverTheByteBoundIsRejected() {
        Limits d = Limits.defaults();
        RecordDecoder small = new RecordDecoder(new Limits(d.queryDepth(), d.queryClauses(), d.queryValues(),
                                                           d.regexLength(), d.recordDepth(), 100));
        byte[] big = ("{\"s\":\"" + "x".repeat(200) + "\"}").getBytes(StandardCharsets.UTF_8);
        assertNull(small.decode(big));
        assertTrue(small.rejection(big).contains("bullet.record.max.bytes"));
        assertNotNull(small.decode("{\"s\":\"x\"}"));
    }

    @Test
    void nonObjectsAreRejected() {
        for (String s : new String[]{"[]", "1", "\"x\"", "null", "", "{", "{}{}", "{\"a\":1,}"}) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            assertNull(decoder.decode(b), s);
            assertEquals("not a JSON object", decoder.rejection(b));
        }
    }

    @Test
    void invalidUtf8InsideKeysReadsAsGsonReadsIt() {
        byte[][] messages = {
            {'{', '"', 'a', (byte) 0xFF, '"', ':', '1', '}'},
            {'{', '"', 'a', (byte) 0xC0, (byte) 0x80, '"', ':', '1', '}'},           // overlong NUL
            {'{', '"', 'a', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', ':', '1', '}'}, // a surrogate
            {'{', '"', 'a', (byte) 0xE2, (byte) 0x82, '"', ':', '1', '}'},            // truncated
            {'{', '"', 'a', (byte) 0xFE, '"', ':', '1', ',', '"', 'a', (byte) 0xFF, '"', ':', '2', '}'},
        };
        for (byte[] m : messages) {
            Record lazy = decoder.decode(m);
            Record full = RecordDecoder.decodeEagerly(new String(m, StandardCharsets.UTF_8));
            assertNotNull(lazy);
            assertEquals(full.asMap(), lazy.asMap());
            for (String key : full.asMap().keySet()) {
                assertEquals(full.get(FieldPath.of(key)), lazy.get(FieldPath.of(key)), key);
            }
        }
        // well-formed non-ASCII keys keep the fast path and read the same
        byte[] ok = "{\"\u00e9t\u00e9\":1,\"\uD83D\uDE00\":2}".getBytes(StandardCharsets.UTF_8);
        assertEquals(Map.of("\u00e9t\u00e9", 1L, "\uD83D\uDE00", 2L), decoder.decode(ok).asMap());
        assertTrue(decoder.decode(ok) instanceof LazyRecord);
    }
}

package dev.bullet.record;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static dev.bullet.testing.Records.listOf;
import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecordDecoderTest {
    private final RecordDecoder decoder = new RecordDecoder();

    private Map<String, Object> decode(String json) {
        Record record = decoder.decode(json);
        assertNotNull(record, "should decode: " + json);
        return record.asMap();
    }

    @Test
    void integersDecodeAsLongAndOtherNumbersAsDouble() {
        Map<String, Object> m = decode("{\"i\": 5, \"neg\": -7, \"d\": 5.0, \"e\": 1e2, \"f\": 2.5E-1, \"zero\": 0}");
        assertEquals(5L, m.get("i"));
        assertEquals(-7L, m.get("neg"));
        assertEquals(0L, m.get("zero"));
        assertEquals(5.0, m.get("d"));
        assertEquals(100.0, m.get("e"));
        assertEquals(0.25, m.get("f"));
        assertInstanceOf(Long.class, m.get("i"));
        assertInstanceOf(Double.class, m.get("d"));
        assertInstanceOf(Double.class, m.get("e"));
    }

    @Test
    void integersBeyondLongRangeBecomeDoubles() {
        Map<String, Object> m = decode("{\"max\": 9223372036854775807, \"min\": -9223372036854775808, "
                                       + "\"big\": 9223372036854775808, \"huge\": 123456789012345678901234567890}");
        assertEquals(Long.MAX_VALUE, m.get("max"));
        assertEquals(Long.MIN_VALUE, m.get("min"));
        assertEquals(9.223372036854775808e18, m.get("big"));
        assertEquals(1.2345678901234568e29, m.get("huge"));
    }

    @Test
    void stringsBooleansAndNullsDecodeAsThemselves() {
        Map<String, Object> m = decode("{\"s\": \"x \\\"q\\\" \\u00e9\", \"t\": true, \"f\": false, \"n\": null}");
        assertEquals("x \"q\" \u00e9", m.get("s"));
        assertEquals(Boolean.TRUE, m.get("t"));
        assertEquals(Boolean.FALSE, m.get("f"));
        assertTrue(m.containsKey("n"));
        assertNull(m.get("n"));
    }

    @Test
    void nestedMapsAndListsDecodeRecursivelyWithTheSameNumberRules() {
        Map<String, Object> m = decode("{\"m\": {\"a\": 1, \"b\": {\"c\": [1, 2.5, \"x\", null, {\"d\": true}]}},"
                                       + " \"l\": [[1, 2], [], {}]}");
        assertEquals(mapOf("a", 1L, "b", mapOf("c", listOf(1L, 2.5, "x", null, mapOf("d", true)))), m.get("m"));
        assertEquals(listOf(listOf(1L, 2L), listOf(), mapOf()), m.get("l"));
    }

    @Test
    void keysKeepTheirOrder() {
        assertEquals(List.of("z", "a", "m"), List.copyOf(decode("{\"z\": 1, \"a\": 2, \"m\": 3}").keySet()));
    }

    @Test
    void emptyObjectIsARecord() {
        assertEquals(Map.of(), decode("{}"));
        assertEquals(Map.of(), decode("  {}\n"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"[1, 2]", "\"text\"", "42", "true", "null", "", "   "})
    void anythingButAnObjectIsNotARecord(String json) {
        assertNull(decoder.decode(json));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\": 1} x", "{\"a\": 1}{\"b\": 2}", "{\"a\": 1}]", "{\"a\": 1} 5"})
    void trailingGarbageIsNotARecord(String json) {
        assertNull(decoder.decode(json));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\": }", "{\"a\": 1", "{a: 1}", "{'a': 1}", "{\"a\": 1,}", "{\"a\": NaN}",
                            "{\"a\": [1, 2}", "not json at all"})
    void malformedJsonIsNotARecord(String json) {
        assertNull(decoder.decode(json));
    }

    @Test
    void decodesUtf8Bytes() {
        Record record = decoder.decode("{\"name\": \"caf\u00e9 \u263a\"}".getBytes(StandardCharsets.UTF_8));
        assertNotNull(record);
        assertEquals("caf\u00e9 \u263a", record.asMap().get("name"));
    }

    @Test
    void toNumberFollowsTheRecordNumberRules() {
        assertEquals(12L, RecordDecoder.toNumber("12"));
        assertEquals(-12L, RecordDecoder.toNumber("-12"));
        assertEquals(12.0, RecordDecoder.toNumber("12.0"));
        assertEquals(1.5e3, RecordDecoder.toNumber("1.5E3"));
        assertEquals(1.0e19, RecordDecoder.toNumber("10000000000000000000"));
    }
}

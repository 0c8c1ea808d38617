package dev.bullet.record;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.bullet.testing.Records.listOf;
import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class FieldPathTest {
    private static final Map<String, Object> RECORD = new RecordDecoder().decode(
            "{\"a\": 1, \"m\": {\"b\": \"x\", \"n\": {\"c\": 2.5}, \"0\": \"zero\"},"
            + " \"l\": [10, 20, {\"k\": \"v\"}], \"lm\": [{\"b\": 1}, {\"b\": 2}], \"nil\": null, \"s\": \"str\"}").asMap();

    private static Object get(String path) {
        return FieldPath.of(path).resolve(RECORD);
    }

    @Test
    void topLevelField() {
        assertEquals(1L, get("a"));
        assertEquals("str", get("s"));
    }

    @Test
    void keyOfAMap() {
        assertEquals("x", get("m.b"));
        assertEquals(mapOf("c", 2.5), get("m.n"));
    }

    @Test
    void mapOfMaps() {
        assertEquals(2.5, get("m.n.c"));
    }

    @Test
    void elementOfAList() {
        assertEquals(10L, get("l.0"));
        assertEquals(20L, get("l.1"));
        assertEquals(mapOf("k", "v"), get("l.2"));
    }

    @Test
    void keyOfAMapInsideAList() {
        assertEquals(1L, get("lm.0.b"));
        assertEquals(2L, get("lm.1.b"));
        assertEquals("v", get("l.2.k"));
    }

    @Test
    void numericSegmentOnAMapIsAnOrdinaryKey() {
        assertEquals("zero", get("m.0"));
    }

    @Test
    void missingPathsResolveToNull() {
        assertNull(get("nope"));
        assertNull(get("m.nope"));
        assertNull(get("m.b.deeper"));
        assertNull(get("a.b"));
        assertNull(get("s.0"));
        assertNull(get("nil"));
        assertNull(get("nil.x"));
        assertNull(get("lm.0.nope"));
        assertNull(get("l.x"));
        assertNull(get("m.n.c.d"));
    }

    @Test
    void outOfRangeOrNegativeIndexIsMissing() {
        assertNull(get("l.3"));
        assertNull(get("l.99999999999"));
        assertNull(get("l.-1"));
        assertNull(get("lm.2.b"));
    }

    @Test
    void literalDottedKeyIsFoundWhenTheNestedPathDoesNotResolve() {
        Map<String, Object> record = mapOf("a.b", "literal");
        assertEquals("literal", FieldPath.of("a.b").resolve(record));
    }

    @Test
    void nestedReadingWinsOverALiteralDottedKey() {
        Map<String, Object> record = mapOf("a.b", "literal", "a", mapOf("b", "nested"));
        assertEquals("nested", FieldPath.of("a.b").resolve(record));
    }

    @Test
    void headAndDepthDescribeThePath() {
        FieldPath path = FieldPath.of("lm.0.b");
        assertEquals("lm", path.head());
        assertEquals(3, path.depth());
        assertEquals("lm.0.b", path.text());
        assertEquals(1L, path.resolveFrom(RECORD.get("lm"), 1));
    }

    @Test
    void pathsAreValuesByText() {
        assertEquals(FieldPath.of("a.b"), FieldPath.of("a.b"));
        assertEquals(FieldPath.of("a.b").hashCode(), FieldPath.of("a.b").hashCode());
        assertNotEquals(FieldPath.of("a.b"), FieldPath.of("a.c"));
    }

    @Test
    void recordsResolveThroughTheirPaths() {
        Record record = new MapRecord(mapOf("x", listOf(mapOf("y", 3L))));
        assertEquals(3L, record.get(FieldPath.of("x.0.y")));
        assertNull(record.get(FieldPath.of("x.1.y")));
    }
}

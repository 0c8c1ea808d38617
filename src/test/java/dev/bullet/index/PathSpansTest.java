package dev.bullet.index;

import dev.bullet.record.FieldPath;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class PathSpansTest {
    private final RecordDecoder decoder = new RecordDecoder();

    private LazyRecord record(String json) {
        return (LazyRecord) decoder.decode(json);
    }

    @Test
    void onePathHasOneIdForAllItsUsersAndSpansAreThoseOfTheRecord() {
        PathSpans spans = new PathSpans();
        int a = spans.acquire(FieldPath.of("a"));
        int again = spans.acquire(FieldPath.of("a"));
        int nested = spans.acquire(FieldPath.of("m.k"));
        assertEquals(a, again);
        assertNotEquals(a, nested);
        assertEquals(2, spans.size());
        LazyRecord first = record("{\"a\":\"xy\",\"m\":{\"k\":12}}");
        assertEquals(first.span(FieldPath.of("a")), spans.span(a, first));
        assertEquals(first.span(FieldPath.of("m.k")), spans.span(nested, first));
        LazyRecord second = record("{\"m\":{\"k\":1},\"a\":\"longer value\"}");
        assertEquals(second.span(FieldPath.of("a")), spans.span(a, second), "a new record is read anew");
        assertEquals(second.span(FieldPath.of("m.k")), spans.span(nested, second));
        assertEquals(LazyRecord.MISSING, spans.span(a, record("{\"b\":1}")));
    }

    @Test
    void aFreedIdIsReusedAndNeverAnswersWithItsFormerPath() {
        PathSpans spans = new PathSpans();
        int a = spans.acquire(FieldPath.of("a"));
        spans.acquire(FieldPath.of("a"));
        LazyRecord r = record("{\"a\":1,\"b\":\"two\"}");
        long spanOfA = spans.span(a, r);
        spans.release(a);
        assertEquals(1, spans.size(), "one user left");
        spans.release(a);
        assertEquals(0, spans.size());
        int b = spans.acquire(FieldPath.of("b"));
        assertEquals(a, b, "the free id is reused");
        long spanOfB = spans.span(b, r); // the same record: the cached span of a must not come back
        assertNotEquals(spanOfA, spanOfB);
        assertEquals(r.span(FieldPath.of("b")), spanOfB);
    }

    @Test
    void growsPastItsFirstCapacity() {
        PathSpans spans = new PathSpans();
        StringBuilder json = new StringBuilder("{");
        for (int i = 0; i < 100; i++) {
            json.append(i == 0 ? "" : ",").append("\"f").append(i).append("\":").append(i);
        }
        LazyRecord r = record(json.append('}').toString());
        for (int i = 0; i < 100; i++) {
            int id = spans.acquire(FieldPath.of("f" + i));
            assertEquals(r.span(FieldPath.of("f" + i)), spans.span(id, r));
        }
        assertEquals(100, spans.size());
    }
}

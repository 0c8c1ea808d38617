package dev.bullet.index;

import dev.bullet.record.FieldPath;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import java.util.List;

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

    @Test
    void recordsOfSeveralLayoutsInTurnEachGetTheirOwnSpans() {
        PathSpans spans = new PathSpans();
        List<FieldPath> paths = List.of(FieldPath.of("a"), FieldPath.of("b"), FieldPath.of("c"), FieldPath.of("m.k"),
                                        FieldPath.of("m.j"), FieldPath.of("m"), FieldPath.of("x.y"), FieldPath.of("z"));
        int[] ids = new int[paths.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = spans.acquire(paths.get(i));
        }
        String[] keys = {"a", "b", "c", "m", "x.y", "z"};
        java.util.Random random = new java.util.Random(5);
        int checked = 0;
        for (int n = 0; n < 2_000; n++) {
            // a few layouts (key orders, some keys left out) coming back in turn; values null or not per record
            List<String> order = new java.util.ArrayList<>(List.of(keys));
            java.util.Collections.shuffle(order, new java.util.Random(random.nextInt(4)));
            order = order.subList(0, 3 + random.nextInt(4) % 4);
            StringBuilder json = new StringBuilder("{");
            for (String key : order) {
                json.append(json.length() > 1 ? "," : "").append('"').append(key).append("\":");
                int kind = random.nextInt(4);
                json.append(kind == 0 ? "null" : kind == 1 ? "\"v" + n + "\"" : kind == 2 ? String.valueOf(n)
                        : "{\"k\":" + n + ",\"j\":\"w\"}");
            }
            LazyRecord r = record(json.append('}').toString());
            for (int i = ids.length - 1; i >= 0; i--) {
                assertEquals(r.span(paths.get(i)), spans.span(ids[i], r), paths.get(i) + " in " + json);
                checked++;
            }
            if (n % 7 == 0) {
                spans.clear();
            }
        }
        assertEquals(16_000, checked);
    }
}

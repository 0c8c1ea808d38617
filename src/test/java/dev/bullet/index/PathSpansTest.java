package dev.bullet.index;

import dev.bullet.record.FieldPath;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.RecordDecoder;
import dev.bullet.record.Span;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class PathSpansTest {
    private final RecordDecoder decoder = new RecordDecoder();

    private LazyRecord record(String json) {
        return (LazyRecord) decoder.decode(json);
    }

    /** The span of one path in a batch of one record. */
    private static long span(PathSpans spans, int id, LazyRecord record) {
        spans.start(List.of(record), 0, 1);
        return spans.column(id)[0];
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
        assertEquals(first.span(FieldPath.of("a")), span(spans, a, first));
        assertEquals(first.span(FieldPath.of("m.k")), span(spans, nested, first));
        LazyRecord second = record("{\"m\":{\"k\":1},\"a\":\"longer value\"}");
        assertEquals(second.span(FieldPath.of("a")), span(spans, a, second), "a new record is read anew");
        assertEquals(second.span(FieldPath.of("m.k")), span(spans, nested, second));
        assertEquals(Span.MISSING, span(spans, a, record("{\"b\":1}")));
    }

    @Test
    void aFreedIdIsReusedAndNeverAnswersWithItsFormerPath() {
        PathSpans spans = new PathSpans();
        int a = spans.acquire(FieldPath.of("a"));
        spans.acquire(FieldPath.of("a"));
        LazyRecord r = record("{\"a\":1,\"b\":\"two\"}");
        spans.start(List.of(r), 0, 1);
        long spanOfA = spans.column(a)[0];
        spans.release(a);
        assertEquals(1, spans.size(), "one user left");
        spans.release(a);
        assertEquals(0, spans.size());
        int b = spans.acquire(FieldPath.of("b"));
        assertEquals(a, b, "the free id is reused");
        long spanOfB = spans.column(b)[0]; // the same batch: the column of a must not come back
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
            assertEquals(r.span(FieldPath.of("f" + i)), span(spans, id, r));
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
        Random random = new Random(5);
        List<LazyRecord> records = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (int n = 0; n < 2_000; n++) {
            // a few layouts (key orders, some keys left out) coming back in turn; values null or not per record
            List<String> order = new ArrayList<>(List.of(keys));
            Collections.shuffle(order, new Random(random.nextInt(4)));
            order = order.subList(0, 3 + random.nextInt(4) % 4);
            StringBuilder json = new StringBuilder("{");
            for (String key : order) {
                json.append(json.length() > 1 ? "," : "").append('"').append(key).append("\":");
                int kind = random.nextInt(4);
                json.append(kind == 0 ? "null" : kind == 1 ? "\"v" + n + "\"" : kind == 2 ? String.valueOf(n)
                        : "{\"k\":" + n + ",\"j\":\"w\"}");
            }
            texts.add(json.append('}').toString());
            records.add(record(texts.get(n)));
        }
        int checked = 0;
        for (int from = 0; from < records.size(); ) { // batches of 1 to 70 records, the layouts mixed within them
            int to = Math.min(records.size(), from + 1 + random.nextInt(70));
            spans.start(records, from, to);
            assertEquals(to - from, spans.count());
            for (int i = ids.length - 1; i >= 0; i--) {
                long[] column = spans.column(ids[i]);
                assertSame(column, spans.column(ids[i]), "a column is read once per batch");
                for (int r = from; r < to; r++) {
                    assertSame(records.get(r), spans.lazy(r - from));
                    assertEquals(records.get(r).span(paths.get(i)), column[r - from], paths.get(i) + " in " + texts.get(r));
                    checked++;
                }
            }
            if (random.nextInt(7) == 0) {
                spans.clear();
            }
            from = to;
        }
        assertEquals(16_000, checked);
    }
}

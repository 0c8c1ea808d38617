package dev.bullet.record;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SpanTest {
    @Test
    void packsStartAndEndIntoOneNonNegativeLong() {
        int[][] cases = {{0, 0}, {0, 1}, {7, 42}, {1 << 20, (1 << 20) + 5}, {Integer.MAX_VALUE - 1, Integer.MAX_VALUE}};
        for (int[] c : cases) {
            long span = Span.of(c[0], c[1]);
            assertEquals(c[0], Span.start(span));
            assertEquals(c[1], Span.end(span));
            assertEquals(c[1] - c[0], Span.length(span));
            assertTrue(Span.isFound(span));
        }
    }

    @Test
    void sentinelsAreNotSpans() {
        assertFalse(Span.isFound(Span.MISSING));
        assertFalse(Span.isFound(Span.UNSURE));
        assertTrue(Span.MISSING != Span.UNSURE);
    }
}

package dev.bullet.query.expr;

import dev.bullet.record.FieldPath;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import dev.bullet.record.TypeMemo;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A map or list read in place is typed from its members' bytes ({@link TypeMemo#memberKind}); the type must be the
 * one bullet-core's inference gives the same value decoded in full: over random containers of every member kind
 * (numbers at the edges of a long, exponents, negative zero, duplicate keys, nested maps of one or several types,
 * nulls, non-ASCII text), each typed from the view and from gson's decode.
 */
class ExprTypeOfViewsTest {
    private static final String[] NUMBERS = {"0", "-0", "7", "-12", "1.5", "-0.0", "1e3", "2E-2", "123456789012345678",
        "1234567890123456789", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "-9223372036854775809", "12345678901234567890123", "0.1", "3.0"};
    private static final String[] TEXTS = {"\"a\"", "\"\"", "\"b c\"", "\"\u00e9t\u00e9\"", "\"12\"", "\"true\""};
    private static final String[] KEYS = {"k", "j", "x", "k0", "\u00fc"};

    private static String value(Random r, int depth) {
        int pick = r.nextInt(depth >= 3 ? 5 : 9);
        return switch (pick) {
            case 0, 1 -> NUMBERS[r.nextInt(NUMBERS.length)];
            case 2 -> TEXTS[r.nextInt(TEXTS.length)];
            case 3 -> r.nextBoolean() ? "true" : "false";
            case 4 -> "null";
            case 5, 6 -> map(r, depth + 1);
            default -> list(r, depth + 1);
        };
    }

    /** Members drawn mostly of one kind, so containers of one type come up as often as mixed ones. */
    private static String member(Random r, int depth, String kindOf) {
        return r.nextInt(4) == 0 || kindOf == null ? value(r, depth) : kindOf;
    }

    private static String map(Random r, int depth) {
        StringBuilder b = new StringBuilder("{");
        String first = null;
        for (int i = r.nextInt(5); i > 0; i--) {
            String v = member(r, depth, first);
            first = first == null && r.nextBoolean() ? v : first;
            b.append(b.length() > 1 ? (r.nextBoolean() ? "," : " ,\n ") : "")
             .append('"').append(KEYS[r.nextInt(KEYS.length)]).append("\":").append(r.nextBoolean() ? "" : " ").append(v);
        }
        return b.append('}').toString();
    }

    private static String list(Random r, int depth) {
        StringBuilder b = new StringBuilder("[");
        String first = null;
        for (int i = r.nextInt(5); i > 0; i--) {
            String v = member(r, depth, first);
            first = first == null && r.nextBoolean() ? v : first;
            b.append(b.length() > 1 ? ", " : "").append(v);
        }
        return b.append(']').toString();
    }

    @Test
    void aViewIsTypedAsItsFullDecodeIs() {
        RecordDecoder decoder = new RecordDecoder();
        Random r = new Random(20261129);
        int views = 0;
        for (int i = 0; i < 20_000; i++) {
            String container = r.nextBoolean() ? map(r, 0) : list(r, 0);
            Record record = decoder.decode(("{\"f\":" + container + "}").getBytes(StandardCharsets.UTF_8));
            Object view = record.get(FieldPath.of("f"));
            Object decoded = RecordDecoder.decodeMap("{\"f\":" + container + "}").get("f");
            assertTrue(container.startsWith("{") ? decoded instanceof Map : decoded instanceof List, container);
            ExprType expected = ExprType.of(decoded);
            if (view instanceof TypeMemo) {
                views++;
            }
            assertEquals(expected, ExprType.of(view), container);
            assertEquals(expected, ExprType.of(view), "typed again from its memo: " + container);
        }
        // the others went to gson whole (an integer of 19 digits or more, non-ASCII text): typed by their values
        assertTrue(views > 10_000, views + " views");
    }
}

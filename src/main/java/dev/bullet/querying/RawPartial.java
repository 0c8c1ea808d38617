package dev.bullet.querying;

import dev.bullet.record.JsonCodec;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A RAW partial as its rows: each the JSON object of one matched record (its own bytes, or its projection's), handed
 * from the Filter to the Join without being copied into one array. Inside a worker a tuple carries it as it is, so a
 * matched record's bytes are copied once, into the result, instead of into the partial, out of it and into the
 * result. Between workers it travels as {@link #bytes()}, the JSON array a RAW partial always was, and is read back
 * with {@link #fromBytes}. Immutable (its arrays are never written after it is made).
 */
public final class RawPartial {
    private final List<byte[]> rows;

    private RawPartial(List<byte[]> rows) {
        this.rows = rows;
    }

    /** The rows, each a JSON object (outer whitespace is cut, as reading them from {@link #bytes()} would). */
    static RawPartial of(byte[][] rows) {
        return ofOwned(rows.clone());
    }

    /**
     * {@link #of} taking the array itself (a fresh one no one else holds or writes, e.g. from
     * {@code RawAggregator.rowsJson()}): its rows are trimmed in place and it is wrapped, not copied.
     */
    static RawPartial ofOwned(byte[][] rows) {
        for (int i = 0; i < rows.length; i++) {
            rows[i] = trim(rows[i]);
        }
        return new RawPartial(Collections.unmodifiableList(Arrays.asList(rows)));
    }

    /** A partial read from its JSON array ({@link #bytes()}). */
    public static RawPartial fromBytes(byte[] json) {
        return new RawPartial(List.copyOf(JsonCodec.objects(json, Integer.MAX_VALUE)));
    }

    /** The rows' JSON objects, in arrival order; do not modify them. */
    public List<byte[]> rows() {
        return rows;
    }

    /** The rows as one JSON array, written into an array of the exact size. */
    public byte[] bytes() {
        return JsonCodec.array(rows);
    }

    private static byte[] trim(byte[] json) {
        int from = 0;
        int to = json.length;
        while (from < to && json[from] != '{') {
            from++;
        }
        while (to > from && json[to - 1] != '}') {
            to--;
        }
        return from == 0 && to == json.length ? json : Arrays.copyOfRange(json, from, to);
    }
}

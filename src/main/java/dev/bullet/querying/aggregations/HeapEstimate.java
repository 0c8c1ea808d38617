package dev.bullet.querying.aggregations;

import java.util.Collection;
import java.util.Map;

/**
 * Cheap estimates of the heap a query's state holds, for the byte bounds ({@code bullet.query.max.bytes},
 * {@code bullet.query.max.worker.bytes}): a kept row is its JSON's length plus a fixed overhead, an entry of a keyed
 * sketch (GROUP, TOP K) its key's length plus a fixed overhead. No reflection, no walk of a sketch: each aggregator
 * keeps a counter where it adds a row or an entry, and {@link Aggregator#heldBytes()} reads it. Stateless.
 */
final class HeapEstimate {
    /** Per kept row: its slot in the list, the array or object header that holds it, the record around it. */
    static final long ROW_OVERHEAD = 64;
    /** Per entry of a keyed sketch: its hash slot, its summary (metrics, group values) and the key's headers. */
    static final long ENTRY_OVERHEAD = 160;
    /** Per value of a row held as a map (entry, box, header). */
    static final long VALUE_OVERHEAD = 48;
    /** The state of a query whose size does not grow with its input (one group's metrics, an empty sketch). */
    static final long FIXED = 512;

    private HeapEstimate() {
    }

    /** A row kept as its JSON bytes. */
    static long ofJson(byte[] json) {
        return json.length + ROW_OVERHEAD;
    }

    /** A row kept as a map (a projection or a computed column): its keys and values, walked once when it is kept. */
    static long ofRow(Map<?, ?> row) {
        return ROW_OVERHEAD + ofValue(row);
    }

    private static long ofValue(Object value) {
        if (value instanceof CharSequence) {
            return VALUE_OVERHEAD + ((CharSequence) value).length();
        }
        if (value instanceof Map) {
            long bytes = VALUE_OVERHEAD;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                bytes += ofValue(e.getKey()) + ofValue(e.getValue());
            }
            return bytes;
        }
        if (value instanceof Collection) {
            long bytes = VALUE_OVERHEAD;
            for (Object element : (Collection<?>) value) {
                bytes += ofValue(element);
            }
            return bytes;
        }
        return VALUE_OVERHEAD;
    }

    /**
     * A keyed sketch's entries: each holds its key (and, for GROUP, the group's values: {@code copies} of the key's
     * length) and a fixed overhead; {@code keyBytes / keys} is the mean length of the keys seen.
     */
    static long ofEntries(long entries, long keyBytes, long keys, int copies) {
        long meanKey = keys == 0 ? 0 : keyBytes / keys;
        return FIXED + entries * (meanKey * copies + ENTRY_OVERHEAD);
    }
}

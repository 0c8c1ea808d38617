package dev.bullet.querying;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The keys of the record batches a query merged at the Join, so that a batch sent again after a failure is not
 * counted twice (SPEC §3.1). A query merges a partial of every Filter task every tick for as long as it runs, so this
 * set meets every batch of the stream; it must stay small however long the query runs.
 *
 * <p>{@code KafkaBatchSpout} numbers its batches: the high 32 bits of a key are the spout's (random) prefix, the low
 * 32 bits count up. The keys of one prefix are kept as sorted runs of consecutive numbers, so a query that merged
 * every batch so far holds one run per spout, plus a few while the partials of different Filter tasks arrive out of
 * order. Keys that follow no order (a plug-in spout's random longs) cost a run and a prefix entry each, two to three
 * times what a {@code HashSet<Long>} took per key. Not thread-safe.
 */
final class BatchKeySet {
    private final Map<Integer, Runs> byPrefix = new HashMap<>(4);
    private int lastPrefix;
    private Runs last;

    /** Whether the key was added before. */
    boolean contains(long key) {
        Runs runs = runsOf(prefix(key), false);
        return runs != null && runs.contains(counter(key));
    }

    /** Adds the key; false when it was there already. */
    boolean add(long key) {
        return runsOf(prefix(key), true).add(counter(key));
    }

    /** A batch key's high half: the prefix of the spout task that made it. */
    private static int prefix(long key) {
        return (int) (key >>> 32);
    }

    /** A batch key's low half: the task's counter, unsigned. */
    private static long counter(long key) {
        return key & 0xFFFF_FFFFL;
    }

    /** How many runs of consecutive keys are held (what the set's memory grows with). */
    int runs() {
        int n = 0;
        for (Runs r : byPrefix.values()) {
            n += r.count;
        }
        return n;
    }

    private Runs runsOf(int prefix, boolean create) {
        if (last != null && prefix == lastPrefix) {
            return last;
        }
        Runs runs = byPrefix.get(prefix);
        if (runs == null) {
            if (!create) {
                return null;
            }
            runs = new Runs();
            byPrefix.put(prefix, runs);
        }
        lastPrefix = prefix;
        last = runs;
        return runs;
    }

    /** Disjoint, non-adjacent runs {@code [starts[i], ends[i]]} of 32-bit numbers (as longs), sorted. */
    private static final class Runs {
        long[] starts = new long[2];
        long[] ends = new long[2];
        int count;

        boolean contains(long n) {
            int i = floor(n);
            return i >= 0 && n <= ends[i];
        }

        boolean add(long n) {
            if (count > 0 && n > ends[count - 1]) { // the usual case: at or after the end
                if (n == ends[count - 1] + 1) {
                    ends[count - 1] = n;
                } else {
                    insert(count, n);
                }
                return true;
            }
            int i = floor(n);
            if (i >= 0 && n <= ends[i]) {
                return false;
            }
            boolean joinsLeft = i >= 0 && ends[i] + 1 == n;
            boolean joinsRight = i + 1 < count && starts[i + 1] - 1 == n;
            if (joinsLeft && joinsRight) {
                ends[i] = ends[i + 1];
                System.arraycopy(starts, i + 2, starts, i + 1, count - i - 2);
                System.arraycopy(ends, i + 2, ends, i + 1, count - i - 2);
                count--;
            } else if (joinsLeft) {
                ends[i] = n;
            } else if (joinsRight) {
                starts[i + 1] = n;
            } else {
                insert(i + 1, n);
            }
            return true;
        }

        /** The last run starting at or before {@code n}, or -1. */
        private int floor(long n) {
            int lo = 0;
            int hi = count - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (starts[mid] <= n) {
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            return hi;
        }

        private void insert(int at, long n) {
            if (count == starts.length) {
                starts = Arrays.copyOf(starts, count * 2);
                ends = Arrays.copyOf(ends, count * 2);
            }
            System.arraycopy(starts, at, starts, at + 1, count - at);
            System.arraycopy(ends, at, ends, at + 1, count - at);
            starts[at] = n;
            ends[at] = n;
            count++;
        }
    }
}

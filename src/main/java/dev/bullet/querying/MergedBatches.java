package dev.bullet.querying;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The record batches a query merged at the Join, by their place in the source, so that a batch read or sent again
 * after a failure is not counted twice (SPEC §3.1). A batch is a span: a source (a Kafka partition, or the key prefix
 * of a plug-in spout) and the inclusive range {@code first..last} of its offsets there. Whichever spout instance reads
 * a span, before or after a restart or a rebalance, it is the same span.
 *
 * <p>Per source, what was merged is kept as sorted, disjoint, non-adjacent runs of offsets: a query that merged every
 * batch of a partition so far holds one run for it, plus a few while the partials of different Filter tasks arrive
 * out of order; the memory does not grow with how long the query runs (offset watermarks, not a set of batches).
 * Not thread-safe.
 */
public final class MergedBatches {
    /** How a span relates to what was merged. */
    public enum Overlap {
        /** None of its offsets was merged. */
        NONE,
        /** Every one of its offsets was merged. */
        ALL,
        /** Some were and some were not: it cannot be merged exactly as a whole. */
        PART
    }

    private final Map<Long, Runs> bySource = new HashMap<>(4);
    private long lastSource = Long.MIN_VALUE;
    private Runs last;

    /** How the span {@code first..last} of {@code source} relates to what was added. */
    public Overlap overlap(long source, long first, long last) {
        Runs runs = runsOf(source, false);
        return runs == null ? Overlap.NONE : runs.overlap(first, last);
    }

    /** Adds the span {@code first..last} of {@code source} (any part of it may be there already). */
    public void add(long source, long first, long last) {
        if (last < first) {
            throw new IllegalArgumentException("bad span " + first + ".." + last + " of source " + source);
        }
        runsOf(source, true).add(first, last);
    }

    /** How many runs are held (what the memory grows with). */
    public int runs() {
        int n = 0;
        for (Runs r : bySource.values()) {
            n += r.count;
        }
        return n;
    }

    /**
     * Writes what was added, compactly (for the Join's state snapshots): the sources, then per source its runs, each
     * as the gap from the previous run's end and its length, variable-length longs (a run of a partition: a few bytes).
     */
    public void writeTo(DataOutput out) throws IOException {
        writeVarLong(out, bySource.size());
        for (Map.Entry<Long, Runs> e : bySource.entrySet()) {
            Runs runs = e.getValue();
            out.writeLong(e.getKey());
            writeVarLong(out, runs.count);
            long previous = 0;
            for (int i = 0; i < runs.count; i++) {
                writeVarLong(out, zigZag(runs.starts[i] - previous));
                writeVarLong(out, zigZag(runs.ends[i] - runs.starts[i]));
                previous = runs.ends[i];
            }
        }
    }

    /** Reads what {@link #writeTo} wrote; a malformed input is an {@link IOException}. */
    public static MergedBatches readFrom(DataInput in) throws IOException {
        MergedBatches merged = new MergedBatches();
        long sources = readVarLong(in);
        for (long s = 0; s < sources; s++) {
            long source = in.readLong();
            long count = readVarLong(in);
            if (count < 0 || count > Integer.MAX_VALUE / 2) {
                throw new IOException("bad run count " + count);
            }
            long previous = 0;
            for (long i = 0; i < count; i++) {
                long start = previous + unZigZag(readVarLong(in));
                long end = start + unZigZag(readVarLong(in));
                if (end < start) {
                    throw new IOException("bad run " + start + ".." + end + " of source " + source);
                }
                merged.add(source, start, end);
                previous = end;
            }
        }
        return merged;
    }

    private static long zigZag(long n) {
        return (n << 1) ^ (n >> 63);
    }

    private static long unZigZag(long n) {
        return (n >>> 1) ^ -(n & 1);
    }

    private static void writeVarLong(DataOutput out, long n) throws IOException {
        long v = n;
        while ((v & ~0x7FL) != 0) {
            out.writeByte((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.writeByte((int) v);
    }

    private static long readVarLong(DataInput in) throws IOException {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = in.readByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new IOException("a variable-length long longer than 10 bytes");
    }

    /** Whether both hold the same runs. */
    public boolean sameAs(MergedBatches other) {
        if (bySource.size() != other.bySource.size()) {
            return false;
        }
        for (Map.Entry<Long, Runs> e : bySource.entrySet()) {
            Runs mine = e.getValue();
            Runs theirs = other.bySource.get(e.getKey());
            if (theirs == null || mine.count != theirs.count
                || !Arrays.equals(mine.starts, 0, mine.count, theirs.starts, 0, theirs.count)
                || !Arrays.equals(mine.ends, 0, mine.count, theirs.ends, 0, theirs.count)) {
                return false;
            }
        }
        return true;
    }

    private Runs runsOf(long source, boolean create) {
        if (last != null && source == lastSource) {
            return last;
        }
        Runs runs = bySource.get(source);
        if (runs == null) {
            if (!create) {
                return null;
            }
            runs = new Runs();
            bySource.put(source, runs);
        }
        lastSource = source;
        last = runs;
        return runs;
    }

    /** Disjoint, non-adjacent runs {@code [starts[i], ends[i]]}, sorted. */
    private static final class Runs {
        long[] starts = new long[2];
        long[] ends = new long[2];
        int count;

        Overlap overlap(long first, long last) {
            int i = floor(last); // the last run starting at or before the span's end
            if (i < 0 || ends[i] < first) {
                return Overlap.NONE;
            }
            return starts[i] <= first && last <= ends[i] ? Overlap.ALL : Overlap.PART;
        }

        void add(long first, long last) {
            if (count == 0 || first > ends[count - 1] + 1) { // the usual case: after every run
                insert(count, first, last);
                return;
            }
            if (first >= starts[count - 1]) { // touches or overlaps the last run
                ends[count - 1] = Math.max(ends[count - 1], last);
                return;
            }
            // the runs the span touches: from the first run ending at or after first - 1 to the last run starting at
            // or before last + 1
            int lo = firstEndingFrom(first - 1);
            int hi = floor(last == Long.MAX_VALUE ? last : last + 1);
            if (lo > hi) { // touches none: a new run at lo
                insert(lo, first, last);
                return;
            }
            starts[lo] = Math.min(starts[lo], first);
            ends[lo] = Math.max(ends[hi], last);
            int removed = hi - lo;
            if (removed > 0) {
                System.arraycopy(starts, hi + 1, starts, lo + 1, count - hi - 1);
                System.arraycopy(ends, hi + 1, ends, lo + 1, count - hi - 1);
                count -= removed;
            }
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

        /** The first run ending at or after {@code n}, or {@code count}. */
        private int firstEndingFrom(long n) {
            int lo = 0;
            int hi = count - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (ends[mid] < n) {
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            return lo;
        }

        private void insert(int at, long first, long last) {
            if (count == starts.length) {
                starts = Arrays.copyOf(starts, count * 2);
                ends = Arrays.copyOf(ends, count * 2);
            }
            System.arraycopy(starts, at, starts, at + 1, count - at);
            System.arraycopy(ends, at, ends, at + 1, count - at);
            starts[at] = first;
            ends[at] = last;
            count++;
        }
    }
}

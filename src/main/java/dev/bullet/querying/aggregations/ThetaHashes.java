package dev.bullet.querying.aggregations;

import org.apache.datasketches.hash.MurmurHash3;
import org.apache.datasketches.theta.UpdateReturnState;
import org.apache.datasketches.theta.UpdateSketch;
import org.apache.datasketches.thetacommon.ThetaUtil;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A Theta sketch's work split in two, so that COUNT DISTINCT can keep its hashes in a plain array
 * ({@link CountDistinctAggregator}): the hash a sketch of the default seed makes of a key ({@link #of}), a set of
 * such hashes sorted without repeats ({@link #sortDistinct}), the bytes of the ordered compact sketch of an exact set
 * ({@link #compactBytes}), and a hash handed to an {@link UpdateSketch} as if its key had been ({@link #update}).
 *
 * <p>Until a Theta sketch first lowers theta (it does so only past its nominal entries), what it holds is the set of
 * the hashes it was given, whatever their order: so a set kept elsewhere and given to the sketch later, in any order,
 * leaves it as the keys one by one would have. The sketch takes a hash through its package-private
 * {@code hashUpdate}, the method its own {@code update(byte[])} ends in; where that method cannot be reached
 * ({@link #AVAILABLE} false) COUNT DISTINCT feeds its sketch key by key as before. The compact bytes' preambles are
 * copied from sketches the library makes when this class loads; only the count and the hashes are written here.
 */
final class ThetaHashes {
    /** Whether hashes can be handed to a sketch: the only condition for keeping them apart from it. */
    static final boolean AVAILABLE;
    private static final MethodHandle HASH_UPDATE;
    private static final long SEED = ThetaUtil.DEFAULT_UPDATE_SEED;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    /** The preamble of a compact sketch of one hash (followed by the hash). */
    private static final byte[] SINGLE_PREAMBLE;
    /** The preamble of an exact ordered compact sketch of two or more hashes (count at {@link #COUNT_AT}). */
    private static final byte[] PREAMBLE;
    private static final int COUNT_AT = 8;
    /** Up to this many hashes are sorted by insertion alone. */
    private static final int SMALL = 48;
    /** At most 2^this buckets in the radix pass. */
    private static final int MAX_BUCKET_BITS = 14;
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    static {
        MethodHandle handle;
        try {
            handle = MethodHandles.privateLookupIn(UpdateSketch.class, MethodHandles.lookup()).findVirtual(
                    UpdateSketch.class, "hashUpdate", MethodType.methodType(UpdateReturnState.class, long.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            handle = null;
        }
        HASH_UPDATE = handle;
        UpdateSketch one = UpdateSketch.builder().build();
        one.update(new byte[] {1});
        SINGLE_PREAMBLE = Arrays.copyOf(one.compact(true, null).toByteArray(), 8);
        one.update(new byte[] {2});
        byte[] two = one.compact(true, null).toByteArray();
        PREAMBLE = Arrays.copyOf(two, two.length - 2 * Long.BYTES);
        AVAILABLE = handle != null && SINGLE_PREAMBLE.length + Long.BYTES == 16 && PREAMBLE.length == 16
                && (int) INTS.get(two, COUNT_AT) == 2;
    }

    private ThetaHashes() {
    }

    /** The hash a sketch of the default seed keeps for {@code key}'s bytes: in (0, 2^63), or 0 and 2^63 - 1 rarely. */
    static long of(byte[] key) {
        return MurmurHash3.hash(key, SEED)[0] >>> 1;
    }

    /** The hash of {@code key}'s UTF-8 bytes, as {@code UpdateSketch.update(String)} makes it. */
    static long of(String key) {
        return of(key.getBytes(StandardCharsets.UTF_8));
    }

    /** Gives {@code sketch} (default seed) the hash of a key, as updating it with the key would. */
    static void update(UpdateSketch sketch, long hash) {
        try {
            UpdateReturnState ignored = (UpdateReturnState) HASH_UPDATE.invokeExact(sketch, hash);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("a Theta sketch refused a hash", e);
        }
    }

    /**
     * Sorts the first {@code n} hashes of {@code hashes} (each in [0, 2^63)) ascending without repeats, in place, and
     * returns how many are left: a pass into buckets by the top bits, then insertion within each bucket.
     */
    static int sortDistinct(long[] hashes, int n) {
        if (n <= SMALL) {
            return insertDistinct(hashes, hashes, n);
        }
        Scratch scratch = SCRATCH.get();
        long[] spread = scratch.longs(n);
        int bits = Math.min(MAX_BUCKET_BITS, 32 - Integer.numberOfLeadingZeros(n));
        int shift = Long.SIZE - 1 - bits;
        int buckets = 1 << bits;
        int[] starts = scratch.counts;
        Arrays.fill(starts, 0, buckets + 1, 0);
        for (int i = 0; i < n; i++) {
            starts[(int) (hashes[i] >>> shift) + 1]++;
        }
        for (int b = 0; b < buckets; b++) {
            starts[b + 1] += starts[b];
        }
        for (int i = 0; i < n; i++) {
            long h = hashes[i];
            spread[starts[(int) (h >>> shift)]++] = h;
        }
        return insertDistinct(spread, hashes, n);
    }

    /**
     * Inserts {@code from[0..n)} (nearly sorted, or short) into {@code to} in order, dropping repeats; {@code from} may
     * be {@code to}.
     */
    private static int insertDistinct(long[] from, long[] to, int n) {
        int size = 0;
        for (int i = 0; i < n; i++) {
            long h = from[i];
            int j = size - 1;
            while (j >= 0 && to[j] > h) {
                j--;
            }
            if (j >= 0 && to[j] == h) {
                continue;
            }
            // in place (from == to) too: size <= i, so the shift writes no slot past i, and from[i] is read
            System.arraycopy(to, j + 1, to, j + 2, size - j - 1);
            to[j + 1] = h;
            size++;
        }
        return size;
    }

    /**
     * The bytes of the ordered compact sketch (default seed, theta 1) of the {@code count} hashes, sorted ascending
     * without repeats, each in (0, 2^63 - 1): what {@code compact(true, null).toByteArray()} gives for an exact sketch
     * that was given them. {@code count} is at least 1.
     */
    static byte[] compactBytes(long[] sorted, int count) {
        if (count == 1) {
            byte[] out = Arrays.copyOf(SINGLE_PREAMBLE, SINGLE_PREAMBLE.length + Long.BYTES);
            LONGS.set(out, SINGLE_PREAMBLE.length, sorted[0]);
            return out;
        }
        byte[] out = Arrays.copyOf(PREAMBLE, PREAMBLE.length + count * Long.BYTES);
        INTS.set(out, COUNT_AT, count);
        for (int i = 0, at = PREAMBLE.length; i < count; i++, at += Long.BYTES) {
            LONGS.set(out, at, sorted[i]);
        }
        return out;
    }

    /** Whether a sketch keeps {@code hash} at theta 1 (it turns away 0 and 2^63 - 1). */
    static boolean kept(long hash) {
        return hash > 0 && hash < Long.MAX_VALUE;
    }

    /** Per-thread room for the radix pass. */
    private static final class Scratch {
        final int[] counts = new int[(1 << MAX_BUCKET_BITS) + 1];
        long[] longs = new long[0];

        long[] longs(int n) {
            if (longs.length < n) {
                longs = new long[Math.max(n, longs.length * 2)];
            }
            return longs;
        }
    }
}

package dev.bullet.index;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * A map from numbers to values for the index's per-record lookups: open addressing over the bits of the double,
 * so a lookup boxes nothing (a {@code HashMap<Double, V>} allocates a {@code Double} per record and path). Numbers
 * that compare equal are one key: {@code -0.0} is {@code 0.0}; every NaN is one key. Not thread-safe.
 *
 * @param <V> the values
 */
final class NumberMap<V> {
    private long[] keys = new long[8];
    private Object[] values = new Object[8];
    private int size;

    private static long bits(double d) {
        return Double.doubleToLongBits(d == 0.0 ? 0.0 : d);
    }

    private int slot(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        int mask = keys.length - 1;
        int i = (int) (h ^ (h >>> 32)) & mask;
        while (values[i] != null && keys[i] != key) {
            i = (i + 1) & mask;
        }
        return i;
    }

    @SuppressWarnings("unchecked")
    V get(double d) {
        if (size == 0) {
            return null;
        }
        return (V) values[slot(bits(d))];
    }

    @SuppressWarnings("unchecked")
    V computeIfAbsent(double d, Supplier<V> make) {
        long key = bits(d);
        int i = slot(key);
        if (values[i] == null) {
            if ((size + 1) * 2 > keys.length) {
                grow();
                i = slot(key);
            }
            keys[i] = key;
            values[i] = make.get();
            size++;
        }
        return (V) values[i];
    }

    void remove(double d) {
        long key = bits(d);
        int i = slot(key);
        if (values[i] == null) {
            return;
        }
        values[i] = null;
        size--;
        // re-place the entries after it in its run, so lookups never stop early
        int mask = keys.length - 1;
        for (int j = (i + 1) & mask; values[j] != null; j = (j + 1) & mask) {
            long k = keys[j];
            Object v = values[j];
            values[j] = null;
            int to = slot(k);
            keys[to] = k;
            values[to] = v;
        }
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new Object[oldKeys.length * 2];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != null) {
                int to = slot(oldKeys[i]);
                keys[to] = oldKeys[i];
                values[to] = oldValues[i];
            }
        }
    }

    @Override
    public String toString() {
        return "NumberMap(" + size + " of " + Arrays.toString(keys) + ")";
    }
}

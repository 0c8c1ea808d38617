package dev.bullet.querying.aggregations;

import java.util.Arrays;

/**
 * The keys a GROUP or TOP K keeps apart from its sketch between resets, in the order they first came, each with its id
 * in the thread's {@link BatchKeys.Dictionary} of the field list: the aggregation keeps a key's state in an array at
 * that id, an index where the sketch hashes the key and probes its table (a cache miss or more per key and query when
 * hundreds of queries hold a thousand groups each). Given to the sketch key by key in that order, the kept state leaves
 * it as updating it record by record would: a sketch's new keys arrive in the same order (the order of its
 * insertions, resizes and rebuilds), and each key's records were folded in in record order.
 *
 * <p>The ids hold within one epoch of the dictionary: when it starts again (it filled up, or another query cleared
 * it), the kept keys go to the sketch ({@link #start} false) and the aggregation feeds its sketch until its reset.
 */
final class KeptKeys {
    private BatchKeys.Dictionary dictionary;
    private long epoch;
    private int[] ids = new int[16];
    private String[] keys = new String[16];
    private int size;

    /**
     * Before a batch's {@code runs} over {@code cut}: whether keys can be kept; false when the fields have no dictionary or
     * the kept keys' ids no longer hold (their dictionary started again), and the kept keys must go to the sketch.
     */
    boolean start(BatchKeys.Cut cut, BatchKeys.Runs runs) {
        BatchKeys.Dictionary d = BatchKeys.dictionary(cut, runs);
        if (d == null) {
            return false;
        }
        if (d != dictionary || d.epoch() != epoch) {
            if (size > 0) {
                return false;
            }
            dictionary = d;
            epoch = d.epoch();
        }
        return true;
    }

    /**
     * The id of run {@code run}'s key; -1 when the dictionary is full and keys are kept (they must go to the sketch).
     * A full dictionary is started again by an aggregation that keeps nothing yet.
     */
    int idOf(BatchKeys.Runs runs, int run) {
        int id = runs.dictionaryId(run, dictionary);
        if (id < 0 && size == 0) {
            dictionary.clear();
            epoch = dictionary.epoch();
            id = runs.dictionaryId(run, dictionary);
        }
        return id;
    }

    /** Keeps a key first met: its id and the key. */
    void add(int id, String key) {
        if (size == ids.length) {
            ids = Arrays.copyOf(ids, 2 * size);
            keys = Arrays.copyOf(keys, 2 * size);
        }
        ids[size] = id;
        keys[size++] = key;
    }

    int size() {
        return size;
    }

    /** The epoch of the dictionary the ids are of. */
    long epoch() {
        return epoch;
    }

    /** The id of the {@code i}-th key kept. */
    int id(int i) {
        return ids[i];
    }

    /** The {@code i}-th key kept. */
    String key(int i) {
        return keys[i];
    }

    /** Keeps nothing. */
    void clear() {
        Arrays.fill(keys, 0, size, null);
        size = 0;
    }

    /** The bytes the kept keys take in its arrays (an id and a reference each; the keys are counted by the caller). */
    long heldBytes() {
        return (long) size * (Integer.BYTES + Long.BYTES);
    }
}

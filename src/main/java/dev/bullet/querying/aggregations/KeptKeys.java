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
 * Keeping pays when each key takes several records between partials; a query whose keys did not, or that met more
 * keys than it can keep, feeds its sketch directly for its next {@link #DIRECT_PARTIALS} partials ({@link #keeping}).
 */
final class KeptKeys {
    /** Kept keys pay when each takes this many records on average between partials (each one a probe saved). */
    private static final int RECORDS_PER_KEY = 8;
    /** Partials whose keys go straight to the sketch after keeping did not pay, before keeping is tried again. */
    private static final int DIRECT_PARTIALS = 16;
    private BatchKeys.Dictionary dictionary;
    private long epoch;
    private int[] ids = new int[16];
    private String[] keys = new String[16];
    private int size;
    /** The records the kept keys took since the reset. */
    private long records;
    /** Whether the sketch takes every key until the next reset. */
    private boolean direct;
    /** How many partials to come take their keys straight into the sketch. */
    private int directPartials;

    /** Whether keys are kept: false from the partial's start when keeping did not pay, or once they went to the sketch. */
    boolean keeping() {
        return !direct;
    }

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
     * The id of run {@code run}'s key; -1 when the dictionary is full, or the thread's dictionaries hold all they may
     * (the kept keys, if any, must go to the sketch).
     * Callers number all of a batch's runs before they keep any: a full dictionary is started again only at the first
     * run and only when nothing is kept, as keeping the runs one at a time would do (a later run would find the batch's
     * earlier keys kept), so the ids already handed out for the batch stay valid.
     */
    int idOf(BatchKeys.Runs runs, int run) {
        int id = runs.dictionaryId(run, dictionary);
        if (id < 0 && size == 0 && run == 0 && dictionary.full()) { // not when the thread's budget refused the key
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

    /** The id of the {@code i}-th key kept. */
    int id(int i) {
        return ids[i];
    }

    /** The {@code i}-th key kept. */
    String key(int i) {
        return keys[i];
    }

    /** The kept keys took {@code n} more records. */
    void took(long n) {
        records += n;
    }

    /** More keys than can be kept: the next partials feed the sketch directly. */
    void tooManyKeys() {
        directPartials = DIRECT_PARTIALS;
    }

    /**
     * The kept keys went to the sketch (the caller gave them, in order): forgets them; the sketch takes every key until
     * the reset, and the next partials too when they took too few records each.
     */
    void handedOver() {
        if (records < (long) RECORDS_PER_KEY * size) {
            directPartials = DIRECT_PARTIALS;
        }
        clear();
        direct = true;
    }

    /** At the aggregation's reset (the caller let go of the kept keys' state): keeps again, unless it did not pay. */
    void reset() {
        clear();
        records = 0;
        direct = directPartials > 0;
        if (direct) {
            directPartials--;
        }
    }

    private void clear() {
        Arrays.fill(keys, 0, size, null);
        size = 0;
        dictionary = null; // nothing kept: a dictionary the thread dropped is not held here
    }

    /** The length an array of state by dictionary id grows to so that it holds {@code id}. */
    static int lengthFor(int id, int length) {
        return Math.max(id + 1, Math.min(2 * length + 16, BatchKeys.Dictionary.CAPACITY));
    }

    /** The bytes the kept keys take in its arrays (an id and a reference each; the keys are counted by the caller). */
    long heldBytes() {
        return (long) size * (Integer.BYTES + Long.BYTES);
    }
}

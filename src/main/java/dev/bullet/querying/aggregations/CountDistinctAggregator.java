package dev.bullet.querying.aggregations;

import dev.bullet.query.Aggregation;
import dev.bullet.query.NamedField;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.theta.CompactSketch;
import org.apache.datasketches.theta.SetOperation;
import org.apache.datasketches.theta.Union;
import org.apache.datasketches.theta.UpdateSketch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * COUNT DISTINCT over the combination of {@code fields}: a DataSketches Theta sketch, exact below
 * {@code bullet.query.aggregation.count.distinct.sketch.entries} distinct values. One row {@code {newName: count}};
 * the count is a whole number while exact and the sketch's estimate once estimating.
 *
 * <p>Between resets the keys' Theta hashes are first kept in an array, in arrival order ({@link ThetaHashes}): an
 * append per key, where the sketch's table, grown to a partial's thousands of keys and one per query, costs a cache
 * miss per key. When the array holds {@link #capacity} hashes it is sorted without repeats and goes on if at most half
 * are left; otherwise, and whenever the sketch itself is read, the hashes go into the sketch and the keys after them
 * too. A partial of at most {@code entries} distinct hashes is written from the sorted array: the bytes the sketch
 * would have compacted to. The sketch has the same content either way, because it is exact while the array is kept.
 */
final class CountDistinctAggregator implements Aggregator {
    private static final long[] NO_HASHES = new long[0];
    /** At most this many hashes are kept apart from the sketch (fewer when the nominal entries are fewer). */
    private static final int MAX_KEPT_HASHES = 1 << 14;
    private final List<NamedField> fields;
    private final SketchKeys.Fields keys;
    /** How a batch's keys are cut and numbered, shared with every keyed aggregation over the same fields. */
    private final BatchKeys.Cut cut;
    /** For bullet-core's string keys ({@code groupValuesAsStrings}): the fields in order; null for the JSON keys. */
    private final int[] coreOrder;
    private final String name;
    private final int entries;
    private UpdateSketch sketch;
    private Union union;
    /** Whether {@link #union} holds a partial: a Filter's aggregator never combines one. */
    private boolean combined;
    private boolean empty;
    /** The hashes not yet in {@link #sketch}, in arrival order or sorted without repeats. */
    private long[] hashes = NO_HASHES;
    private int hashCount;
    /** Whether keys go straight into the sketch until the next reset. */
    private boolean direct;
    /** The most hashes kept apart: within the nominal entries, so the sketch would still be exact. */
    private final int capacity;

    CountDistinctAggregator(Aggregation aggregation, QuerySettings settings) {
        this.fields = aggregation.fields();
        this.keys = SketchKeys.fields(fields);
        // bullet-core's key: each value's Java text, joined in the fields' order (SketchingStrategy.composeField)
        this.coreOrder = aggregation.groupValuesAsStrings() ? IntStream.range(0, fields.size()).toArray() : null;
        this.cut = coreOrder != null ? BatchKeys.Cut.bulletCoreDistinct(keys, coreOrder) : BatchKeys.Cut.of(keys);
        this.name = aggregation.newName();
        this.entries = settings.countDistinctEntries();
        this.capacity = Math.min(entries, MAX_KEPT_HASHES);
        reset();
    }

    @Override
    public void consume(Record record) {
        offer(keyOf(record));
        empty = false;
    }

    private String keyOf(Record record) {
        return coreOrder != null ? BulletCoreKeys.topKKey(fields, coreOrder, record) : SketchKeys.keyOf(keys, record);
    }

    /**
     * The matches' keys once per distinct key of the batch ({@link BatchKeys}): the batch's keys are cut and their
     * Theta hashes made once for every aggregation over the fields, and each key is offered at its first match. That
     * is what offering every match in batch order gives: a key met again is a duplicate the sketch rejects without a
     * change (a hash it holds, or one at or above theta, which only falls), and the kept hashes are a set. Where hashes
     * cannot be handed to a sketch, each match's key is offered in batch order, from the record's bytes when they tell
     * it (a Theta sketch hashes a string's UTF-8 bytes, DataSketches 6.1.1 {@code UpdateSketch.update(String)} and
     * {@code update(byte[])} alike).
     */
    @Override
    public void consumeBatch(List<? extends Record> records, int from, long mask) {
        if (mask == 0) {
            return;
        }
        if (ThetaHashes.AVAILABLE) {
            BatchKeys.Runs runs = BatchKeys.runs(cut, records, from, mask);
            for (int run = 0, n = runs.size(); run < n; run++) {
                if (runs.key(run).isEmpty()) { // the sketch turns it away
                    continue;
                }
                long hash = runs.thetaHash(run);
                if (direct) {
                    ThetaHashes.update(sketch, hash);
                } else {
                    keep(hash);
                }
            }
            empty = false;
            return;
        }
        for (long m = mask; m != 0; m &= m - 1) {
            Record record = records.get(from + Long.numberOfTrailingZeros(m));
            byte[] key = coreOrder != null ? null : SketchKeys.keyBytes(keys, record);
            if (key != null) {
                offer(key);
            } else {
                offer(keyOf(record));
            }
        }
        empty = false;
    }

    private void offer(String key) {
        if (direct) {
            sketch.update(key);
        } else if (key != null && !key.isEmpty()) { // the sketch turns these away
            keep(ThetaHashes.of(key));
        }
    }

    private void offer(byte[] key) {
        if (direct) {
            sketch.update(key);
        } else if (key.length > 0) {
            keep(ThetaHashes.of(key));
        }
    }

    private void keep(long hash) {
        if (hashCount == hashes.length) {
            if (hashCount == capacity) {
                hashCount = ThetaHashes.sortDistinct(hashes, hashCount);
                if (hashCount > capacity / 2) {
                    spill();
                    ThetaHashes.update(sketch, hash);
                    return;
                }
            } else {
                hashes = Arrays.copyOf(hashes, Math.min(capacity, Math.max(64, 2 * hashCount)));
            }
        }
        hashes[hashCount++] = hash;
    }

    /** The kept hashes into the sketch, and every key after them until the next reset. */
    private void spill() {
        for (int i = 0; i < hashCount; i++) {
            ThetaHashes.update(sketch, hashes[i]);
        }
        hashCount = 0;
        direct = true;
    }

    @Override
    public void combine(byte[] partial) {
        union.union(CompactSketch.heapify(Memory.wrap(partial)));
        combined = true;
        empty = false;
    }

    private CompactSketch merged() {
        spill();
        Union u = SetOperation.builder().setNominalEntries(entries).buildUnion();
        u.union(union.getResult());
        u.union(sketch);
        return u.getResult();
    }

    /**
     * The partial: the union of what was combined and the sketch, as {@link #records} reads it. A sketch alone that
     * is exact (theta 1) and holds no more than its nominal entries (a union keeps that many; the sketch's table holds
     * more before it lowers theta) is its own union's result, so it is compacted as it is, ordered (the same bytes,
     * {@code CountDistinctAggregatorTest}), without building a union of its hashes at every tick.
     */
    @Override
    public byte[] serialize() {
        if (!combined && hashCount > 0) {
            hashCount = ThetaHashes.sortDistinct(hashes, hashCount);
            if (hashCount <= entries && ThetaHashes.kept(hashes[0]) && ThetaHashes.kept(hashes[hashCount - 1])) {
                return ThetaHashes.compactBytes(hashes, hashCount);
            }
        }
        spill();
        if (!combined && !sketch.isEstimationMode() && sketch.getRetainedEntries(true) <= entries) {
            return sketch.compact(true, null).toByteArray();
        }
        return merged().toByteArray();
    }

    @Override
    public List<Map<String, Object>> records() {
        CompactSketch result = merged();
        Map<String, Object> row = new LinkedHashMap<>();
        double estimate = result.getEstimate();
        // bullet-core (BQL) rounds its estimate to a whole number; the JSON form keeps the estimate as it is
        row.put(name, result.isEstimationMode() && coreOrder == null ? (Object) estimate : (Object) Math.round(estimate));
        return List.of(row);
    }

    @Override
    public Map<String, Object> sketchMetadata() {
        return SketchMetadata.of(merged());
    }

    @Override
    public void reset() {
        if (sketch == null || !sketch.isEmpty()) {
            sketch = UpdateSketch.builder().setNominalEntries(entries).build();
        }
        if (union == null || combined) {
            union = SetOperation.builder().setNominalEntries(entries).buildUnion();
        }
        combined = false;
        empty = true;
        hashCount = 0;
        direct = !ThetaHashes.AVAILABLE || capacity < 2;
    }

    /**
     * The Theta sketch and union hold hashes only: their own sizes, which their nominal entries bound, and the hashes
     * kept apart (at most {@link #capacity}).
     */
    @Override
    public long heldBytes() {
        return HeapEstimate.FIXED + sketch.getCurrentBytes() + union.getCurrentBytes()
                + (long) hashes.length * Long.BYTES;
    }

    @Override
    public boolean isEmpty() {
        return empty;
    }
}

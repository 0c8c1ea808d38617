package dev.bullet.querying.aggregations;

import dev.bullet.query.Aggregation;
import dev.bullet.query.NamedField;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import org.apache.datasketches.common.ArrayOfStringsSerDe;
import org.apache.datasketches.frequencies.ErrorType;
import org.apache.datasketches.frequencies.ItemsSketch;
import org.apache.datasketches.memory.Memory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * TOP K: the most frequent combinations of {@code fields}, on a DataSketches frequent-items sketch (exact counts
 * while fewer distinct combinations than {@code bullet.query.aggregation.top.k.sketch.entries} were seen).
 * Rows: the fields by name plus the count ({@code newName}, default {@code COUNT}), count descending (ties by
 * value), at most K = size rows, only counts ≥ {@code threshold} when one is given; with {@code groupValuesAsStrings}
 * (BQL's TOP) the keys, values and order are bullet-core's ({@link BulletCoreKeys}: the values' Java text, ties in the
 * sketch's order).
 */
final class TopKAggregator implements Aggregator {
    private static final ArrayOfStringsSerDe SERDE = new ArrayOfStringsSerDe();

    private final List<NamedField> fields;
    private final SketchKeys.Fields fieldKeys;
    private final String countName;
    private final int k;
    private final Long threshold;
    private final int entries;
    private final boolean asStrings;
    /** The order bullet-core composes the fields' values in ({@link BulletCoreKeys#fieldOrder}). */
    private final int[] coreOrder;
    /** How {@link #consumeBatch} cuts the records' keys: as {@link #consume} does. */
    private final BatchKeys.Cut cut;
    private ItemsSketch<String> sketch;
    /** For {@link #heldBytes()}: the lengths of the keys seen, and how many. */
    private long keyBytes;
    private long keys;
    /** The keys' counts kept apart from the sketch since the reset ({@link KeptKeys}), by their dictionary ids. */
    private final KeptKeys kept = new KeptKeys();
    private long[] keptCounts = new long[0];
    /** A batch's runs' dictionary ids. */
    private final int[] batchIds = new int[BatchKeys.POSITIONS];

    TopKAggregator(Aggregation aggregation, QuerySettings settings) {
        this.fields = aggregation.fields();
        this.fieldKeys = SketchKeys.fields(fields);
        this.countName = aggregation.newName();
        this.k = aggregation.size();
        this.threshold = aggregation.threshold();
        this.entries = settings.topKEntries();
        this.asStrings = aggregation.groupValuesAsStrings();
        this.coreOrder = BulletCoreKeys.fieldOrder(fields);
        this.cut = asStrings ? BatchKeys.Cut.bulletCoreTopK(fieldKeys, coreOrder) : BatchKeys.Cut.of(fieldKeys);
        reset();
    }

    @Override
    public void consume(Record record) {
        toSketch();
        String key = asStrings ? BulletCoreKeys.topKKey(fields, coreOrder, record) : SketchKeys.keyOf(fieldKeys, record);
        sketch.update(key);
        keyBytes += key.length();
        keys++;
    }

    /**
     * One {@code update(key, count)} per distinct key of the batch's matches, in the order the keys first occur, when
     * the sketch cannot purge on the way: then it is what the records one by one give (DataSketches 6.1.1
     * {@code ItemsSketch.update}): a count only adds to the key's value and to the stream's weight, and the map
     * resizes right after the same new keys, re-inserting its keys by slot whatever their values, so it holds the same
     * keys in the same slots. A purge (at the map's largest size, more keys than its capacity) lowers values by what
     * they are at that moment, so a batch that could reach one goes record by record.
     */
    @Override
    public void consumeBatch(List<? extends Record> records, int from, long mask) {
        if (mask == 0) {
            return;
        }
        BatchKeys.Runs runs = BatchKeys.runs(cut, records, from, mask);
        int n = runs.size();
        if (!kept.keeping() || !keep(runs)) {
            if (sketch.getNumActiveItems() + n <= sketch.getMaximumMapCapacity()) {
                for (int i = 0; i < n; i++) {
                    sketch.update(runs.key(i), Long.bitCount(runs.positions(i)));
                }
            } else {
                for (long m = mask; m != 0; m &= m - 1) {
                    sketch.update(runs.keyAt(Long.numberOfTrailingZeros(m)));
                }
            }
        }
        for (int i = 0; i < n; i++) {
            keyBytes += (long) runs.key(i).length() * Long.bitCount(runs.positions(i));
        }
        keys += Long.bitCount(mask);
    }

    /**
     * Adds the runs' counts to the kept counts when the batch's keys fit among them; otherwise gives the kept counts to
     * the sketch and returns false, and the sketch takes the whole batch. At most the sketch's map capacity of keys are
     * kept, so that the sketch given them key by key never purges: then it holds what the records one by one give
     * (a batch that crossed the capacity would have the sketch purge between its records).
     */
    private boolean keep(BatchKeys.Runs runs) {
        if (!kept.start(cut, runs)) {
            kept.tooManyKeys(); // the dictionary started again
            toSketch();
            return false;
        }
        int n = runs.size();
        int[] ids = batchIds;
        int fresh = 0;
        for (int run = 0; run < n; run++) {
            int id = kept.idOf(runs, run);
            if (id < 0) {
                kept.tooManyKeys(); // the dictionary is full
                toSketch();
                return false;
            }
            ids[run] = id;
            if (id >= keptCounts.length || keptCounts[id] == 0) {
                fresh++;
            }
        }
        if (kept.size() + fresh > sketch.getMaximumMapCapacity()) {
            kept.tooManyKeys(); // more than the map holds without a purge
            toSketch();
            return false;
        }
        for (int run = 0; run < n; run++) {
            int id = ids[run];
            if (id >= keptCounts.length) {
                keptCounts = Arrays.copyOf(keptCounts, KeptKeys.lengthFor(id, keptCounts.length));
            }
            if (keptCounts[id] == 0) {
                kept.add(id, runs.key(run));
            }
            int count = Long.bitCount(runs.positions(run));
            keptCounts[id] += count;
            kept.took(count);
        }
        return true;
    }

    /** The kept counts into the sketch, in the order their keys came; the sketch takes every key until the reset. */
    private void toSketch() {
        for (int i = 0; i < kept.size(); i++) {
            int id = kept.id(i);
            sketch.update(kept.key(i), keptCounts[id]);
            keptCounts[id] = 0;
        }
        kept.handedOver();
    }

    @Override
    public void combine(byte[] partial) {
        toSketch();
        ItemsSketch<String> other = ItemsSketch.getInstance(Memory.wrap(partial), SERDE);
        if (asStrings && sketch.isEmpty() && other.getMaximumMapCapacity() == sketch.getMaximumMapCapacity()) {
            // taken as it is, its map rebuilt as it was: the map holds the items in the order they arrived in, which
            // bullet-core lists ties in (a merge into an empty sketch would insert them in the map's order)
            sketch = ItemsSketch.getInstance(Memory.wrap(BulletCoreKeys.itemsInMapOrder(partial, SERDE)), SERDE);
        } else {
            sketch.merge(other);
        }
        keyBytes += partial.length;
        keys += Math.max(1, other.getNumActiveItems());
    }

    @Override
    public byte[] serialize() {
        toSketch();
        return sketch.toByteArray(SERDE);
    }

    @Override
    public List<Map<String, Object>> records() {
        toSketch();
        long minimum = threshold == null ? 1 : Math.max(threshold, 1);
        ItemsSketch.Row<String>[] items = sketch.getFrequentItems(minimum - 1, ErrorType.NO_FALSE_NEGATIVES);
        List<ItemsSketch.Row<String>> sorted = new ArrayList<>(Arrays.asList(items));
        sorted.removeIf(row -> row.getEstimate() < minimum);
        if (!asStrings) {
            sorted.sort(Comparator.comparingLong((ItemsSketch.Row<String> row) -> -row.getEstimate())
                                  .thenComparing(ItemsSketch.Row::getItem));
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        for (ItemsSketch.Row<String> item : sorted) {
            if (rows.size() >= k) {
                break;
            }
            List<?> values = asStrings ? BulletCoreKeys.split(item.getItem()) : SketchKeys.values(item.getItem());
            Map<String, Object> row = new LinkedHashMap<>();
            for (int i = 0; i < fields.size(); i++) {
                int field = asStrings ? coreOrder[i] : i;
                row.put(fields.get(field).name(), i < values.size() ? values.get(i) : null);
            }
            row.put(countName, item.getEstimate());
            rows.add(row);
        }
        return rows;
    }

    @Override
    public Map<String, Object> sketchMetadata() {
        toSketch();
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("was_estimated", sketch.getMaximumError() > 0);
        meta.put("family", "FREQUENCY");
        meta.put("size", sketch.getCurrentMapCapacity());
        meta.put("items_seen", sketch.getStreamLength());
        meta.put("maximum_count_error", sketch.getMaximumError());
        meta.put("active_items", sketch.getNumActiveItems());
        return meta;
    }

    @Override
    public void reset() {
        sketch = new ItemsSketch<>(entries);
        keyBytes = 0;
        keys = 0;
        for (int i = 0; i < kept.size(); i++) {
            keptCounts[kept.id(i)] = 0;
        }
        kept.reset();
    }

    @Override
    public long heldBytes() {
        return HeapEstimate.ofEntries(sketch.getNumActiveItems() + kept.size(), keyBytes, keys, 1) + kept.heldBytes()
               + (long) keptCounts.length * Long.BYTES;
    }

    @Override
    public boolean isEmpty() {
        return sketch.isEmpty() && kept.size() == 0;
    }

    /** Nothing consumed since the reset: a purge can empty the map, not the stream's weight. */
    @Override
    public boolean isFresh() {
        return sketch.getStreamLength() == 0 && kept.size() == 0;
    }
}

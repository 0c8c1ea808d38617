package dev.bullet.querying.aggregations;

import dev.bullet.query.Aggregation;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.tuple.CompactSketch;
import org.apache.datasketches.tuple.Sketch;
import org.apache.datasketches.tuple.Sketches;
import org.apache.datasketches.tuple.TupleSketchIterator;
import org.apache.datasketches.tuple.Union;
import org.apache.datasketches.tuple.UpdatableSketch;
import org.apache.datasketches.tuple.UpdatableSketchBuilder;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * GROUP with group-by fields (and DISTINCT): a DataSketches tuple sketch keyed by the group's values, whose summary
 * holds the group's metrics. Exact up to {@code bullet.query.aggregation.group.sketch.entries} groups; beyond that
 * the groups kept are a uniform sample and the result is marked estimated. At most {@code size} rows are emitted.
 */
final class GroupAggregator implements Aggregator {
    private final int size;
    private final int entries;
    private final GroupSpec spec;
    private final boolean asStrings;
    /** The order bullet-core composes the fields' values in ({@link BulletCoreKeys#fieldOrder}). */
    private final int[] coreOrder;
    private final SketchKeys.Fields keys;
    /** How {@link #consumeBatch} cuts the records' keys: as {@link #consume} does. */
    private final BatchKeys.Cut cut;
    private final GroupMetrics.Support support;
    private final UpdatableSketchBuilder<GroupMetrics.Rows, GroupMetrics> builder;
    private UpdatableSketch<GroupMetrics.Rows, GroupMetrics> sketch;
    /** What an update of the sketch brings to the key's group. */
    private final GroupMetrics.Rows rows = new GroupMetrics.Rows();
    private Union<GroupMetrics> union;
    private boolean empty = true;
    /** For {@link #heldBytes()}: the union's entries (at most twice the nominal entries), and the keys seen. */
    private long unionEntries;
    private long keyBytes;
    private long keysSeen;
    /** The groups kept apart from the sketch since the reset ({@link KeptKeys}), by their keys' dictionary ids. */
    private final KeptKeys kept = new KeptKeys();
    /** By run, a batch's kept ids ({@link #keptIds}). */
    private final int[] batchIds = new int[BatchKeys.POSITIONS];
    /** The counts {@link #keptIds} read (kept, so the reads stay). */
    private long touched;
    private final KeptGroups keptGroups;

    GroupAggregator(Aggregation aggregation, QuerySettings settings) {
        this.size = aggregation.size();
        this.entries = settings.groupEntries();
        this.spec = new GroupSpec(aggregation.fields(), aggregation.operations());
        this.keptGroups = new KeptGroups(spec);
        this.asStrings = aggregation.groupValuesAsStrings();
        this.coreOrder = BulletCoreKeys.fieldOrder(aggregation.fields());
        this.keys = SketchKeys.fields(spec.fields());
        this.cut = asStrings ? BatchKeys.Cut.bulletCoreGroup(keys, coreOrder) : BatchKeys.Cut.of(keys);
        this.support = new GroupMetrics.Support(spec);
        this.builder = new UpdatableSketchBuilder<GroupMetrics.Rows, GroupMetrics>(support).setNominalEntries(entries);
        reset();
    }

    @Override
    public void consume(Record record) {
        toSketch();
        update(asStrings ? BulletCoreKeys.groupKey(spec.fields(), coreOrder, record) : key(record), record);
    }

    /**
     * One update of the sketch per distinct group key of the batch's matches, in the order the keys first occur,
     * bringing the key's records in batch order: one hash and lookup per group rather than per record. What the
     * records one by one give (DataSketches 6.1.1 {@code QuickSelectSketch.insertOrIgnore}): new groups arrive, and
     * the sketch resizes or rebuilds (lowering theta) right after, in the same order; a group's records fold into its
     * summary in the same order; a group a rebuild drops is dropped whole either way (its later records are over the
     * lowered theta), and one kept was under theta for every record.
     *
     * <p>Until the next reset the groups are first kept apart, in an array by their keys' ids in the thread's dictionary
     * of the fields ({@link KeptKeys}): one array slot per group instead of a hash of the key and probes of the sketch's
     * table. They go to the sketch, in the order their keys came, when the partial or the rows are read, or when the
     * dictionary starts again; then the sketch takes the groups as above until the reset.
     */
    @Override
    public void consumeBatch(List<? extends Record> records, int from, long mask) {
        if (mask == 0) {
            return;
        }
        BatchKeys.Runs runs = BatchKeys.runs(cut, records, from, mask);
        int n = runs.size();
        if (n == 0) {
            return; // no record had a key (bullet-core's GROUP key of a list or map)
        }
        try {
            int run = kept.keeping() ? keep(runs, records, from) : 0;
            for (; run < n; run++) {
                sketch.update(runs.key(run), rows.of(records, from, runs.positions(run)));
            }
        } finally {
            rows.clear();
        }
        for (int i = 0; i < n; i++) {
            int count = Long.bitCount(runs.positions(i));
            keyBytes += (long) runs.key(i).length() * count;
            keysSeen += count;
        }
        empty = false;
    }

    /**
     * Folds the runs into the kept groups, from the first; returns the first run it did not take (every run but when
     * the kept groups had to go to the sketch).
     */
    private int keep(BatchKeys.Runs runs, List<? extends Record> records, int from) {
        if (!kept.start(cut, runs)) {
            kept.tooManyKeys(); // the dictionary started again
            toSketch();
            return 0;
        }
        int known = keptIds(runs);
        for (int run = 0; run < known; run++) {
            int id = batchIds[run];
            if (!keptGroups.has(id)) {
                kept.add(id, runs.key(run));
            }
            long positions = runs.positions(run);
            keptGroups.fold(id, records, from, positions);
            kept.took(Long.bitCount(positions));
        }
        if (known < runs.size()) {
            kept.tooManyKeys(); // the dictionary is full
            toSketch();
        }
        return known;
    }

    /**
     * The kept ids of the runs' keys into {@link #batchIds}, from the first run; returns how many runs have one (all
     * but when the dictionary is full; {@link KeptKeys#idOf}). Each kept group met is read once
     * on the way, so that the groups' first touches, which miss the cache, overlap instead of each waiting for the one
     * before it.
     */
    private int keptIds(BatchKeys.Runs runs) {
        int n = runs.size();
        long sum = 0;
        for (int run = 0; run < n; run++) {
            int id = kept.idOf(runs, run);
            if (id < 0) {
                touched += sum;
                return run;
            }
            batchIds[run] = id;
            sum += keptGroups.touch(id);
        }
        touched += sum;
        return n;
    }

    /** The kept groups into the sketch, in the order their keys came; the sketch takes every key until the reset. */
    private void toSketch() {
        try {
            for (int i = 0; i < kept.size(); i++) {
                GroupMetrics group = keptGroups.take(kept.id(i));
                support.adopt(group);
                sketch.update(kept.key(i), rows.ofFolded(group));
            }
        } finally {
            support.adopt(null);
            rows.clear();
        }
        kept.handedOver();
    }

    private void update(String key, Record record) {
        if (key == null) {
            return;
        }
        sketch.update(key, rows.of(record));
        rows.clear();
        keyBytes += key.length();
        keysSeen++;
        empty = false;
    }

    private String key(Record record) {
        return SketchKeys.keyOf(keys, record);
    }

    @Override
    public void combine(byte[] partial) {
        toSketch();
        Sketch<GroupMetrics> other = Sketches.heapifySketch(Memory.wrap(partial), support);
        union.union(other);
        int entriesIn = other.getRetainedEntries();
        unionEntries = Math.min(unionEntries + entriesIn, 2L * entries);
        keyBytes += partial.length; // an entry's summary holds its group's values: the partial's bytes bound the keys
        keysSeen += Math.max(1, entriesIn);
        empty = false;
    }

    private CompactSketch<GroupMetrics> merged() {
        toSketch();
        Union<GroupMetrics> u = new Union<>(entries, support);
        u.union(union.getResult());
        u.union(sketch);
        return u.getResult();
    }

    @Override
    public byte[] serialize() {
        return merged().toByteArray();
    }

    @Override
    public List<Map<String, Object>> records() {
        CompactSketch<GroupMetrics> result = merged();
        List<Map<String, Object>> rows = new ArrayList<>();
        TupleSketchIterator<GroupMetrics> it = result.iterator();
        List<GroupMetrics> groups = new ArrayList<>();
        while (it.next()) {
            groups.add(it.getSummary());
        }
        for (GroupMetrics g : ordered(groups)) {
            if (rows.size() >= size) {
                break;
            }
            Map<String, Object> row = g.toRow();
            if (asStrings) {
                spec.fields().forEach(f -> row.put(f.name(), bulletCoreString(row.get(f.name()))));
            }
            rows.add(row);
        }
        return rows;
    }

    /**
     * The groups in a stable order: with {@code groupValuesAsStrings} (BQL) bullet-core's, the order its tuple sketch
     * holds their keys in when they arrive as they arrived here ({@link BulletCoreKeys#groupOrder}); otherwise by
     * their values.
     */
    private List<GroupMetrics> ordered(List<GroupMetrics> groups) {
        if (!asStrings) {
            groups.sort(Comparator.comparing(g -> SketchKeys.key(g.groupValuesOrEmpty())));
            return groups;
        }
        groups.sort(Comparator.comparingLong(GroupMetrics::arrival).thenComparing(g -> SketchKeys.key(g.groupValuesOrEmpty())));
        List<String> keys = new ArrayList<>(groups.size());
        for (GroupMetrics g : groups) {
            List<Object> groupValues = g.groupValuesOrEmpty();
            List<String> values = new ArrayList<>();
            for (int i = 0; i < coreOrder.length && coreOrder[i] < groupValues.size(); i++) {
                values.add(String.valueOf(bulletCoreString(groupValues.get(coreOrder[i]))));
            }
            keys.add(String.join(BulletCoreKeys.SEPARATOR, values));
        }
        List<GroupMetrics> ordered = new ArrayList<>(groups.size());
        boolean[] placed = new boolean[groups.size()];
        for (int i : BulletCoreKeys.groupOrder(keys, entries)) {
            ordered.add(groups.get(i));
            placed[i] = true;
        }
        for (int i = 0; i < groups.size(); i++) {
            if (!placed[i]) {
                ordered.add(groups.get(i));
            }
        }
        return ordered;
    }

    /**
     * A group value as bullet-core 1.5.2 groups by it ({@code Objects.toString} of the value forced to STRING): a
     * number or boolean in Java's form, a missing value {@code "null"}; other values (lists, maps) are left as they are.
     */
    static Object bulletCoreString(Object value) {
        if (value == null) {
            return "null";
        }
        return value instanceof Number || value instanceof Boolean ? String.valueOf(value) : value;
    }

    @Override
    public Map<String, Object> sketchMetadata() {
        return SketchMetadata.of(merged());
    }

    @Override
    public void reset() {
        sketch = builder.build();
        union = new Union<>(entries, support);
        empty = true;
        unionEntries = 0;
        keyBytes = 0;
        keysSeen = 0;
        for (int i = 0; i < kept.size(); i++) {
            keptGroups.clear(kept.id(i));
        }
        kept.reset();
        if (!kept.keeping()) {
            keptGroups.release(); // the next partials feed the sketch: no room held for groups meanwhile
        }
    }

    /** Each group: its key, and its values in the summary (twice the key), and the entry's overhead. */
    @Override
    public long heldBytes() {
        return HeapEstimate.ofEntries(sketch.getRetainedEntries() + unionEntries + kept.size(), keyBytes, keysSeen, 2)
               + kept.heldBytes() + keptGroups.heldBytes();
    }

    @Override
    public boolean isEmpty() {
        return empty;
    }

    @Override
    public long history() {
        return support.made();
    }

    @Override
    public void history(long history) {
        support.made(history);
    }
}

package dev.bullet.index;

import dev.bullet.record.FieldPath;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.PathTree;
import dev.bullet.record.Record;
import dev.bullet.record.Span;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The paths every index of one {@link QueryIndex} reads, each with an id, and the current batch of records with the
 * spans of each path in it: a path several indexes watch (an equality on {@code s_00}, a regex on it, a negation of
 * it) is found in each record once, not once per index. The indexes read a batch path by path ({@link #column}): one
 * path's structures (its hash maps, its automaton) then serve all the records of the batch while they are near, where
 * reading record by record would bring every path's structures in again for each record. Ids are counted per user
 * and reused once free. Not thread-safe.
 */
final class PathSpans {
    /**
     * The paths into one top-level field ({@code m.a}, {@code m.b}, {@code l.0.k}): their spans are read together,
     * one pass over the field's value for all of them ({@link LazyRecord#treeSpans}).
     */
    private static final class Group {
        final PathTree tree;
        /** The id of the path at each position of the tree. */
        int[] ids = new int[4];
        long[] out = new long[4];
        int layoutSlot;
        long layoutStamp = -1;

        Group(String head) {
            tree = new PathTree(head);
        }
    }

    private final Map<FieldPath, Integer> ids = new HashMap<>();
    /** The groups of paths into a top-level field, by its name; and each path's group and position in it. */
    private final Map<String, Group> groupOf = new HashMap<>();
    private Group[] groups = new Group[16];
    private int[] positions = new int[16];
    private FieldPath[] paths = new FieldPath[16];
    private int[] users = new int[16];
    /** Each path's spans in the current batch, by the record's position in it. */
    private long[][] columns = new long[16][];
    /** The batch number each column was read for; -1: not read. */
    private long[] readFor = new long[16];
    /** Each path's {@link LazyRecord#layoutSlot} in the current layout, valid when its stamp is the layout's. */
    private int[] layoutSlots = new int[16];
    private long[] layoutStamps = new long[16];
    private Object layout;
    private long layoutStamp;
    private int[] free = new int[16];
    private int freeCount;
    private int next;
    private List<? extends Record> records;
    private int from;
    private int count;
    /** The batch's records as {@link LazyRecord}s (null: a record of another kind, read with {@link Record#get}). */
    private LazyRecord[] lazy = new LazyRecord[0];
    /** The layout stamp of each record of the batch. */
    private long[] stampOf = new long[0];
    /** Each {@link LazyRecord}'s bytes and {@link LazyRecord#plainAscii}, read once a batch (null: not lazy). */
    private byte[][] bytesOf = new byte[0][];
    private boolean[] plainOf = new boolean[0];
    private long batchNumber;

    /** The id of a path, for one more user. */
    int acquire(FieldPath path) {
        Integer known = ids.get(path);
        if (known != null) {
            users[known]++;
            return known;
        }
        int id;
        if (freeCount > 0) {
            id = free[--freeCount];
        } else {
            id = next++;
            if (id == paths.length) {
                int n = id * 2;
                paths = Arrays.copyOf(paths, n);
                users = Arrays.copyOf(users, n);
                columns = Arrays.copyOf(columns, n);
                readFor = Arrays.copyOf(readFor, n);
                layoutSlots = Arrays.copyOf(layoutSlots, n);
                layoutStamps = Arrays.copyOf(layoutStamps, n);
                groups = Arrays.copyOf(groups, n);
                positions = Arrays.copyOf(positions, n);
            }
        }
        paths[id] = path;
        users[id] = 1;
        readFor[id] = -1; // a reused id must not answer with its former path's spans, nor its slot
        layoutStamps[id] = -1;
        ids.put(path, id);
        if (path.depth() > 1) {
            Group group = groupOf.computeIfAbsent(path.head(), Group::new);
            int position = group.tree.add(path);
            if (position >= group.ids.length) {
                group.ids = Arrays.copyOf(group.ids, position * 2);
                group.out = new long[position * 2];
            }
            group.ids[position] = id;
            groups[id] = group;
            positions[id] = position;
        }
        return id;
    }

    /** One user less for the path of this id; the id is free once it has none. */
    void release(int id) {
        if (--users[id] > 0) {
            return;
        }
        ids.remove(paths[id]);
        Group group = groups[id];
        if (group != null) {
            group.tree.remove(positions[id]);
            if (group.tree.size() == 0) {
                groupOf.remove(paths[id].head());
            }
            groups[id] = null;
        }
        paths[id] = null;
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, freeCount * 2);
        }
        free[freeCount++] = id;
    }

    /**
     * Starts a batch: the records {@code records[from, to)}; their spans are read as the indexes ask for them. A
     * record's key layout is looked up once; where a layout puts each path's head is kept per path and layout
     * (records of one producer share one).
     */
    void start(List<? extends Record> records, int from, int to) {
        this.records = records;
        this.from = from;
        this.count = to - from;
        batchNumber++;
        if (lazy.length < count) {
            lazy = new LazyRecord[count];
            stampOf = new long[count];
            bytesOf = new byte[count][];
            plainOf = new boolean[count];
        }
        for (int r = 0; r < count; r++) {
            Record record = records.get(from + r);
            LazyRecord l = record instanceof LazyRecord ? (LazyRecord) record : null;
            lazy[r] = l;
            bytesOf[r] = l == null ? null : l.bytes();
            plainOf[r] = l != null && l.plainAscii();
            if (l != null && l.layout() != layout) {
                layout = l.layout();
                layoutStamp++;
            }
            stampOf[r] = layoutStamp;
        }
    }

    /** The number of records in the batch. */
    int count() {
        return count;
    }

    /** The record at a position of the batch. */
    Record record(int r) {
        return records.get(from + r);
    }

    /** The bytes of the record at a position of the batch if it is a {@link LazyRecord}, else null. */
    byte[] bytes(int r) {
        return bytesOf[r];
    }

    /** Whether the record at a position of the batch is a {@link LazyRecord} of {@link LazyRecord#plainAscii} text. */
    boolean plainAscii(int r) {
        return plainOf[r];
    }

    /** The record at a position of the batch if it reads its bytes in place ({@link LazyRecord}), else null. */
    LazyRecord lazy(int r) {
        return lazy[r];
    }

    /**
     * The spans ({@link LazyRecord#span}) of the path with this id in the batch's records, by position, read once per
     * batch: {@link LazyRecord#UNSURE} for a record that is not a {@link LazyRecord}. Valid until the next batch.
     */
    long[] column(int id) {
        long[] column = columns[id];
        if (readFor[id] == batchNumber) {
            return column;
        }
        Group group = groups[id];
        if (group != null && group.tree.size() > 1) {
            readGroup(group);
            return columns[id];
        }
        column = columnOf(id);
        FieldPath path = paths[id];
        if (path.depth() == 1) {
            readTop(id, path, column);
            return column;
        }
        for (int r = 0; r < count; r++) {
            LazyRecord record = lazy[r];
            if (record == null) {
                column[r] = Span.UNSURE;
                continue;
            }
            if (layoutStamps[id] != stampOf[r]) {
                layoutSlots[id] = record.layoutSlot(path);
                layoutStamps[id] = stampOf[r];
            }
            column[r] = record.span(path, layoutSlots[id]);
        }
        readFor[id] = batchNumber;
        return column;
    }

    /** The column of a one-segment path: each record's slot for it checked, the layout's answer kept in locals. */
    private void readTop(int id, FieldPath path, long[] column) {
        int slot = layoutSlots[id];
        long stamp = layoutStamps[id];
        for (int r = 0; r < count; r++) {
            LazyRecord record = lazy[r];
            if (record == null) {
                column[r] = Span.UNSURE;
                continue;
            }
            if (stamp != stampOf[r]) {
                slot = record.layoutSlot(path);
                stamp = stampOf[r];
            }
            column[r] = record.topSpan(path, slot);
        }
        layoutSlots[id] = slot;
        layoutStamps[id] = stamp;
        readFor[id] = batchNumber;
    }

    private long[] columnOf(int id) {
        long[] column = columns[id];
        if (column == null || column.length < count) {
            column = new long[Math.max(count, 16)];
            columns[id] = column;
        }
        return column;
    }

    /** The columns of a group's paths, read together. */
    private void readGroup(Group group) {
        PathTree tree = group.tree;
        int n = tree.capacity();
        long[][] out = new long[n][];
        for (int p = 0; p < n; p++) {
            if (tree.path(p) != null) {
                out[p] = columnOf(group.ids[p]);
                readFor[group.ids[p]] = batchNumber;
            }
        }
        for (int r = 0; r < count; r++) {
            LazyRecord record = lazy[r];
            if (record != null && group.layoutStamp != stampOf[r]) {
                group.layoutSlot = record.layoutSlot(tree.path(firstPosition(tree)));
                group.layoutStamp = stampOf[r];
            }
            if (record != null) {
                record.treeSpans(tree, group.layoutSlot, group.out);
            }
            for (int p = 0; p < n; p++) {
                if (out[p] != null) {
                    out[p][r] = record == null ? Span.UNSURE : group.out[p];
                }
            }
        }
    }

    private static int firstPosition(PathTree tree) {
        int p = 0;
        while (tree.path(p) == null) {
            p++;
        }
        return p;
    }

    /** How many distinct paths are in use. */
    int size() {
        return ids.size();
    }

    /** Forgets the batch (so its records can be collected); the last layout is kept, an identity only. */
    void clear() {
        Arrays.fill(lazy, 0, count, null);
        Arrays.fill(bytesOf, 0, count, null);
        records = null;
        count = 0;
    }
}

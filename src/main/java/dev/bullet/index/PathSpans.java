package dev.bullet.index;

import dev.bullet.record.FieldPath;
import dev.bullet.record.LazyRecord;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The paths every index of one {@link QueryIndex} reads, each with an id, and the current record's span for each: a
 * path several indexes watch (an equality on {@code s_00}, a regex on it, a negation of it) is found in the record
 * once per record, not once per index. Ids are counted per user and reused once free. Not thread-safe.
 */
final class PathSpans {
    private final Map<FieldPath, Integer> ids = new HashMap<>();
    private FieldPath[] paths = new FieldPath[16];
    private int[] users = new int[16];
    private long[] spans = new long[16];
    /** The record number each span was read for; -1: not read. */
    private long[] readFor = new long[16];
    /** Each path's {@link LazyRecord#layoutSlot} in the current layout, valid when its stamp is the layout's. */
    private int[] layoutSlots = new int[16];
    private long[] layoutStamps = new long[16];
    private Object layout;
    private long layoutStamp;
    private int[] free = new int[16];
    private int freeCount;
    private int next;
    private LazyRecord current;
    private long recordNumber;

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
                spans = Arrays.copyOf(spans, n);
                readFor = Arrays.copyOf(readFor, n);
                layoutSlots = Arrays.copyOf(layoutSlots, n);
                layoutStamps = Arrays.copyOf(layoutStamps, n);
            }
        }
        paths[id] = path;
        users[id] = 1;
        readFor[id] = -1; // a reused id must not answer with its former path's span, nor its slot
        layoutStamps[id] = -1;
        ids.put(path, id);
        return id;
    }

    /** One user less for the path of this id; the id is free once it has none. */
    void release(int id) {
        if (--users[id] > 0) {
            return;
        }
        ids.remove(paths[id]);
        paths[id] = null;
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, freeCount * 2);
        }
        free[freeCount++] = id;
    }

    /**
     * {@link LazyRecord#span} of the path with this id, read once per record; where the record's key layout puts the
     * path's head is looked up once per layout (records of one producer share one).
     */
    long span(int id, LazyRecord record) {
        if (record != current) {
            current = record;
            recordNumber++;
            Object shape = record.layout();
            if (shape != layout) {
                layout = shape;
                layoutStamp++;
            }
        }
        if (readFor[id] == recordNumber) {
            return spans[id];
        }
        if (layoutStamps[id] != layoutStamp) {
            layoutSlots[id] = record.layoutSlot(paths[id]);
            layoutStamps[id] = layoutStamp;
        }
        long span = record.span(paths[id], layoutSlots[id]);
        spans[id] = span;
        readFor[id] = recordNumber;
        return span;
    }

    /** How many distinct paths are in use. */
    int size() {
        return ids.size();
    }

    /** Forgets the current record (so it can be collected); its layout is kept, an identity only. */
    void clear() {
        current = null;
    }
}

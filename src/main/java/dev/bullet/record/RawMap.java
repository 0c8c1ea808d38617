package dev.bullet.record;

import java.nio.charset.StandardCharsets;
import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A JSON object of a record read in place: the map gson's full decode would give (same keys in the same order, the
 * last of duplicate keys winning in the first one's place, the same values), but nothing is built until it is
 * read. A lookup walks the object's bytes once to note where its entries lie; a key or value is decoded the first
 * time it is read, inner objects and arrays as views again. So {@code m.k} or {@code CONTAINSKEY} on a record's
 * map costs a walk over a few bytes, not a {@code LinkedHashMap}. Read-only; not thread-safe (records are not).
 */
final class RawMap extends AbstractMap<String, Object> implements TypeMemo {
    /** {@link TypeMemo}: what a reader made of the members' types. */
    private Object typeMemo;

    @Override
    public Object typeMemo() {
        return typeMemo;
    }

    @Override
    public void typeMemo(Object type) {
        typeMemo = type;
    }

    @Override
    public int memberCount() {
        return size();
    }

    @Override
    public int memberKind(int i) {
        index();
        return RawJson.kind(data, spans[i * 4 + 2], spans[i * 4 + 3]);
    }

    @Override
    public Object member(int i) {
        return valueAt(i);
    }

    private static final Object UNREAD = new Object();
    /** Up to this many entries, keys are found by comparing hashes pairwise; above, through a table of entries. */
    private static final int PAIRWISE = 16;

    private final byte[] data;
    private final int start;
    /** Per entry: key start, key end (inside the quotes), value start, value end. Null until first read. */
    private int[] spans;
    /** Per entry, its key's text hash ({@link RawJson#hash}, a {@code String}'s hash code). */
    private int[] hashes;
    /**
     * Above {@link #PAIRWISE} entries: open addressing from a key's hash to its entry + 1 (0: free slot), so a
     * lookup in a large map (a RAW result's record) probes a slot or two instead of walking every key.
     */
    private int[] table;
    private int size;
    private boolean nonAsciiKeys;
    private String[] keys;
    private Object[] values;

    RawMap(byte[] data, int start) {
        this.data = data;
        this.start = start;
    }

    private void index() {
        if (spans != null) {
            return;
        }
        Indexer indexer = new Indexer();
        RawBytes.members(data, start, indexer);
        spans = indexer.s;
        hashes = indexer.hashes;
        table = indexer.table;
        size = indexer.n;
    }

    private static int slotOf(int hash, int mask) {
        int h = hash * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }

    /** Notes each distinct key's place and the value of its last occurrence, as the members are walked. */
    private final class Indexer implements RawBytes.Members {
        int[] s = new int[16];
        int[] hashes = new int[4];
        int[] table;
        int n;

        @Override
        public boolean member(int keyStart, int keyEnd, int valueStart, int valueEnd) {
            int duplicate = -1;
            int hash = RawJson.hash(data, keyStart, keyEnd);
            nonAsciiKeys |= RawJson.hasNonAscii(data, keyStart, keyEnd);
            if (n < PAIRWISE) {
                for (int e = 0; e < n; e++) {
                    if (hashes[e] == hash && sameKey(s, e, keyStart, keyEnd)) {
                        duplicate = e;
                        break;
                    }
                }
            } else {
                if (table == null || n * 2 >= table.length) {
                    rebuild();
                }
                int mask = table.length - 1;
                for (int t = slotOf(hash, mask); table[t] != 0; t = (t + 1) & mask) {
                    int e = table[t] - 1;
                    if (hashes[e] == hash && sameKey(s, e, keyStart, keyEnd)) {
                        duplicate = e;
                        break;
                    }
                }
            }
            if (duplicate >= 0) { // the last value wins, in the first key's place
                s[duplicate * 4 + 2] = valueStart;
                s[duplicate * 4 + 3] = valueEnd;
                return true;
            }
            if ((n + 1) * 4 > s.length) {
                s = Arrays.copyOf(s, s.length * 2);
            }
            if (n >= hashes.length) {
                hashes = Arrays.copyOf(hashes, hashes.length * 2);
            }
            s[n * 4] = keyStart;
            s[n * 4 + 1] = keyEnd;
            s[n * 4 + 2] = valueStart;
            s[n * 4 + 3] = valueEnd;
            hashes[n] = hash;
            if (table != null) {
                place(table, n);
            }
            n++;
            return true;
        }

        /** A table for the entries so far, with room for as many again. */
        private void rebuild() {
            table = new int[Integer.highestOneBit(Math.max(PAIRWISE, n) * 4)];
            for (int e = 0; e < n; e++) {
                place(table, e);
            }
        }

        private void place(int[] table, int e) {
            int mask = table.length - 1;
            int t = slotOf(hashes[e], mask);
            while (table[t] != 0) {
                t = (t + 1) & mask;
            }
            table[t] = e + 1;
        }
    }

    /** Whether two keys are the same text (ill-formed UTF-8 reads as U+FFFD, so different bytes may be one key). */
    private boolean sameKey(int[] s, int e, int keyStart, int keyEnd) {
        int a = s[e * 4];
        int length = s[e * 4 + 1] - a;
        if (length == keyEnd - keyStart) {
            boolean same = true;
            for (int k = 0; k < length && same; k++) {
                same = data[a + k] == data[keyStart + k];
            }
            if (same) {
                return true;
            }
        }
        return (RawJson.hasNonAscii(data, a, a + length) || RawJson.hasNonAscii(data, keyStart, keyEnd))
               && keyText(s, e).equals(new String(data, keyStart, keyEnd - keyStart, StandardCharsets.UTF_8));
    }

    private String keyText(int[] s, int e) {
        return new String(data, s[e * 4], s[e * 4 + 1] - s[e * 4], StandardCharsets.UTF_8);
    }

    /** The entry with this key, or -1. */
    private int find(Object key) {
        if (!(key instanceof String)) {
            return -1;
        }
        index();
        String k = (String) key;
        if (table != null) { // a key's text hash is its String's hash code
            int hash = k.hashCode();
            int mask = table.length - 1;
            for (int t = slotOf(hash, mask); table[t] != 0; t = (t + 1) & mask) {
                int e = table[t] - 1;
                if (hashes[e] == hash && RawJson.sameText(data, spans[e * 4], spans[e * 4 + 1], k)) {
                    return e;
                }
            }
            return -1;
        }
        for (int e = 0; e < size; e++) {
            if (RawJson.sameText(data, spans[e * 4], spans[e * 4 + 1], k)) {
                return e;
            }
        }
        return -1;
    }

    /** The entry whose key is these UTF-8 bytes: its index, -1 when none, -2 when only a decode can tell. */
    int entryOf(byte[] key) {
        index();
        for (int e = 0; e < size; e++) {
            int a = spans[e * 4];
            if (spans[e * 4 + 1] - a == key.length && Arrays.equals(data, a, a + key.length, key, 0, key.length)) {
                return e;
            }
        }
        return nonAsciiKeys ? -2 : -1;
    }

    /** Where the value of entry {@code e} lies: its {@link Span}. */
    long spanAt(int e) {
        return Span.of(spans[e * 4 + 2], spans[e * 4 + 3]);
    }

    String keyAt(int e) {
        if (keys == null) {
            keys = new String[size];
        }
        String k = keys[e];
        if (k == null) {
            k = keyText(spans, e);
            keys[e] = k;
        }
        return k;
    }

    Object valueAt(int e) {
        if (values == null) {
            values = new Object[size];
            Arrays.fill(values, UNREAD);
        }
        Object v = values[e];
        if (v == UNREAD) {
            v = RawJson.decode(data, spans[e * 4 + 2], spans[e * 4 + 3]);
            values[e] = v;
        }
        return v;
    }

    @Override
    public Object get(Object key) {
        int e = find(key);
        return e < 0 ? null : valueAt(e);
    }

    @Override
    public boolean containsKey(Object key) {
        return find(key) >= 0;
    }

    @Override
    public int size() {
        index();
        return size;
    }

    @Override
    public boolean isEmpty() {
        return size() == 0;
    }

    @Override
    public Set<Map.Entry<String, Object>> entrySet() {
        index();
        return new AbstractSet<>() {
            @Override
            public Iterator<Map.Entry<String, Object>> iterator() {
                return new Walk<>() {
                    @Override
                    Map.Entry<String, Object> at(int e) {
                        return new SimpleImmutableEntry<>(keyAt(e), valueAt(e));
                    }
                };
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    @Override
    public Set<String> keySet() {
        index();
        return new AbstractSet<>() {
            @Override
            public Iterator<String> iterator() {
                return new Walk<>() {
                    @Override
                    String at(int e) {
                        return keyAt(e);
                    }
                };
            }

            @Override
            public int size() {
                return size;
            }

            @Override
            public boolean contains(Object o) {
                return containsKey(o);
            }
        };
    }

    @Override
    public Collection<Object> values() {
        index();
        return new AbstractCollection<>() {
            @Override
            public Iterator<Object> iterator() {
                return new Walk<>() {
                    @Override
                    Object at(int e) {
                        return valueAt(e);
                    }
                };
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    /** Entries in order. */
    private abstract class Walk<T> implements Iterator<T> {
        private int next;

        abstract T at(int e);

        @Override
        public boolean hasNext() {
            return next < size;
        }

        @Override
        public T next() {
            if (next >= size) {
                throw new NoSuchElementException();
            }
            return at(next++);
        }
    }
}

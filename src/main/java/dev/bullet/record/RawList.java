package dev.bullet.record;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/**
 * A JSON array of a record read in place: the list gson's full decode would give, with each element decoded the first
 * time it is read (inner objects and arrays as views again, see {@link RawMap}). Read-only; not thread-safe.
 */
final class RawList extends AbstractList<Object> implements RandomAccess, TypeMemo {
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
        return RawJson.kind(data, spans[i * 2], spans[i * 2 + 1]);
    }

    @Override
    public Object member(int i) {
        return get(i);
    }

    private static final Object UNREAD = new Object();

    private final byte[] data;
    private final int start;
    /** Per element: start, end. Null until first read. */
    private int[] spans;
    private int size;
    private Object[] values;

    RawList(byte[] data, int start) {
        this.data = data;
        this.start = start;
    }

    private void index() {
        if (spans != null) {
            return;
        }
        Indexer indexer = new Indexer();
        size = RawBytes.elements(data, start, indexer);
        spans = indexer.s;
    }

    /** Notes where each element lies, as the elements are walked. */
    private static final class Indexer implements RawBytes.Elements {
        int[] s = new int[8];
        int n;

        @Override
        public boolean element(int from, int to) {
            if ((n + 1) * 2 > s.length) {
                s = Arrays.copyOf(s, s.length * 2);
            }
            s[n * 2] = from;
            s[n * 2 + 1] = to;
            n++;
            return true;
        }
    }

    @Override
    public Object get(int index) {
        index();
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("Index " + index + " out of bounds for length " + size);
        }
        if (values == null) {
            values = new Object[size];
            Arrays.fill(values, UNREAD);
        }
        Object v = values[index];
        if (v == UNREAD) {
            v = RawJson.decode(data, spans[index * 2], spans[index * 2 + 1]);
            values[index] = v;
        }
        return v;
    }

    /** Where element {@code i} (in range) lies: its {@link Span}. */
    long spanAt(int i) {
        index();
        return Span.of(spans[i * 2], spans[i * 2 + 1]);
    }

    @Override
    public int size() {
        index();
        return size;
    }
}

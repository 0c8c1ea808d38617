package dev.bullet.record;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A record over its raw bytes, validated by {@link JsonScanner} but not decoded: a top-level field is decoded the
 * first time something reads it, and only that field ("only the fields the active queries touch", SPEC §5, §10).
 * {@link #asMap()} decodes everything (for RAW results). Values equal a full gson decode of the same bytes:
 * strings without escapes are cut straight from the bytes, numbers go through the decoder's number rule, anything
 * else through gson itself. Duplicate keys: the last one wins, as with the full decode. Not thread-safe.
 */
public final class LazyRecord implements Record {
    private final byte[] data;
    private final int[] slots;
    private final int count;
    private transient Object[] values;
    private transient long[] read;
    private transient Map<String, Object> map;

    LazyRecord(byte[] data, int[] slots, int count) {
        this.data = data;
        this.slots = slots;
        this.count = count;
    }

    @Override
    public Object get(FieldPath path) {
        if (map != null) {
            return path.resolve(map);
        }
        if (path.depth() == 1) {
            return top(path.headUtf8(), path.headHash());
        }
        Object nested = path.resolveFrom(top(path.headUtf8(), path.headHash()), 1);
        return nested != null ? nested : top(path.textUtf8(), path.textHash());
    }

    /** The value of a top-level key (the last occurrence), or null. */
    private Object top(byte[] key, int hash) {
        for (int i = count - 1; i >= 0; i--) {
            int s = i * JsonScanner.SLOT;
            if (slots[s] == hash && sameKey(s, key)) {
                return value(i);
            }
        }
        return null;
    }

    private boolean sameKey(int s, byte[] key) {
        int start = slots[s + 1];
        int length = key.length;
        if (start + length >= data.length || data[start + length] != '"') {
            return false;
        }
        for (int k = 0; k < length; k++) {
            if (data[start + k] != key[k]) {
                return false;
            }
        }
        return true;
    }

    private int keyEnd(int s) {
        int end = slots[s + 1];
        while (data[end] != '"') {
            end++;
        }
        return end;
    }

    private Object value(int i) {
        if (values == null) {
            values = new Object[count];
            read = new long[(count + 63) >>> 6];
        }
        long bit = 1L << (i & 63);
        if ((read[i >>> 6] & bit) == 0) {
            values[i] = decode(slots[i * JsonScanner.SLOT + 2], slots[i * JsonScanner.SLOT + 3]);
            read[i >>> 6] |= bit;
        }
        return values[i];
    }

    private Object decode(int start, int end) {
        byte first = data[start];
        if (first == '"') {
            boolean plain = true;
            for (int k = start + 1; k < end - 1; k++) {
                if (data[k] == '\\') {
                    plain = false;
                    break;
                }
            }
            if (plain) {
                return new String(data, start + 1, end - start - 2, StandardCharsets.UTF_8);
            }
        } else if (first == '-' || first >= '0' && first <= '9') {
            return RecordDecoder.toNumber(new String(data, start, end - start, StandardCharsets.ISO_8859_1));
        } else if (first == 't') {
            return Boolean.TRUE;
        } else if (first == 'f') {
            return Boolean.FALSE;
        } else if (first == 'n') {
            return null;
        } else {
            Object container = new ContainerReader(data, start).read();
            if (container != ContainerReader.UNSURE) {
                return container;
            }
        }
        try (JsonReader reader = new JsonReader(new StringReader(new String(data, start, end - start, StandardCharsets.UTF_8)))) {
            reader.setStrictness(Strictness.STRICT);
            return RecordDecoder.readValue(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("a value the scanner validated did not decode", e);
        }
    }

    /**
     * The raw message this record reads, not a copy (so a record can travel between workers as these bytes and be
     * scanned again there). Callers must not modify it.
     */
    public byte[] bytes() {
        return data;
    }

    @Override
    public Map<String, Object> asMap() {
        if (map == null) {
            Map<String, Object> m = new LinkedHashMap<>(count * 2);
            for (int i = 0; i < count; i++) {
                int s = i * JsonScanner.SLOT;
                m.put(new String(data, slots[s + 1], keyEnd(s) - slots[s + 1], StandardCharsets.UTF_8), value(i));
            }
            map = m;
        }
        return map;
    }

    /** The record's JSON as it arrived (validated; the caller must not modify it). */
    public byte[] rawJson() {
        return data;
    }

    @Override
    public String toString() {
        return new String(data, StandardCharsets.UTF_8);
    }

    /**
     * Decodes an object or array the scanner has validated, straight from the bytes, as gson would (LinkedHashMap,
     * ArrayList, the number rule of {@link RecordDecoder#toNumber}, the last of duplicate keys); anything with an
     * escape gives {@link #UNSURE} and goes to gson.
     */
    private static final class ContainerReader {
        static final Object UNSURE = new Object();
        private final byte[] data;
        private int p;

        ContainerReader(byte[] data, int start) {
            this.data = data;
            this.p = start;
        }

        Object read() {
            try {
                return value();
            } catch (Unsure e) {
                return UNSURE;
            }
        }

        /** Thrown on anything the fast path leaves to gson. */
        private static final class Unsure extends RuntimeException {
            private static final long serialVersionUID = 1L;

            Unsure() {
                super(null, null, false, false);
            }
        }

        private static final Unsure UNSURE_EXCEPTION = new Unsure();

        private void skipSpace() {
            while (data[p] == ' ' || data[p] == '\t' || data[p] == '\n' || data[p] == '\r') {
                p++;
            }
        }

        private Object value() {
            skipSpace();
            byte b = data[p];
            switch (b) {
                case '{': {
                    p++;
                    Map<String, Object> map = new LinkedHashMap<>();
                    skipSpace();
                    if (data[p] == '}') {
                        p++;
                        return map;
                    }
                    while (true) {
                        skipSpace();
                        String key = string();
                        skipSpace();
                        p++; // ':'
                        map.put(key, value());
                        skipSpace();
                        if (data[p++] == '}') {
                            return map;
                        }
                    }
                }
                case '[': {
                    p++;
                    List<Object> list = new ArrayList<>();
                    skipSpace();
                    if (data[p] == ']') {
                        p++;
                        return list;
                    }
                    while (true) {
                        list.add(value());
                        skipSpace();
                        if (data[p++] == ']') {
                            return list;
                        }
                    }
                }
                case '"':
                    return string();
                case 't':
                    p += 4;
                    return Boolean.TRUE;
                case 'f':
                    p += 5;
                    return Boolean.FALSE;
                case 'n':
                    p += 4;
                    return null;
                default: {
                    int start = p;
                    while (p < data.length && (data[p] == '-' || data[p] == '+' || data[p] == '.' || data[p] == 'e'
                                               || data[p] == 'E' || data[p] >= '0' && data[p] <= '9')) {
                        p++;
                    }
                    if (p == start) {
                        throw UNSURE_EXCEPTION;
                    }
                    return RecordDecoder.toNumber(new String(data, start, p - start, StandardCharsets.ISO_8859_1));
                }
            }
        }

        private String string() {
            if (data[p] != '"') {
                throw UNSURE_EXCEPTION;
            }
            int start = ++p;
            while (data[p] != '"') {
                if (data[p] == '\\') {
                    throw UNSURE_EXCEPTION;
                }
                p++;
            }
            return new String(data, start, p++ - start, StandardCharsets.UTF_8);
        }
    }
}

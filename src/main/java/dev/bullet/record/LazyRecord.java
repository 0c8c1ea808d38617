package dev.bullet.record;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
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

    @Override
    public String toString() {
        return new String(data, StandardCharsets.UTF_8);
    }
}

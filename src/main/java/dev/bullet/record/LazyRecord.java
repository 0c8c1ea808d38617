package dev.bullet.record;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import dev.bullet.common.Swar;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A record over its raw bytes, validated by {@link JsonScanner} but not decoded: a top-level field is decoded the
 * first time something reads it, and only that field ("only the fields the active queries touch", SPEC §5, §10).
 * {@link #asMap()} decodes everything (for RAW results). Values equal a full gson decode of the same bytes:
 * strings without escapes are cut straight from the bytes, numbers go through the decoder's number rule, objects and
 * arrays without escapes are views over their bytes ({@link RawMap}, {@link RawList}: a path into them or a CONTAINS
 * reads a few bytes and builds nothing), anything else goes through gson itself. Duplicate keys: the last one wins,
 * as with the full decode. A key is found through the record's {@link KeyShape} in one probe. Not thread-safe.
 */
public final class LazyRecord implements Record {
    private final byte[] data;
    private final int[] slots;
    private final int count;
    private final KeyShape shape;
    private final boolean plainAscii;
    private transient Object[] values;
    private transient long[] read;
    private transient Map<String, Object> map;

    LazyRecord(byte[] data, int[] slots, int count, KeyShape shape, boolean plainAscii) {
        this.data = data;
        this.slots = slots;
        this.count = count;
        this.shape = shape;
        this.plainAscii = plainAscii;
    }

    /**
     * Whether every string of the record, keys included, is ASCII without an escape (the scan saw to it): then the
     * text of any string in {@link #bytes} is exactly its bytes, and {@link RawBytes#plainAscii} holds for it.
     */
    public boolean plainAscii() {
        return plainAscii;
    }

    @Override
    public Object get(FieldPath path) {
        if (map != null) {
            return path.resolve(map);
        }
        if (path.depth() == 1) {
            return top(path.headUtf8(), path.headHash(), path.headWord());
        }
        Object nested = path.resolveFrom(top(path.headUtf8(), path.headHash(), path.headWord()), 1);
        return nested != null ? nested : top(path.textUtf8(), path.textHash(), 0);
    }

    /**
     * Where the value at the path lies in {@link #bytes()}: a {@link Span}, found without decoding
     * anything (the index reads values this way, so a record whose value no query waits for builds nothing); or
     * {@link Span#MISSING} when the path reads null (absent, or JSON null); or {@link Span#UNSURE} when only {@link #get}
     * can tell (escaped or non-ASCII keys on the way, duplicate top-level key hashes, a record already decoded). The
     * value at a span is what {@link #get} returns for the path.
     */
    public long span(FieldPath path) {
        return map != null ? Span.UNSURE : spanFrom(path, shape.slotOf(path.headHash()));
    }

    /**
     * {@link #span} with the path's head already looked up in the record's key layout ({@link #layoutSlot}, of this
     * record or of any record with the same {@link #layout()}): a reader of many paths keeps those per layout.
     */
    public long span(FieldPath path, int layoutSlot) {
        return map != null ? Span.UNSURE : spanFrom(path, layoutSlot);
    }

    /** {@link #span(FieldPath, int)} of a one-segment path (a top-level field), the short way. */
    public long topSpan(FieldPath path, int layoutSlot) {
        if (map != null) {
            return Span.UNSURE;
        }
        int slot = checkSlot(layoutSlot, path.headUtf8(), path.headWord(), path.headHash());
        return slot == UNSURE_SLOT ? Span.UNSURE : slot < 0 ? Span.MISSING : spanOf(slot);
    }

    /**
     * The record's key layout: records of one producer with their keys in the same order share it (the same object),
     * and with it the answers of {@link #layoutSlot}.
     */
    public Object layout() {
        return shape;
    }

    /** Where the layout puts the path's head: a slot, or a negative value that only {@link #span} reads. */
    public int layoutSlot(FieldPath path) {
        return shape.slotOf(path.headHash());
    }

    private long spanFrom(FieldPath path, int layoutSlot) {
        int slot = checkSlot(layoutSlot, path.headUtf8(), path.headWord(), path.headHash());
        if (slot == UNSURE_SLOT) {
            return Span.UNSURE;
        }
        if (path.depth() == 1) {
            return slot < 0 ? Span.MISSING : spanOf(slot);
        }
        long nested = slot < 0 ? Span.MISSING : isRead(slot) ? nestedSpan(value(slot), path) : walk(slot, path);
        if (nested == Span.UNSURE) {
            return Span.UNSURE;
        }
        if (nested != Span.MISSING && data[Span.start(nested)] != 'n') {
            return nested;
        }
        slot = topSlot(path.textUtf8(), path.textHash()); // a dotted key at the top level, as get reads it
        return slot == UNSURE_SLOT ? Span.UNSURE : slot < 0 ? Span.MISSING : spanOf(slot);
    }

    /**
     * {@link #span} of every path of a tree (paths into one top-level field), reading the field's value once for all
     * of them: {@code out[p]} is the span of the path at position {@code p} (free positions read Span.MISSING).
     * {@code layoutSlot} is the head's {@link #layoutSlot}. Where the value cannot be read in one pass (an escaped or
     * non-ASCII key on the way, a head decoded already), each path is found on its own.
     */
    public void treeSpans(PathTree tree, int layoutSlot, long[] out) {
        int n = tree.capacity();
        if (map != null) {
            Arrays.fill(out, 0, n, Span.UNSURE);
            return;
        }
        int slot = checkSlot(layoutSlot, tree.headUtf8(), tree.headWord(), tree.headHash());
        if (slot == UNSURE_SLOT) {
            Arrays.fill(out, 0, n, Span.UNSURE);
            return;
        }
        Arrays.fill(out, 0, n, Span.MISSING);
        if (slot >= 0 && (isRead(slot) || read(tree.root(), slots[slot * JsonScanner.SLOT + 2], out) == UNSURE_READ)) {
            for (int p = 0; p < n; p++) {
                FieldPath path = tree.path(p);
                out[p] = path == null ? Span.MISSING : spanFrom(path, layoutSlot);
            }
            return;
        }
        for (int p = 0; p < n; p++) {
            long nested = out[p];
            FieldPath path = tree.path(p);
            if (path != null && (nested == Span.MISSING || data[Span.start(nested)] == 'n')) {
                int top = topSlot(path.textUtf8(), path.textHash()); // a dotted key, as get reads it
                out[p] = top == UNSURE_SLOT ? Span.UNSURE : top < 0 ? Span.MISSING : spanOf(top);
            }
        }
    }

    /** {@link #read}: an escaped or non-ASCII key on the way, out is unusable. */
    private static final int UNSURE_READ = -1;
    /** {@link #read}: the value was read as far as the kids needed, not to its end. */
    private static final int END_UNKNOWN = -2;

    /**
     * Reads the value at {@code at} for the node's kids: an object's members in one pass (the last of duplicate keys
     * wins), a list's elements up to the highest index wanted; then the kids' own kids. Returns where the value
     * ends when the read went through it (an object always; a list when its end came first), END_UNKNOWN when it
     * stopped before; UNSURE_READ at an escaped or non-ASCII key (out is unusable then), as {@link #member} answers
     * Span.UNSURE. A list's element read for its kids is walked once: its end comes from that read.
     */
    private int read(PathTree.Node node, int at, long[] out) {
        PathTree.Node[] kids = node.kids;
        byte first = data[at];
        if (first == '{') {
            for (PathTree.Node kid : kids) {
                kid.valueAt = -1;
            }
            int i = RawJson.skipSpace(data, at + 1);
            if (data[i] != '}') {
                while (true) {
                    int keyStart = i + 1;
                    int keyEnd;
                    if (plainAscii) { // no escape, no byte above 0x7F anywhere: the next quote ends the key
                        keyEnd = closingQuote(keyStart);
                    } else {
                        keyEnd = keyStart;
                        while (true) {
                            byte b = data[keyEnd];
                            if (b == '"') {
                                break;
                            }
                            if (b == '\\' || b < 0) {
                                return UNSURE_READ;
                            }
                            keyEnd++;
                        }
                    }
                    int valueStart = RawJson.skipSpace(data, RawJson.skipSpace(data, keyEnd + 1) + 1);
                    int valueEnd = plainAscii && data[valueStart] == '"' ? closingQuote(valueStart + 1) + 1
                        : RawJson.skipValue(data, valueStart);
                    int length = keyEnd - keyStart;
                    // a short key and its quote as one word: each kid's name is then one compare
                    long word = length < 8 && keyStart + 8 <= data.length
                        ? Swar.word(data, keyStart) & FieldPath.keyMask(length) : 0;
                    for (PathTree.Node kid : kids) {
                        byte[] key = kid.name;
                        if (key.length == length && (word != 0 ? kid.word == word
                            : Arrays.equals(data, keyStart, keyEnd, key, 0, key.length))) {
                            kid.valueAt = valueStart;
                            if (kid.end >= 0) {
                                out[kid.end] = Span.of(valueStart, valueEnd);
                            }
                        }
                    }
                    i = RawJson.skipSpace(data, valueEnd);
                    if (data[i] == '}') {
                        break;
                    }
                    i = RawJson.skipSpace(data, i + 1);
                }
            }
            for (PathTree.Node kid : kids) {
                if (kid.kids.length > 0 && kid.valueAt >= 0 && read(kid, kid.valueAt, out) == UNSURE_READ) {
                    return UNSURE_READ;
                }
            }
            return i + 1;
        }
        if (first == '[' && node.maxIndex >= 0) {
            int i = RawJson.skipSpace(data, at + 1);
            if (data[i] == ']') {
                return i + 1;
            }
            for (int e = 0; ; e++) {
                int end = END_UNKNOWN;
                for (PathTree.Node kid : kids) {
                    if (kid.index == e && kid.kids.length > 0) {
                        int read = read(kid, i, out);
                        if (read == UNSURE_READ) {
                            return UNSURE_READ;
                        }
                        if (read >= 0) {
                            end = read;
                        }
                    }
                }
                if (end < 0) {
                    end = RawJson.skipValue(data, i);
                }
                for (PathTree.Node kid : kids) {
                    if (kid.index == e && kid.end >= 0) {
                        out[kid.end] = Span.of(i, end);
                    }
                }
                if (e >= node.maxIndex) {
                    return END_UNKNOWN;
                }
                i = RawJson.skipSpace(data, end);
                if (data[i] == ']') {
                    return i + 1;
                }
                i = RawJson.skipSpace(data, i + 1);
            }
        }
        return END_UNKNOWN; // a scalar, null, or a list no kid indexes: nothing under it
    }

    private static final long QUOTE_BYTES = Swar.broadcast('"');

    /**
     * In a plain ASCII record (no escape anywhere), the index of the first quote at or after {@code from}: a
     * string's end. Eight bytes at a time, so a short key or value is one read and no loop.
     */
    private int closingQuote(int from) {
        int i = from;
        for (; i + 8 <= data.length; i += 8) {
            long quotes = Swar.zeroBytes(Swar.word(data, i) ^ QUOTE_BYTES);
            if (quotes != 0) {
                return i + Swar.firstLane(quotes);
            }
        }
        while (data[i] != '"') {
            i++;
        }
        return i;
    }

    /**
     * Reads one byte of every cache line of the record's bytes and key slots, in order, and returns a value that
     * depends on them (so the reads stay). An engine about to look up many paths calls it first: a batch decoded a
     * while ago (or on another core) has left the record in far memory, and the lookups would each wait for a line
     * in turn, where a sequential pass lets the prefetcher bring all of them at once.
     */
    public int warm() {
        int acc = 0;
        byte[] d = data;
        for (int i = 0, n = d.length; i < n; i += 64) {
            acc += d[i];
        }
        int[] s = slots;
        for (int i = 0, n = count * JsonScanner.SLOT; i < n; i += 16) {
            acc += s[i];
        }
        return acc;
    }

    private static final int MISSING_SLOT = -1;
    private static final int UNSURE_SLOT = -2;

    /** The slot of a top-level key whose value is not null; MISSING_SLOT; UNSURE_SLOT (duplicate key hashes). */
    private int topSlot(byte[] key, int hash) {
        return checkSlot(shape.slotOf(hash), key, 0, hash);
    }

    /** {@link #topSlot} from the layout's answer for the key's hash: the key and a non-null value are checked here. */
    private int checkSlot(int slot, byte[] key, long keyWord, int hash) {
        if (slot == KeyShape.AMBIGUOUS) {
            return UNSURE_SLOT;
        }
        if (slot < 0 || !sameKey(slot * JsonScanner.SLOT, key, keyWord, hash) || data[slots[slot * JsonScanner.SLOT + 2]] == 'n') {
            return MISSING_SLOT;
        }
        return slot;
    }

    private long spanOf(int slot) {
        int s = slot * JsonScanner.SLOT;
        return Span.of(slots[s + 2], slots[s + 3]);
    }

    /**
     * Walks the path's segments after the head through the head's value, an object or array read in place: its
     * members are found once per record (the view keeps them), however many paths lead into it.
     */
    private static long nestedSpan(Object head, FieldPath path) {
        Object current = head;
        for (int seg = 1, depth = path.depth(); seg < depth; seg++) {
            long span;
            if (current instanceof RawMap) {
                RawMap map = (RawMap) current;
                int e = map.entryOf(path.segmentUtf8(seg));
                if (e < 0) {
                    return e == -1 ? Span.MISSING : Span.UNSURE;
                }
                if (seg == depth - 1) {
                    return map.spanAt(e);
                }
                current = map.valueAt(e);
            } else if (current instanceof RawList) {
                RawList list = (RawList) current;
                int index = path.index(seg);
                if (index < 0 || index >= list.size()) {
                    return Span.MISSING;
                }
                if (seg == depth - 1) {
                    return list.spanAt(index);
                }
                current = list.get(index);
            } else if (current instanceof Map || current instanceof List) {
                return Span.UNSURE; // decoded by gson (it holds escapes): let get walk it
            } else {
                return Span.MISSING;
            }
        }
        return Span.MISSING; // not reached: depth > 1
    }

    private boolean isRead(int slot) {
        return read != null && (read[slot >>> 6] & 1L << (slot & 63)) != 0;
    }

    /**
     * {@link #nestedSpan} without making views: walks the path's segments through the bytes of the slot's value,
     * reading every member of each object on the way (the last of duplicate keys wins). A key with an escape or a
     * non-ASCII byte on the way makes it UNSURE (the decoded walk decides), so it answers as the views do or not at
     * all. For a value not read yet: a few paths into a small container cost less walked than indexed.
     */
    private long walk(int slot, FieldPath path) {
        int at = slots[slot * JsonScanner.SLOT + 2];
        for (int seg = 1, depth = path.depth(); ; seg++) {
            long span;
            byte first = data[at];
            if (first == '{') {
                span = member(at, path.segmentUtf8(seg));
            } else if (first == '[') {
                span = element(at, path.index(seg), seg == depth - 1);
            } else {
                return Span.MISSING;
            }
            if (!Span.isFound(span) || seg == depth - 1) {
                return span;
            }
            at = Span.start(span);
        }
    }

    /** The span of the last member named {@code key} of the object at {@code at}; Span.MISSING; Span.UNSURE. */
    private long member(int at, byte[] key) {
        long found = Span.MISSING;
        int i = RawJson.skipSpace(data, at + 1);
        if (data[i] == '}') {
            return Span.MISSING;
        }
        while (true) {
            int keyStart = i + 1;
            int keyEnd = keyStart;
            boolean same = true;
            while (true) {
                byte b = data[keyEnd];
                if (b == '"') {
                    break;
                }
                if (b == '\\' || b < 0) {
                    return Span.UNSURE;
                }
                int k = keyEnd - keyStart;
                same &= k < key.length && key[k] == b;
                keyEnd++;
            }
            int valueStart = RawJson.skipSpace(data, RawJson.skipSpace(data, keyEnd + 1) + 1);
            int valueEnd = RawJson.skipValue(data, valueStart);
            if (same && keyEnd - keyStart == key.length) {
                found = Span.of(valueStart, valueEnd);
            }
            i = RawJson.skipSpace(data, valueEnd);
            if (data[i] == '}') {
                return found;
            }
            i = RawJson.skipSpace(data, i + 1);
        }
    }

    /**
     * The span of element {@code index} of the array at {@code at} (its start only unless {@code wantEnd}); Span.MISSING.
     */
    private long element(int at, int index, boolean wantEnd) {
        if (index < 0) {
            return Span.MISSING;
        }
        int i = RawJson.skipSpace(data, at + 1);
        if (data[i] == ']') {
            return Span.MISSING;
        }
        for (int n = 0; ; n++) {
            if (n == index && !wantEnd) {
                return Span.of(i, 0); // a step on the way: only where it starts is read
            }
            int end = RawJson.skipValue(data, i);
            if (n == index) {
                return Span.of(i, end);
            }
            i = RawJson.skipSpace(data, end);
            if (data[i] == ']') {
                return Span.MISSING;
            }
            i = RawJson.skipSpace(data, i + 1);
        }
    }

    /** The value of a top-level key (the last occurrence), or null. */
    private Object top(byte[] key, int hash, long keyWord) {
        int slot = shape.slotOf(hash);
        if (slot >= 0) {
            return sameKey(slot * JsonScanner.SLOT, key, keyWord, hash) ? value(slot) : null;
        }
        if (slot == KeyShape.ABSENT) {
            return null;
        }
        for (int i = count - 1; i >= 0; i--) {
            int s = i * JsonScanner.SLOT;
            if (slots[s] == hash && sameKey(s, key)) {
                return value(i);
            }
        }
        return null;
    }

    /**
     * Whether the key at slot offset {@code s} is {@code key}, whose {@link JsonScanner#hash} is {@code hash}: without
     * a look at the key's bytes when the slot holds that hash and it is {@linkplain JsonScanner#isExact exact};
     * else as {@link #sameKey(int, byte[])}, in one masked read when the key has a {@link FieldPath#keyWord} (not 0).
     */
    private boolean sameKey(int s, byte[] key, long keyWord, int hash) {
        if (JsonScanner.isExact(hash) && slots[s] == hash) {
            return true;
        }
        int start = slots[s + 1];
        if (keyWord != 0 && start + 8 <= data.length) {
            return (Swar.word(data, start) & FieldPath.keyMask(key.length)) == keyWord;
        }
        return sameKey(s, key);
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
            String text = RawJson.string(data, start, end);
            if (text != null) {
                return text;
            }
        } else if (first == '-' || first >= '0' && first <= '9') {
            return RawJson.number(data, start, end);
        } else if (first == 't') {
            return Boolean.TRUE;
        } else if (first == 'f') {
            return Boolean.FALSE;
        } else if (first == 'n') {
            return null;
        } else if (first == '{' || first == '[') {
            if (!RawJson.hasEscape(data, start, end)) {
                return RawJson.decode(data, start, end); // a view over the bytes: nothing is built until it is read
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
}

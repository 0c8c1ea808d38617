package dev.bullet.querying.aggregations;

import dev.bullet.record.CanonicalJson;
import dev.bullet.record.JsonCodec;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.Record;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * RAW / LIMIT: keeps matching (projected) records in arrival order, at most {@code capacity}.
 * The partial is the records as a JSON array. A whole record still in its raw bytes ({@link LazyRecord}, no
 * projection) is kept and written as those bytes: reading them back gives the same map as its full decode, so
 * results are unchanged, and a matching record is never decoded in full nor written field by field.
 */
public final class RawAggregator implements Aggregator {
    private final int capacity;
    /** The room the list takes at its first record: the records expected, up to {@link #MAX_INITIAL_ROOM}. */
    private final int initialRoom;
    /** Each a {@code Map<String, Object>}, a {@link LazyRecord}, or a record's JSON ({@code byte[]}, a projection). */
    private final ArrayList<Object> records = new ArrayList<>(0);
    /** {@link #heldBytes()}: what the kept rows take, added as each is kept. */
    private long bytes;
    /** How many of the rows were found canonical as they came ({@link #addRow}): all of them, and none is checked again. */
    private int canonicalRows;

    /** The most room taken up front (a query that matches rarely does not hold a large array for nothing). */
    static final int MAX_INITIAL_ROOM = 512;

    public RawAggregator(int capacity) {
        this(capacity, capacity);
    }

    /**
     * Keeps at most {@code capacity} records, {@code expected} of them likely (a query's size, where the caller caps
     * the records itself): the list takes that room at its first record, instead of growing to it step by step,
     * which a broad query restarted many times a second did each time it ran.
     */
    public RawAggregator(int capacity, int expected) {
        this.capacity = capacity;
        this.initialRoom = Math.max(1, Math.min(Math.min(capacity, expected), MAX_INITIAL_ROOM));
    }

    private void makeRoom() {
        if (records.isEmpty()) {
            records.ensureCapacity(initialRoom);
        }
    }

    @Override
    public void consume(Record record) {
        if (records.size() >= capacity) {
            return;
        }
        makeRoom();
        if (record instanceof LazyRecord) {
            records.add(record);
            bytes += HeapEstimate.ofJson(((LazyRecord) record).rawJson());
        } else {
            Map<String, Object> map = record.asMap();
            records.add(map);
            bytes += HeapEstimate.ofRow(map);
        }
    }

    /**
     * Adds one record already written as a JSON object (a projection written from a record's bytes) if there is
     * room; returns whether it was kept.
     */
    public boolean addJson(byte[] json) {
        if (records.size() >= capacity) {
            return false;
        }
        makeRoom();
        records.add(json);
        bytes += HeapEstimate.ofJson(json);
        return true;
    }

    /**
     * {@link #addJson} for a row a Join merges, checked as it comes for canonical form ({@link
     * CanonicalJson#isCanonicalRow}): its bytes are near then, and a record many queries keep is checked once for all
     * of them. A result of rows that all passed takes them without another look ({@link #canonicalJson}).
     */
    public boolean addRow(byte[] json) {
        if (!addJson(json)) {
            return false;
        }
        if (CanonicalJson.isCanonicalRow(json)) {
            canonicalRows++;
        }
        return true;
    }

    /** Adds one record if there is room; returns whether it was kept. */
    public boolean add(Map<String, Object> record) {
        if (records.size() >= capacity) {
            return false;
        }
        makeRoom();
        records.add(record);
        bytes += HeapEstimate.ofRow(record);
        return true;
    }

    /**
     * Keeps the partial's records as their JSON, cut from it (decoded only when the result is built): a Join holds
     * up to {@code size} records per RAW query for as long as the query runs, and a record as bytes takes a fraction
     * of the heap of its decoded map (1,000 realistic queries held ~340,000 decoded rows, ~0.25 GB).
     */
    @Override
    public void combine(byte[] partial) {
        if (records.size() < capacity) {
            for (byte[] row : JsonCodec.objects(partial, capacity - records.size())) {
                records.add(row);
                bytes += HeapEstimate.ofJson(row);
            }
        }
    }

    /**
     * The records as one JSON array when each is a JSON object in canonical form ({@link CanonicalJson}: what
     * parsing and writing it again would give), so a result can carry them as they are; null otherwise.
     */
    public byte[] canonicalJson() {
        if (canonicalRows == records.size()) {
            return serialize();
        }
        CanonicalJson check = new CanonicalJson();
        for (Object r : records) {
            if (!(r instanceof byte[]) || !check.isCanonicalObject((byte[]) r)) {
                return null;
            }
        }
        return serialize();
    }

    /** Decodes a RAW partial into its records. */
    public static List<Map<String, Object>> decode(byte[] partial) {
        return JsonCodec.parseRecords(new String(partial, StandardCharsets.UTF_8));
    }

    /**
     * The records as one JSON array, written once into an array of the exact size: a record's bytes are copied
     * once (a growing buffer copied a 2.5 KB record three to four times over).
     */
    @Override
    public byte[] serialize() {
        return JsonCodec.array(Arrays.asList(rowsJson()));
    }

    /**
     * Each record's JSON object, in arrival order: a whole record its own bytes, a projection the JSON written of it,
     * a map the JSON of the map. Nothing is copied: the arrays are the records' own, not to be modified.
     */
    public byte[][] rowsJson() {
        int n = records.size();
        byte[][] parts = new byte[n][];
        for (int i = 0; i < n; i++) {
            Object r = records.get(i);
            parts[i] = r instanceof LazyRecord ? ((LazyRecord) r).rawJson()
                    : r instanceof byte[] ? (byte[]) r : JsonCodec.toJson(r).getBytes(StandardCharsets.UTF_8);
        }
        return parts;
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<Map<String, Object>> records() {
        List<Map<String, Object>> copy = new ArrayList<>(records.size());
        for (Object r : records) {
            copy.add(r instanceof byte[] ? JsonCodec.parseMap(new String((byte[]) r, StandardCharsets.UTF_8))
                    : new LinkedHashMap<>(r instanceof LazyRecord ? ((LazyRecord) r).asMap() : (Map<String, Object>) r));
        }
        return copy;
    }

    @Override
    public Map<String, Object> sketchMetadata() {
        return Map.of();
    }

    @Override
    public void reset() {
        records.clear();
        bytes = 0;
        canonicalRows = 0;
    }

    @Override
    public long heldBytes() {
        return bytes;
    }

    /** What keeping one more row, as this JSON, would add to {@link #heldBytes()}. */
    public static long rowBytes(byte[] json) {
        return HeapEstimate.ofJson(json);
    }

    @Override
    public boolean isEmpty() {
        return records.isEmpty();
    }

    public int size() {
        return records.size();
    }

    public boolean isFull() {
        return records.size() >= capacity;
    }
}

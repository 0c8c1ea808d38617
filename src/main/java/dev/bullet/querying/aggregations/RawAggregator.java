package dev.bullet.querying.aggregations;

import dev.bullet.record.JsonCodec;
import dev.bullet.record.Record;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * RAW / LIMIT: keeps matching (projected) records in arrival order, at most {@code capacity}.
 * The partial is the records as a JSON array.
 */
public final class RawAggregator implements Aggregator {
    private final int capacity;
    private final List<Map<String, Object>> records = new ArrayList<>();

    public RawAggregator(int capacity) {
        this.capacity = capacity;
    }

    @Override
    public void consume(Record record) {
        add(record.asMap());
    }

    /** Adds one record if there is room; returns whether it was kept. */
    public boolean add(Map<String, Object> record) {
        if (records.size() >= capacity) {
            return false;
        }
        records.add(record);
        return true;
    }

    @Override
    public void combine(byte[] partial) {
        for (Map<String, Object> record : decode(partial)) {
            add(record);
        }
    }

    /** Decodes a RAW partial into its records. */
    public static List<Map<String, Object>> decode(byte[] partial) {
        return JsonCodec.parseRecords(new String(partial, StandardCharsets.UTF_8));
    }

    @Override
    public byte[] serialize() {
        return JsonCodec.toJson(records).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public List<Map<String, Object>> records() {
        List<Map<String, Object>> copy = new ArrayList<>(records.size());
        for (Map<String, Object> r : records) {
            copy.add(new LinkedHashMap<>(r));
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

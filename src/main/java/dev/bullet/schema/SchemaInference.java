package dev.bullet.schema;

import com.google.gson.JsonObject;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The schema inferred from samples of the stream: each sample (the records one sampling query returned) is summarised
 * into a {@link FieldStats} tree, and the schema is the merge of the latest {@code history} samples. So a field new to
 * the stream appears with the first sample that holds it, its presence is its share of the sampled records, a field
 * that changes type lists each observed type with its share, and a field absent from every kept sample is gone.
 * Thread-safe: samples come from the sampler's thread, snapshots are read by request threads.
 */
public final class SchemaInference {
    private final int history;
    private final Deque<FieldStats> samples = new ArrayDeque<>();
    private SchemaSnapshot snapshot = SchemaSnapshot.emptySample();

    /** @param history how many of the latest samples the schema is made of */
    public SchemaInference(int history) {
        if (history < 1) {
            throw new IllegalArgumentException("history must be at least 1, got " + history);
        }
        this.history = history;
    }

    /**
     * Adds one sample. An empty sample (no record arrived while the query ran) is not kept: it would only age the
     * others out while the stream is quiet.
     *
     * @param records the sample's records
     * @param now     the time, ms since the epoch
     */
    public void accept(List<JsonObject> records, long now) {
        if (records.isEmpty()) {
            return;
        }
        FieldStats sample = FieldStats.root();
        for (JsonObject record : records) {
            sample.addRecord(record);
        }
        synchronized (this) {
            samples.addLast(sample);
            while (samples.size() > history) {
                samples.removeFirst();
            }
            FieldStats merged = FieldStats.root();
            for (FieldStats s : samples) {
                merged.merge(s);
            }
            snapshot = new SchemaSnapshot(SchemaSnapshot.SAMPLE, merged.toFields(), merged.present, samples.size(), now,
                                          merged.anyTruncated());
        }
    }

    /** The current schema; empty (not {@link SchemaSnapshot#ready()}) until a record was sampled. */
    public synchronized SchemaSnapshot snapshot() {
        return snapshot;
    }
}

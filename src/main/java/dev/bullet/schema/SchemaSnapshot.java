package dev.bullet.schema;

import java.util.List;

/**
 * The schema of the firehose at one time: its top-level fields, and where it comes from.
 *
 * @param source         {@code file} (a schema file) or {@code sample} (inferred from samples of the stream)
 * @param fields         the top-level fields: a file's in its order, inferred ones by name
 * @param recordsSampled inferred only: how many records the current samples hold (0 from a file)
 * @param samples        inferred only: how many samples the schema is made of
 * @param updated        when the schema last changed, ms since the epoch (0 never)
 * @param truncated      inferred only: some fields or keys were left out (over the bounds on fields per level)
 */
public record SchemaSnapshot(String source, List<SchemaField> fields, long recordsSampled, int samples, long updated,
                             boolean truncated) {
    public static final String FILE = "file";
    public static final String SAMPLE = "sample";

    public SchemaSnapshot {
        fields = List.copyOf(fields);
    }

    /** An inferred schema that has seen no record yet. */
    static SchemaSnapshot emptySample() {
        return new SchemaSnapshot(SAMPLE, List.of(), 0, 0, 0, false);
    }

    /** Whether the schema knows the firehose: a file's, or one inferred from at least one record. */
    public boolean ready() {
        return FILE.equals(source) || recordsSampled > 0;
    }

    /** The top-level field of that name, or null. */
    public SchemaField field(String name) {
        for (SchemaField f : fields) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        return null;
    }
}

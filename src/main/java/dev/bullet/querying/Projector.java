package dev.bullet.querying;

import dev.bullet.query.NamedField;
import dev.bullet.record.MapRecord;
import dev.bullet.record.Record;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Projection (SPEC §6.3): keeps only the listed paths under their new names; paths that are missing or null are
 * left out. Without a projection the record passes through unchanged.
 */
public final class Projector {
    private final NamedField[] fields;

    public Projector(List<NamedField> projection) {
        this.fields = projection == null ? null : projection.toArray(new NamedField[0]);
    }

    public Record project(Record record) {
        if (fields == null) {
            return record;
        }
        Map<String, Object> out = new LinkedHashMap<>(fields.length * 2);
        for (NamedField f : fields) {
            Object value = record.get(f.path());
            if (value != null) {
                out.put(f.name(), value);
            }
        }
        return new MapRecord(out);
    }
}

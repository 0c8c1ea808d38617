package dev.bullet.record;

import java.util.Map;

/** A fully decoded record backed by a map (what gson's full decode produces). */
public final class MapRecord implements Record {
    private final Map<String, Object> fields;

    public MapRecord(Map<String, Object> fields) {
        this.fields = fields;
    }

    @Override
    public Object get(FieldPath path) {
        return path.resolve(fields);
    }

    @Override
    public Map<String, Object> asMap() {
        return fields;
    }

    @Override
    public String toString() {
        return fields.toString();
    }
}

package dev.bullet.schema;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One field of the firehose's schema: a top-level field, or a subfield of a map (a key) or of a list of maps (a key of
 * its maps).
 *
 * @param name         the field's name (a map key for a subfield)
 * @param type         {@code STRING}, {@code BOOLEAN}, {@code INTEGER}, {@code LONG}, {@code FLOAT}, {@code DOUBLE},
 *                     {@code MAP}, {@code LIST}, or {@code NULL} / {@code UNKNOWN} when nothing tells
 * @param subtype      for a {@code MAP} the type of its values, for a {@code LIST} of its elements (e.g. {@code STRING},
 *                     {@code MAP}, {@code LONG_MAP}); null otherwise or when unknown
 * @param description  what the field holds, from a schema file; null when inferred
 * @param presence     inferred only: the fraction of records (of the parent's maps, for a subfield) that hold the
 *                     field, 0..1; null from a schema file
 * @param types        inferred only: each observed type with the fraction of the field's occurrences that had it
 *                     (a field that changes type has several); empty from a schema file
 * @param fields       the subfields of a map (its keys) or of a list of maps (their keys); empty when none are known
 * @param enumerations the original Bullet's {@code enumerations} of a schema file field as given; empty otherwise
 */
public record SchemaField(String name, String type, String subtype, String description, Double presence,
                          Map<String, Double> types, List<SchemaField> fields, List<SchemaField> enumerations) {
    public SchemaField {
        types = Collections.unmodifiableMap(new LinkedHashMap<>(types));
        fields = List.copyOf(fields);
        enumerations = List.copyOf(enumerations);
    }

    /** Whether the field is (or may be, by its observed types) a map or a list. */
    public boolean mayBeContainer() {
        return isContainer(type) || types.keySet().stream().anyMatch(SchemaField::isContainer);
    }

    /** Whether the field is (or may be) a value other than a map or a list (a string, number or boolean). */
    public boolean mayBePrimitive() {
        if (types.isEmpty()) {
            return !isContainer(type);
        }
        return types.keySet().stream().anyMatch(t -> !isContainer(t) && !"NULL".equals(t));
    }

    /** Whether the field is (or may be) a map. */
    public boolean mayBeMap() {
        return "MAP".equals(type) || types.containsKey("MAP") || "UNKNOWN".equals(type);
    }

    static boolean isContainer(String type) {
        return "MAP".equals(type) || "LIST".equals(type) || "UNKNOWN".equals(type);
    }
}

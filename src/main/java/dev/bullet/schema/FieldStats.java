package dev.bullet.schema;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the records of a sample held under one name: how often the field was there, with which JSON types, and (for
 * maps and lists of maps) the same for each key. The root node stands for the records themselves. Not thread-safe:
 * {@link SchemaInference} builds one per sample and merges them under its lock.
 *
 * <p>Bounded: at most {@link #MAX_KEYS} keys per map level ({@link #MAX_TOP_LEVEL} at the top), {@link #MAX_DEPTH}
 * levels, and the first {@link #MAX_ELEMENTS} elements of each list; what is left out sets {@link #truncated}.
 */
final class FieldStats {
    /** The types a JSON value is seen as. */
    enum Kind { NULL, BOOLEAN, LONG, DOUBLE, STRING, MAP, LIST }

    static final int MAX_TOP_LEVEL = 2_000;
    static final int MAX_KEYS = 200;
    static final int MAX_DEPTH = 4;
    static final int MAX_ELEMENTS = 100;

    /** Times the field was there (the root: records). */
    long present;
    final EnumMap<Kind, Long> kinds = new EnumMap<>(Kind.class);
    /** Types of the elements of the field's lists. */
    final EnumMap<Kind, Long> elements = new EnumMap<>(Kind.class);
    /** Types of the values of the field's maps (and of its lists' maps). */
    final EnumMap<Kind, Long> values = new EnumMap<>(Kind.class);
    /** Maps seen here (a map value, or a map element of a list): what the children's presence is a fraction of. */
    long maps;
    final Map<String, FieldStats> children = new LinkedHashMap<>();
    boolean truncated;
    private final int depth;

    FieldStats(int depth) {
        this.depth = depth;
    }

    static FieldStats root() {
        return new FieldStats(0);
    }

    /** Counts one record (the root only). */
    void addRecord(JsonObject record) {
        present++;
        addMap(record);
    }

    private void addMap(JsonObject map) {
        maps++;
        int limit = depth == 0 ? MAX_TOP_LEVEL : MAX_KEYS;
        for (Map.Entry<String, JsonElement> e : map.entrySet()) {
            FieldStats child = children.get(e.getKey());
            if (child == null) {
                if (children.size() >= limit || depth >= MAX_DEPTH) {
                    truncated = true;
                    continue;
                }
                child = new FieldStats(depth + 1);
                children.put(e.getKey(), child);
            }
            child.addValue(e.getValue());
            values.merge(kindOf(e.getValue()), 1L, Long::sum);
        }
    }

    private void addValue(JsonElement value) {
        present++;
        Kind kind = kindOf(value);
        kinds.merge(kind, 1L, Long::sum);
        if (kind == Kind.MAP) {
            addMap(value.getAsJsonObject());
        } else if (kind == Kind.LIST) {
            JsonArray list = value.getAsJsonArray();
            int n = Math.min(list.size(), MAX_ELEMENTS);
            for (int i = 0; i < n; i++) {
                JsonElement element = list.get(i);
                Kind k = kindOf(element);
                elements.merge(k, 1L, Long::sum);
                if (k == Kind.MAP) {
                    addMap(element.getAsJsonObject());
                }
            }
        }
    }

    static Kind kindOf(JsonElement value) {
        if (value == null || value.isJsonNull()) {
            return Kind.NULL;
        }
        if (value.isJsonObject()) {
            return Kind.MAP;
        }
        if (value.isJsonArray()) {
            return Kind.LIST;
        }
        JsonPrimitive p = value.getAsJsonPrimitive();
        if (p.isBoolean()) {
            return Kind.BOOLEAN;
        }
        if (p.isNumber()) {
            String text = p.getAsString();
            return text.indexOf('.') >= 0 || text.indexOf('e') >= 0 || text.indexOf('E') >= 0 ? Kind.DOUBLE : Kind.LONG;
        }
        return Kind.STRING;
    }

    /** Adds what {@code other} saw to this (same place in the tree), within this node's bounds. */
    void merge(FieldStats other) {
        present += other.present;
        maps += other.maps;
        truncated |= other.truncated;
        other.kinds.forEach((k, n) -> kinds.merge(k, n, Long::sum));
        other.elements.forEach((k, n) -> elements.merge(k, n, Long::sum));
        other.values.forEach((k, n) -> values.merge(k, n, Long::sum));
        int limit = depth == 0 ? MAX_TOP_LEVEL : MAX_KEYS;
        for (Map.Entry<String, FieldStats> e : other.children.entrySet()) {
            FieldStats mine = children.get(e.getKey());
            if (mine == null) {
                if (children.size() >= limit) {
                    truncated = true;
                    continue;
                }
                mine = new FieldStats(depth + 1);
                children.put(e.getKey(), mine);
            }
            mine.merge(e.getValue());
        }
    }

    /** Whether this node or one below it left something out. */
    boolean anyTruncated() {
        if (truncated) {
            return true;
        }
        for (FieldStats child : children.values()) {
            if (child.anyTruncated()) {
                return true;
            }
        }
        return false;
    }

    /** The children as schema fields, by name; presence is a fraction of {@code maps}. */
    List<SchemaField> toFields() {
        List<SchemaField> out = new ArrayList<>();
        for (Map.Entry<String, FieldStats> e : new TreeMap<>(children).entrySet()) {
            out.add(e.getValue().toField(e.getKey(), maps));
        }
        return out;
    }

    private SchemaField toField(String name, long parentMaps) {
        Kind main = mostFrequent(kinds);
        Map<String, Double> types = new LinkedHashMap<>();
        long occurrences = kinds.values().stream().mapToLong(Long::longValue).sum();
        for (Map.Entry<Kind, Long> k : kinds.entrySet()) {
            types.put(k.getKey().name(), round((double) k.getValue() / Math.max(1, occurrences)));
        }
        String subtype = switch (main) {
            case MAP -> subtype(values);
            case LIST -> subtype(elements);
            default -> null;
        };
        return new SchemaField(name, main.name(), subtype, null, round((double) present / Math.max(1, parentMaps)),
                               types, toFields(), List.of());
    }

    /** The type of the values of a map / elements of a list when they agree (nulls aside), else UNKNOWN. */
    private static String subtype(EnumMap<Kind, Long> types) {
        EnumMap<Kind, Long> seen = new EnumMap<>(types);
        seen.remove(Kind.NULL);
        if (seen.isEmpty()) {
            return "UNKNOWN";
        }
        if (seen.size() == 1) {
            return seen.keySet().iterator().next().name();
        }
        if (seen.size() == 2 && seen.containsKey(Kind.LONG) && seen.containsKey(Kind.DOUBLE)) {
            return Kind.DOUBLE.name();
        }
        return "UNKNOWN";
    }

    /** The most frequent type other than NULL (the first in {@link Kind} order on a tie); NULL if only nulls. */
    private static Kind mostFrequent(EnumMap<Kind, Long> counts) {
        Kind best = Kind.NULL;
        long bestCount = 0;
        for (Map.Entry<Kind, Long> e : counts.entrySet()) {
            if (e.getKey() != Kind.NULL && e.getValue() > bestCount) {
                best = e.getKey();
                bestCount = e.getValue();
            }
        }
        return best;
    }

    private static double round(double fraction) {
        return Math.round(fraction * 10_000) / 10_000.0;
    }
}

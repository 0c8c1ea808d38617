package dev.bullet.schema;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import dev.bullet.BulletException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A schema file in the original Bullet's format: a JSON array of fields. Both of its forms are read:
 * <ul>
 *   <li>the web service's / UI's ({@code example_columns.json}): {@code {"name", "type", "subtype"?, "description"?,
 *       "enumerations"?: [{"name", "description"}]}} with {@code type} {@code MAP} or {@code LIST} and the element
 *       type in {@code subtype};</li>
 *   <li>bullet-record's {@code Schema} (1.2): the type spelled whole ({@code STRING_MAP}, {@code LONG_MAP_MAP},
 *       {@code INTEGER_MAP_LIST}, ...) with {@code subFields}, {@code subSubFields} and {@code subListFields}.</li>
 * </ul>
 * Both become {@link SchemaField}s with {@code type} {@code MAP}/{@code LIST} and the rest of the type in
 * {@code subtype}; enumerations, sub-fields and sub-list-fields become {@link SchemaField#fields()}, sub-sub-fields
 * the fields of each sub-field ({@code *} standing for any key when the sub-fields are not listed).
 */
public final class SchemaFile {
    private static final Set<String> PRIMITIVES = Set.of("STRING", "BOOLEAN", "INTEGER", "LONG", "FLOAT", "DOUBLE");
    private static final Set<String> OTHER_TYPES = Set.of("MAP", "LIST", "NULL", "UNKNOWN");
    private static final Set<String> MEMBERS = Set.of("name", "type", "subtype", "description", "enumerations",
                                                      "subFields", "subSubFields", "subListFields");

    private SchemaFile() {
    }

    /**
     * Reads the file named by {@code bullet.schema.file}: a classpath resource of that name, else a path.
     *
     * @throws BulletException naming the file and every problem in it
     */
    public static SchemaSnapshot load(String name, long now) {
        String text;
        try (InputStream in = SchemaFile.class.getResourceAsStream("/" + name)) {
            if (in != null) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } else {
                text = Files.readString(Path.of(name), StandardCharsets.UTF_8);
            }
        } catch (IOException | RuntimeException e) {
            throw new BulletException("Cannot read the schema file " + name + " (bullet.schema.file): " + e
                                      + "; give a readable path or a classpath resource, or leave the setting empty to "
                                      + "infer the schema from the stream", e);
        }
        List<String> problems = new ArrayList<>();
        SchemaSnapshot schema = parse(text, problems, now);
        if (!problems.isEmpty()) {
            throw new BulletException("The schema file " + name + " (bullet.schema.file) is not in the original "
                                      + "Bullet's schema format: " + String.join("; ", problems));
        }
        return schema;
    }

    /** Parses a schema file's text; what is wrong goes to {@code problems} (the fields that are right are kept). */
    public static SchemaSnapshot parse(String text, List<String> problems, long now) {
        JsonElement root;
        try {
            root = JsonParser.parseString(text);
        } catch (JsonParseException e) {
            problems.add("it is not JSON: " + e.getMessage());
            return new SchemaSnapshot(SchemaSnapshot.FILE, List.of(), 0, 0, now, false);
        }
        if (!root.isJsonArray()) {
            problems.add("it must be a JSON array of fields, like [{\"name\": \"id\", \"type\": \"STRING\"}]");
            return new SchemaSnapshot(SchemaSnapshot.FILE, List.of(), 0, 0, now, false);
        }
        List<SchemaField> fields = new ArrayList<>();
        JsonArray array = root.getAsJsonArray();
        for (int i = 0; i < array.size(); i++) {
            SchemaField field = field(array.get(i), "field " + i, problems);
            if (field != null) {
                fields.add(field);
            }
        }
        return new SchemaSnapshot(SchemaSnapshot.FILE, fields, 0, 0, now, false);
    }

    private static SchemaField field(JsonElement element, String where, List<String> problems) {
        if (!element.isJsonObject()) {
            problems.add(where + " is not an object");
            return null;
        }
        JsonObject o = element.getAsJsonObject();
        String name = string(o, "name");
        String type = string(o, "type");
        String label = name == null ? where : where + " (" + name + ")";
        for (String member : o.keySet()) {
            if (!MEMBERS.contains(member)) {
                problems.add(label + " has an unknown member \"" + member + "\" (the members are " + MEMBERS + ")");
            }
        }
        if (name == null || name.isEmpty()) {
            problems.add(where + " needs a non-empty string \"name\"");
            return null;
        }
        if (type == null) {
            problems.add(label + " needs a string \"type\"");
            return null;
        }
        String[] split = splitType(type.trim().toUpperCase(), string(o, "subtype"));
        if (split == null) {
            problems.add(label + " has an unknown type \"" + type + "\" (STRING, BOOLEAN, INTEGER, LONG, FLOAT, DOUBLE, "
                         + "MAP or LIST with a subtype, or bullet-record's STRING_MAP, LONG_MAP_LIST, ...)");
            return null;
        }
        List<SchemaField> enumerations = subFields(o, "enumerations", label, problems);
        List<SchemaField> subFields = subFields(o, "subFields", label, problems);
        List<SchemaField> subSubFields = subFields(o, "subSubFields", label, problems);
        List<SchemaField> subListFields = subFields(o, "subListFields", label, problems);
        // the type of a key: a map's values, or the values of a list's maps
        String keyType = split[1] == null ? "UNKNOWN" : split[0].equals("LIST") ? valueType(split[1]) : split[1];
        List<SchemaField> fields = new ArrayList<>(typed(enumerations, keyType));
        fields.addAll(typed(subListFields, keyType));
        if (!subSubFields.isEmpty() && subFields.isEmpty()) {
            subFields = List.of(plain("*", null));
        }
        for (SchemaField sub : subFields) {
            fields.add(subSubFields.isEmpty() ? typed(List.of(sub), keyType).get(0)
                    : new SchemaField(sub.name(), "MAP", valueType(keyType), sub.description(), null, Map.of(),
                                      typed(subSubFields, valueType(keyType)), List.of()));
        }
        return new SchemaField(name, split[0], split[1], string(o, "description"), null, Map.of(), fields, enumerations);
    }

    /** {type, subtype}: {@code LONG_MAP_LIST} is a LIST of LONG_MAP, {@code MAP} + subtype is itself; null if unknown. */
    private static String[] splitType(String type, String subtype) {
        if (PRIMITIVES.contains(type) || OTHER_TYPES.contains(type)) {
            boolean container = type.equals("MAP") || type.equals("LIST");
            return new String[] {type, container && subtype != null ? subtype.trim().toUpperCase() : null};
        }
        for (String container : new String[] {"MAP", "LIST"}) {
            String suffix = "_" + container;
            if (type.endsWith(suffix)) {
                String inner = type.substring(0, type.length() - suffix.length());
                String[] innerSplit = splitType(inner, null);
                return innerSplit == null ? null : new String[] {container, inner};
            }
        }
        return null;
    }

    /** The value type of a map type ({@code LONG_MAP}: LONG); UNKNOWN for anything else. */
    private static String valueType(String mapType) {
        return mapType.endsWith("_MAP") ? mapType.substring(0, mapType.length() - "_MAP".length()) : "UNKNOWN";
    }

    private static List<SchemaField> typed(List<SchemaField> fields, String type) {
        String[] split = splitType(type, null);
        List<SchemaField> out = new ArrayList<>();
        for (SchemaField f : fields) {
            out.add(new SchemaField(f.name(), split == null ? "UNKNOWN" : split[0], split == null ? null : split[1],
                                    f.description(), null, Map.of(), f.fields(), List.of()));
        }
        return out;
    }

    private static List<SchemaField> subFields(JsonObject o, String member, String where, List<String> problems) {
        JsonElement list = o.get(member);
        if (list == null || list.isJsonNull()) {
            return List.of();
        }
        if (!list.isJsonArray()) {
            problems.add(where + ": \"" + member + "\" must be an array of {\"name\", \"description\"}");
            return List.of();
        }
        List<SchemaField> out = new ArrayList<>();
        for (JsonElement e : list.getAsJsonArray()) {
            String name = e.isJsonObject() ? string(e.getAsJsonObject(), "name") : null;
            if (name == null || name.isEmpty()) {
                problems.add(where + ": each of \"" + member + "\" needs a non-empty string \"name\"");
                continue;
            }
            out.add(plain(name, string(e.getAsJsonObject(), "description")));
        }
        return out;
    }

    private static SchemaField plain(String name, String description) {
        return new SchemaField(name, "UNKNOWN", null, description == null || description.isEmpty() ? null : description,
                               null, Map.of(), List.of(), List.of());
    }

    private static String string(JsonObject o, String member) {
        JsonElement e = o.get(member);
        return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isString() ? e.getAsString() : null;
    }
}

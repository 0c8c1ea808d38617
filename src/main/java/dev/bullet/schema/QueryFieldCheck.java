package dev.bullet.schema;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.bullet.common.BulletError;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Warnings from the schema for a query, in its JSON form (a BQL query's translation): a field the schema has never
 * seen (a typo, or a field not in the stream), and a filter whose operation cannot match the field's type (e.g.
 * {@code ==} on a map, {@code CONTAINSKEY} on a string). They never refuse the query: the schema may be a sample, and
 * the stream may change. Only record fields are checked: the fields of the filters, the projection, computed columns
 * and table functions, and the aggregation's when there is no projection (after one, they name projected columns);
 * names given by a table function are not fields. The outer query reads the query's rows, not records: not checked.
 * Stateless.
 */
public final class QueryFieldCheck {
    /** At most this many warnings for one query: a query of a wholly wrong stream need not list every field. */
    static final int MAX_WARNINGS = 10;
    private static final Set<String> NEED_CONTAINER = Set.of("CONTAINSKEY", "CONTAINSVALUE");
    private static final Set<String> NEED_PRIMITIVE = Set.of("==", "!=", ">", "<", ">=", "<=", "RLIKE");

    private QueryFieldCheck() {
    }

    /** The warnings for the query; none while the schema is not ready (nothing sampled yet). */
    public static List<BulletError> warnings(JsonElement query, SchemaSnapshot schema) {
        if (schema == null || !schema.ready() || query == null || !query.isJsonObject()) {
            return List.of();
        }
        JsonObject q = query.getAsJsonObject();
        Set<String> aliases = new HashSet<>();
        Map<String, String> fields = new LinkedHashMap<>(); // field path -> where it is used
        List<BulletError> out = new ArrayList<>();
        for (String member : new String[] {"lateralView", "tableFunction"}) {
            for (JsonElement fn : elements(q.get(member))) {
                if (fn.isJsonObject()) {
                    aliases.add(string(fn.getAsJsonObject(), "keyAlias"));
                    aliases.add(string(fn.getAsJsonObject(), "valueAlias"));
                    expressionFields(fn.getAsJsonObject().get("explode"), fields, member);
                }
            }
        }
        for (JsonElement clause : elements(q.get("filters"))) {
            clause(clause, fields, aliases, schema, out);
        }
        JsonObject projection = object(q.get("projection"));
        if (projection != null) {
            keys(projection.get("fields"), fields, "projection");
            JsonObject computed = object(projection.get("computed"));
            if (computed != null) {
                computed.entrySet().forEach(e -> expressionFields(e.getValue(), fields, "computed column " + e.getKey()));
            }
        } else {
            JsonObject aggregation = object(q.get("aggregation"));
            if (aggregation != null) {
                keys(aggregation.get("fields"), fields, "aggregation");
                JsonObject attributes = object(aggregation.get("attributes"));
                for (JsonElement op : elements(attributes == null ? null : attributes.get("operations"))) {
                    String field = op.isJsonObject() ? string(op.getAsJsonObject(), "field") : null;
                    if (field != null) {
                        fields.putIfAbsent(field, "aggregation");
                    }
                }
            }
        }
        List<BulletError> unknown = new ArrayList<>();
        Set<String> reported = new HashSet<>();
        for (Map.Entry<String, String> e : fields.entrySet()) {
            String top = top(e.getKey());
            if (!aliases.contains(top) && schema.field(top) == null && !top.isEmpty() && reported.add(top)) {
                unknown.add(unknownField(top, e.getValue(), schema));
            }
        }
        out.addAll(0, unknown);
        for (Map.Entry<String, String> e : fields.entrySet()) {
            listKey(e.getKey(), e.getValue(), aliases, schema, out);
        }
        return out.size() > MAX_WARNINGS ? List.copyOf(out.subList(0, MAX_WARNINGS)) : List.copyOf(out);
    }

    /**
     * A key of a list's maps named without an index ({@code lm_1.k0}, BQL's {@code lm_1.k0}): a list has no keys, so
     * the path reads nothing on every record.
     */
    private static void listKey(String path, String where, Set<String> aliases, SchemaSnapshot schema,
                                List<BulletError> out) {
        String top = top(path);
        SchemaField f = aliases.contains(top) ? null : schema.field(top);
        if (f == null || !"LIST".equals(f.type()) || path.length() == top.length()) {
            return;
        }
        String next = top(path.substring(top.length() + 1));
        if (next.isEmpty() || next.chars().allMatch(Character::isDigit)) {
            return;
        }
        String rest = path.substring(top.length() + 1);
        out.add(new BulletError("The field " + path + " (in the " + where + ") reads nothing: " + top + " is a "
                                + describe(f) + ", whose elements are found by their index, not by a key",
                                List.of("Name an element: " + top + ".0." + rest + " (in BQL " + top + "[0]." + rest
                                        + ")")));
    }

    private static BulletError unknownField(String field, String where, SchemaSnapshot schema) {
        String seen = SchemaSnapshot.FILE.equals(schema.source()) ? "is not in the schema file"
                : "was not seen in the " + schema.recordsSampled() + " records sampled from the stream";
        String near = nearest(field, schema);
        List<String> resolutions = new ArrayList<>();
        if (near != null) {
            resolutions.add("Did you mean " + near + "?");
        }
        resolutions.add("GET /api/bullet/schema lists the fields of the stream (the console's schema panel)");
        resolutions.add("The query runs anyway: records without the field are treated as missing it");
        return new BulletError("The field " + field + " (in the " + where + ") " + seen, resolutions);
    }

    /** A filter clause: its field, any FIELD values, and whether its operation can match the field's type. */
    private static void clause(JsonElement element, Map<String, String> fields, Set<String> aliases,
                               SchemaSnapshot schema, List<BulletError> out) {
        JsonObject clause = object(element);
        if (clause == null) {
            return;
        }
        if (clause.has("expression")) {
            expressionFields(clause.get("expression"), fields, "filters");
            return;
        }
        for (JsonElement sub : elements(clause.get("clauses"))) {
            clause(sub, fields, aliases, schema, out);
        }
        String field = string(clause, "field");
        if (field == null) {
            return;
        }
        fields.putIfAbsent(field, "filters");
        for (JsonElement v : elements(clause.get("values"))) {
            JsonObject value = object(v);
            if (value != null && "FIELD".equalsIgnoreCase(string(value, "kind")) && string(value, "value") != null) {
                fields.putIfAbsent(string(value, "value"), "filters");
            }
        }
        String op = string(clause, "operation");
        SchemaField f = schema.field(field);
        if (op == null || f == null || field.contains(".") || aliases.contains(field) || hasOnlyNulls(clause)) {
            return;
        }
        String operation = op.trim().toUpperCase(Locale.ROOT);
        if (NEED_PRIMITIVE.contains(operation) && !f.mayBePrimitive()) {
            out.add(new BulletError("The filter " + field + " " + op + " cannot match: " + field + " is a "
                                    + describe(f) + ", and a map or list only takes part in SIZEIS, CONTAINSKEY and "
                                    + "CONTAINSVALUE", List.of("Filter on one of its entries: " + field + ".<key>",
                                                               "Or use SIZEIS, CONTAINSKEY or CONTAINSVALUE")));
        } else if (NEED_CONTAINER.contains(operation) && !f.mayBeContainer()) {
            out.add(new BulletError("The filter " + field + " " + op + " cannot match: " + field + " is a "
                                    + describe(f) + ", not a map or list", List.of("Use == or RLIKE on a value")));
        }
    }

    private static boolean hasOnlyNulls(JsonObject clause) {
        List<JsonElement> values = elements(clause.get("values"));
        return !values.isEmpty() && values.stream().allMatch(v -> v.isJsonNull()
                || v.isJsonObject() && (v.getAsJsonObject().get("value") == null
                                        || v.getAsJsonObject().get("value").isJsonNull()));
    }

    private static String describe(SchemaField f) {
        return f.type() + (f.subtype() == null ? "" : " of " + f.subtype());
    }

    /** Every {@code {"field": "..."}} in an expression. */
    private static void expressionFields(JsonElement e, Map<String, String> fields, String where) {
        if (e == null) {
            return;
        }
        if (e.isJsonArray()) {
            e.getAsJsonArray().forEach(x -> expressionFields(x, fields, where));
        } else if (e.isJsonObject()) {
            JsonObject o = e.getAsJsonObject();
            String field = string(o, "field");
            if (field != null) {
                fields.putIfAbsent(field, where);
                JsonObject key = object(o.get("key"));
                String name = key == null ? string(o, "key") : string(key, "value");
                if (name != null) { // a map key or list index: field.key, as a path names it
                    fields.putIfAbsent(field + "." + name, where);
                }
            }
            for (Map.Entry<String, JsonElement> m : o.entrySet()) {
                if (!m.getKey().equals("field") && !m.getKey().equals("value")) {
                    expressionFields(m.getValue(), fields, where);
                }
            }
        }
    }

    private static void keys(JsonElement map, Map<String, String> fields, String where) {
        JsonObject o = object(map);
        if (o != null) {
            o.keySet().forEach(k -> fields.putIfAbsent(k, where));
        }
    }

    /** The top-level field of a path ({@code a.b.0}: {@code a}). */
    static String top(String path) {
        int dot = path.indexOf('.');
        return dot < 0 ? path : path.substring(0, dot);
    }

    /** The schema's field nearest to a name by edit distance (at most a third of its length), or null. */
    private static String nearest(String name, SchemaSnapshot schema) {
        String best = null;
        int bestDistance = Math.max(1, name.length() / 3) + 1;
        for (SchemaField f : schema.fields()) {
            int d = distance(name.toLowerCase(Locale.ROOT), f.name().toLowerCase(Locale.ROOT), bestDistance);
            if (d < bestDistance) {
                best = f.name();
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein distance, or {@code bound} when it is at least that. */
    static int distance(String a, String b, int bound) {
        if (Math.abs(a.length() - b.length()) >= bound || a.length() > 200 || b.length() > 200) {
            return bound;
        }
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return Math.min(prev[b.length()], bound);
    }

    private static List<JsonElement> elements(JsonElement e) {
        if (e == null || e.isJsonNull()) {
            return List.of();
        }
        if (e.isJsonArray()) {
            List<JsonElement> out = new ArrayList<>();
            e.getAsJsonArray().forEach(out::add);
            return out;
        }
        return List.of(e);
    }

    private static JsonObject object(JsonElement e) {
        return e != null && e.isJsonObject() ? e.getAsJsonObject() : null;
    }

    private static String string(JsonObject o, String member) {
        JsonElement e = o.get(member);
        return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isString() ? e.getAsString() : null;
    }
}

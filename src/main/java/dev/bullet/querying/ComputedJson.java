package dev.bullet.querying;

import dev.bullet.query.NamedField;
import dev.bullet.record.JsonCodec;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A projected RAW row's computed columns written as JSON after its projection's JSON, as the row's map would be
 * written: the projection's members, then each computed column that has a value, in order, each value as
 * {@link JsonCodec} writes it. Only for names that are all distinct, computed or projected (where a computed column
 * takes a projected field's name, the map keeps the field's place: that row goes through the map). Stateless.
 */
final class ComputedJson {
    /** Each computed column's {@code "name":} as JSON bytes. */
    private final byte[][] members;

    private ComputedJson(List<String> names) {
        this.members = new byte[names.size()][];
        for (int i = 0; i < members.length; i++) {
            members[i] = (JsonCodec.toJson(names.get(i)) + ":").getBytes(StandardCharsets.UTF_8);
        }
    }

    /** The writer of these computed columns after this projection; null when a name repeats. */
    static ComputedJson of(List<NamedField> projection, List<String> computedNames) {
        Set<String> names = new HashSet<>();
        for (NamedField field : projection) {
            if (!names.add(field.name())) {
                return null;
            }
        }
        for (String name : computedNames) {
            if (!names.add(name)) {
                return null;
            }
        }
        return new ComputedJson(computedNames);
    }

    /**
     * A value as {@link JsonCodec} writes it: a long, an int or a boolean as its text, a string of printable ASCII
     * without a quote or backslash between quotes (gson escapes nothing else: HTML escaping is off), anything else
     * through gson.
     */
    static byte[] json(Object value) {
        if (value instanceof Long || value instanceof Integer || value instanceof Boolean) {
            return value.toString().getBytes(StandardCharsets.ISO_8859_1);
        }
        if (value instanceof String text) {
            int n = text.length();
            byte[] out = new byte[n + 2];
            out[0] = '"';
            for (int i = 0; i < n; i++) {
                char c = text.charAt(i);
                if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') {
                    return JsonCodec.toJson(value).getBytes(StandardCharsets.UTF_8);
                }
                out[i + 1] = (byte) c;
            }
            out[n + 1] = '"';
            return out;
        }
        return JsonCodec.toJson(value).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The object {@code projected} (compact JSON, as {@code Projector.json} writes it; not modified) with the
     * computed columns' {@code values} after its members, a null value left out; {@code projected} itself when every
     * value is null.
     */
    byte[] append(byte[] projected, Object[] values) {
        byte[][] texts = new byte[values.length][];
        int length = projected.length;
        boolean comma = projected.length > 2; // "{}" has no member to follow
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                texts[i] = json(values[i]);
                length += 1 + members[i].length + texts[i].length;
            }
        }
        if (length == projected.length) {
            return projected;
        }
        if (!comma) {
            length--; // no comma before the first column
        }
        byte[] out = new byte[length];
        int at = projected.length - 1; // over the closing brace
        System.arraycopy(projected, 0, out, 0, at);
        for (int i = 0; i < values.length; i++) {
            if (texts[i] == null) {
                continue;
            }
            if (comma) {
                out[at++] = ',';
            }
            comma = true;
            System.arraycopy(members[i], 0, out, at, members[i].length);
            at += members[i].length;
            System.arraycopy(texts[i], 0, out, at, texts[i].length);
            at += texts[i].length;
        }
        out[at] = '}';
        return out;
    }
}

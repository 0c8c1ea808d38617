package dev.bullet.record;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the JSON the engine writes for itself ({@link JsonCodec#toJson}: partials, rows, keys, state): RFC 8259
 * JSON, plus the bare {@code NaN}, {@code Infinity} and {@code -Infinity} that writer uses for a non-finite number,
 * read back as that number. A string is a string, whatever its text: {@code "NaN"} stays the string (gson's lenient
 * reader gives a bare token and a quoted one alike as a string, so it cannot tell them apart).
 *
 * <p>Values read as {@link RecordDecoder} reads a record's: objects as {@code LinkedHashMap} (a key given twice keeps
 * its first position and its last value), numbers by {@link RecordDecoder#toNumber}. The input is trusted: anything
 * else is a bug here, and throws {@link IllegalArgumentException}. Nesting is bounded by what the engine writes
 * (records are validated to a depth of 200). Stateless.
 */
final class EngineJson {
    private final String s;
    private int i;

    private EngineJson(String s) {
        this.s = s;
    }

    static Object parse(String json) {
        EngineJson p = new EngineJson(json);
        Object value = p.value();
        p.space();
        if (p.i != json.length()) {
            throw p.error("text after the value");
        }
        return value;
    }

    private Object value() {
        space();
        if (i >= s.length()) {
            throw error("a value");
        }
        char c = s.charAt(i);
        switch (c) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                return keyword("true", Boolean.TRUE);
            case 'f':
                return keyword("false", Boolean.FALSE);
            case 'n':
                return keyword("null", null);
            case 'N':
                return keyword("NaN", Double.NaN);
            case 'I':
                return keyword("Infinity", Double.POSITIVE_INFINITY);
            default:
                if (c == '-' && s.startsWith("-Infinity", i)) {
                    return keyword("-Infinity", Double.NEGATIVE_INFINITY);
                }
                return number();
        }
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        i++;
        space();
        if (peek() == '}') {
            i++;
            return map;
        }
        while (true) {
            space();
            if (peek() != '"') {
                throw error("a key");
            }
            String key = string();
            space();
            expect(':');
            map.put(key, value());
            space();
            char c = next();
            if (c == '}') {
                return map;
            }
            if (c != ',') {
                throw error("',' or '}'");
            }
        }
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        i++;
        space();
        if (peek() == ']') {
            i++;
            return list;
        }
        while (true) {
            list.add(value());
            space();
            char c = next();
            if (c == ']') {
                return list;
            }
            if (c != ',') {
                throw error("',' or ']'");
            }
        }
    }

    private String string() {
        i++; // the opening quote
        int start = i;
        while (i < s.length()) { // the usual string: no escape, one copy
            char c = s.charAt(i);
            if (c == '"') {
                return s.substring(start, i++);
            }
            if (c == '\\') {
                break;
            }
            i++;
        }
        StringBuilder out = new StringBuilder().append(s, start, i);
        while (true) {
            char c = next();
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (i + 4 > s.length()) {
                        throw error("four hex digits");
                    }
                    try {
                        out.append((char) Integer.parseInt(s, i, i + 4, 16));
                    } catch (NumberFormatException bad) {
                        throw error("four hex digits");
                    }
                    i += 4;
                }
                default -> throw error("an escape");
            }
        }
    }

    private Object number() {
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        if (i == start) {
            throw error("a value");
        }
        try {
            return RecordDecoder.toNumber(s.substring(start, i));
        } catch (NumberFormatException e) {
            throw error("a number");
        }
    }

    private Object keyword(String word, Object value) {
        if (!s.startsWith(word, i)) {
            throw error(word);
        }
        i += word.length();
        return value;
    }

    private void space() {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return;
            }
            i++;
        }
    }

    private char peek() {
        if (i >= s.length()) {
            throw error("more");
        }
        return s.charAt(i);
    }

    private char next() {
        char c = peek();
        i++;
        return c;
    }

    private void expect(char c) {
        if (next() != c) {
            throw error("'" + c + "'");
        }
    }

    private IllegalArgumentException error(String expected) {
        return new IllegalArgumentException("not the engine's JSON: expected " + expected + " at " + i + " of "
                                            + (s.length() > 200 ? s.substring(0, 200) + "..." : s));
    }
}

package dev.bullet.record;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import dev.bullet.common.JsonDepth;
import dev.bullet.common.Limits;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.MalformedJsonException;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes one raw message into a {@link Record} with gson's streaming reader (SPEC §5): integers become
 * {@code Long}, other numbers {@code Double} (integers that do not fit a long become {@code Double}).
 *
 * <p>Bad input is a value, not an exception: {@link #decode} returns {@code null} for anything that is not one
 * JSON object, and the caller counts it. Stateless and thread-safe.
 */
public final class RecordDecoder {
    private final int maxBytes;
    private final int maxDepth;

    /** A decoder with the default bounds ({@code bullet.record.max.bytes}, {@code bullet.record.max.depth}). */
    public RecordDecoder() {
        this(Limits.defaults());
    }

    public RecordDecoder(Limits limits) {
        this.maxBytes = limits.recordBytes();
        this.maxDepth = limits.recordDepth();
    }

    /**
     * Decodes UTF-8 bytes; {@code null} when the message is not exactly one JSON object or is over a bound (larger
     * than the byte limit, nested deeper than the depth limit: checked by an iterative scan before any recursive
     * parse). Lazily when the scanner is sure of the message (fields are decoded when read), else through gson,
     * which decides.
     */
    public Record decode(byte[] message) {
        if (message.length > maxBytes) {
            return null;
        }
        Record lazy = JsonScanner.scan(message, maxDepth);
        if (lazy != null) {
            return lazy;
        }
        if (JsonDepth.exceeds(message, maxDepth)) {
            return null;
        }
        return decodeEagerly(new String(message, StandardCharsets.UTF_8));
    }

    /** Why {@link #decode} rejected a message: the bound it crossed, or that it is not one JSON object. */
    public String rejection(byte[] message) {
        if (message.length > maxBytes) {
            return "larger than " + maxBytes + " bytes (" + message.length + "; bullet.record.max.bytes)";
        }
        if (JsonDepth.exceeds(message, maxDepth)) {
            return "nested deeper than " + maxDepth + " levels (bullet.record.max.depth)";
        }
        return "not a JSON object";
    }

    /** Decodes a JSON text; {@code null} when it is not exactly one JSON object. */
    public Record decode(String json) {
        return decode(json.getBytes(StandardCharsets.UTF_8));
    }

    /** The reference decode (SPEC §5): everything, with gson. */
    public static Record decodeEagerly(String json) {
        Map<String, Object> map = decodeMap(json);
        return map == null ? null : new MapRecord(map);
    }

    /** Decodes a JSON object into a map; {@code null} when the text is not exactly one JSON object. */
    public static Map<String, Object> decodeMap(String json) {
        try (JsonReader reader = new JsonReader(new StringReader(json))) {
            reader.setStrictness(Strictness.STRICT);
            if (reader.peek() != JsonToken.BEGIN_OBJECT) {
                return null;
            }
            Map<String, Object> map = readObject(reader);
            return reader.peek() == JsonToken.END_DOCUMENT ? map : null;
        } catch (MalformedJsonException | IllegalStateException | NumberFormatException e) {
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    static Map<String, Object> readObject(JsonReader reader) throws IOException {
        Map<String, Object> map = new LinkedHashMap<>();
        reader.beginObject();
        while (reader.hasNext()) {
            String name = reader.nextName();
            map.put(name, readValue(reader));
        }
        reader.endObject();
        return map;
    }

    static Object readValue(JsonReader reader) throws IOException {
        switch (reader.peek()) {
            case BEGIN_OBJECT:
                return readObject(reader);
            case BEGIN_ARRAY:
                List<Object> list = new ArrayList<>();
                reader.beginArray();
                while (reader.hasNext()) {
                    list.add(readValue(reader));
                }
                reader.endArray();
                return list;
            case STRING:
                return reader.nextString();
            case NUMBER:
                return toNumber(reader.nextString());
            case BOOLEAN:
                return reader.nextBoolean();
            case NULL:
                reader.nextNull();
                return null;
            default:
                throw new IllegalStateException("Unexpected token " + reader.peek());
        }
    }

    /** A JSON number literal as {@code Long} when it is an integer that fits, else {@code Double}. */
    public static Object toNumber(String literal) {
        boolean integral = !literal.isEmpty(); // digits after an optional sign: what Long.parseLong reads
        for (int i = 0; i < literal.length() && integral; i++) {
            char c = literal.charAt(i);
            integral = c >= '0' && c <= '9' || i == 0 && (c == '-' || c == '+') && literal.length() > 1;
        }
        // 19 digits, plus the sign of a negative number (Long.MIN_VALUE has 20 characters)
        if (integral && literal.length() <= (literal.startsWith("-") ? 20 : 19)) {
            try {
                return Long.parseLong(literal);
            } catch (NumberFormatException e) {
                // too large for a long: falls through to double
            }
        }
        return Double.parseDouble(literal);
    }
}

package dev.bullet.record;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The one JSON codec for results and partials: nulls are written, HTML is not escaped, numbers read back as
 * {@code Long} when integral (as records are decoded, SPEC §5).
 *
 * <p>Two writers differ in a double or float that is NaN or infinite (a record's {@code 1e400} reads as Infinity;
 * {@code 0.0 / 0} is NaN). Inside the engine ({@link #toJson}: partials, rows, keys, state) it is written as the bare
 * {@code NaN}, {@code Infinity} or {@code -Infinity} that {@link #parse} reads back as the same number, so the Join
 * and an outer query compare and compute with the number itself. What leaves the engine ({@link #toResultJson}:
 * results and every REST answer) must parse as RFC 8259 JSON, which has no such numbers: there it is written as its
 * text ({@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}). Thread-safe.
 */
public final class JsonCodec {
    private static final Gson GSON = new GsonBuilder().serializeNulls().disableHtmlEscaping()
                                                      .serializeSpecialFloatingPointValues().create();
    private static final Gson RESULT_GSON = new GsonBuilder().serializeNulls().disableHtmlEscaping()
                                                             .registerTypeAdapterFactory(new NonFiniteAsText())
                                                             .create();

    /** Writes a non-finite double or float as its text, any other as gson does. */
    private static final class NonFiniteAsText implements TypeAdapterFactory {
        @Override
        public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> type) {
            Class<?> raw = type.getRawType();
            if (raw != Double.class && raw != double.class && raw != Float.class && raw != float.class) {
                return null;
            }
            TypeAdapter<T> numbers = gson.getDelegateAdapter(this, type);
            return new TypeAdapter<T>() {
                @Override
                public void write(JsonWriter out, T value) throws IOException {
                    if (value != null && !Double.isFinite(((Number) value).doubleValue())) {
                        out.value(value.toString());
                    } else {
                        numbers.write(out, value);
                    }
                }

                @Override
                public T read(JsonReader in) throws IOException {
                    return numbers.read(in);
                }
            };
        }
    }

    private JsonCodec() {
    }

    /** The writer of what leaves the engine ({@link #toResultJson}'s). */
    public static Gson gson() {
        return RESULT_GSON;
    }

    /** JSON inside the engine: a non-finite number written bare, read back by {@link #parse} as that number. */
    public static String toJson(Object value) {
        return GSON.toJson(value);
    }

    /** JSON that leaves the engine (results, REST answers): RFC 8259, a non-finite number written as its text. */
    public static String toResultJson(Object value) {
        return RESULT_GSON.toJson(value);
    }

    /**
     * A JSON object's bytes with one more member at its end: {@code member} is the name and colon as JSON
     * ({@code "key":}), followed by {@code value}. When the object has that name already, the copy holds it twice; a
     * reader that keeps the first position and the last value (as {@link #parse} does) reads what putting the value
     * in the decoded map gives. Whitespace around the object is dropped.
     *
     * @throws IllegalArgumentException when {@code object} is not one JSON object
     */
    public static byte[] withMember(byte[] object, byte[] member, long value) {
        int start = 0;
        int close = object.length - 1;
        while (start < close && RawJson.isSpace(object[start])) {
            start++;
        }
        while (close > start && RawJson.isSpace(object[close])) {
            close--;
        }
        if (start >= close || object[start] != '{' || object[close] != '}') {
            throw new IllegalArgumentException("not a JSON object");
        }
        int first = start + 1;
        while (first < close && RawJson.isSpace(object[first])) {
            first++;
        }
        boolean empty = first == close;
        byte[] number = Long.toString(value).getBytes(StandardCharsets.US_ASCII);
        int head = close - start;
        byte[] out = new byte[head + (empty ? 0 : 1) + member.length + number.length + 1];
        System.arraycopy(object, start, out, 0, head);
        int at = head;
        if (!empty) {
            out[at++] = ',';
        }
        System.arraycopy(member, 0, out, at, member.length);
        at += member.length;
        System.arraycopy(number, 0, out, at, number.length);
        out[at + number.length] = '}';
        return out;
    }

    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> parseRecords(String json) {
        return (List<Map<String, Object>>) (List<?>) parseList(json);
    }

    @SuppressWarnings("unchecked")
    public static List<Object> parseList(String json) {
        return (List<Object>) parse(json);
    }

    /**
     * The JSON array of these JSON values, written into an array of the exact size: each value's bytes are copied
     * once. The reverse of {@link #objects} for objects.
     */
    public static byte[] array(List<byte[]> values) {
        int n = values.size();
        int size = n == 0 ? 2 : n + 1; // the brackets and the commas between values
        for (byte[] value : values) {
            size += value.length;
        }
        byte[] out = new byte[size];
        out[0] = '[';
        int at = 1;
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out[at++] = ',';
            }
            byte[] value = values.get(i);
            System.arraycopy(value, 0, out, at, value.length);
            at += value.length;
        }
        out[at] = ']';
        return out;
    }

    /**
     * The JSON of each element of a trusted JSON array of objects (our own RAW partials), as bytes cut from it, at
     * most {@code max}: each parses ({@link #parseMap}) to the element {@link #parseRecords} reads there.
     */
    public static List<byte[]> objects(byte[] array, int max) {
        List<byte[]> out = new ArrayList<>();
        int i = RawJson.skipSpace(array, 0);
        if (array[i] != '[') {
            throw new IllegalArgumentException("not a JSON array of objects");
        }
        i = RawJson.skipSpace(array, i + 1);
        while (array[i] != ']' && out.size() < max) {
            if (array[i] != '{') {
                throw new IllegalArgumentException("not a JSON array of objects");
            }
            int end = RawJson.skipValue(array, i); // brackets counted outside strings: any token inside is skipped
            out.add(Arrays.copyOfRange(array, i, end));
            i = RawJson.skipSpace(array, end);
            if (array[i] == ',') {
                i = RawJson.skipSpace(array, i + 1);
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseMap(String json) {
        return (Map<String, Object>) parse(json);
    }

    /**
     * Parses trusted JSON (our own partials and results, {@link EngineJson}); malformed input is a bug here, so it
     * throws. The bare non-finite numbers {@link #toJson} writes come back as those numbers, strings as strings.
     */
    public static Object parse(String json) {
        return EngineJson.parse(json);
    }
}

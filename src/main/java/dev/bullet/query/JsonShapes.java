package dev.bullet.query;

import com.google.gson.JsonElement;
import com.google.gson.JsonPrimitive;

/** Questions about the shape of a query's JSON values, and how to name a wrong one in an error message. */
final class JsonShapes {
    private JsonShapes() {
    }

    static boolean absent(JsonElement e) {
        return e == null || e.isJsonNull();
    }

    static boolean isString(JsonElement e) {
        return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isString();
    }

    static boolean isNumber(JsonElement e) {
        return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber();
    }

    /** What a value is, for "must be X, got Y" messages. */
    static String describe(JsonElement e) {
        if (e == null || e.isJsonNull()) {
            return "null";
        }
        if (e.isJsonArray()) {
            return "a list";
        }
        if (e.isJsonObject()) {
            return "an object";
        }
        JsonPrimitive p = e.getAsJsonPrimitive();
        return p.isString() ? "the string " + e : p.isNumber() ? "the number " + e : "the boolean " + e;
    }
}

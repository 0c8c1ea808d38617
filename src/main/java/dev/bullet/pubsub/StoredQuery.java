package dev.bullet.pubsub;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import java.nio.charset.StandardCharsets;

/**
 * A running query as the query store keeps it ({@link QueryStore}): the query as the REST service sent it, the start
 * time the query spout stamped on it (every window and the duration count from it), and the response partition its
 * results go to (the REST instance that owns the query reads it).
 *
 * <p>On the store's topic the key is the query id (UTF-8) and the value this JSON object, version {@value #VERSION}:
 * {@code {"v": 1, "query": "<the query as sent>", "start_time": <ms>, "reply_partition": <n>}}. A null value (a
 * tombstone) says the query ended.
 */
public record StoredQuery(String id, String query, long startTime, int replyPartition) {
    /** The version of the value's JSON form. */
    public static final int VERSION = 1;

    public StoredQuery {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("a stored query needs an id");
        }
        if (query == null) {
            throw new IllegalArgumentException("stored query " + id + " has no query text");
        }
    }

    /** The value written to the store's topic. */
    public byte[] toValue() {
        JsonObject o = new JsonObject();
        o.addProperty("v", VERSION);
        o.addProperty("query", query);
        o.addProperty("start_time", startTime);
        o.addProperty("reply_partition", replyPartition);
        return o.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The entry in a value of the store's topic.
     *
     * @throws IllegalArgumentException if it is not the JSON form above (another version, a missing field)
     */
    public static StoredQuery fromValue(String id, byte[] value) {
        try {
            JsonElement parsed = JsonParser.parseString(new String(value, StandardCharsets.UTF_8));
            if (!parsed.isJsonObject()) {
                throw new IllegalArgumentException("stored query " + id + " is not a JSON object");
            }
            JsonObject o = parsed.getAsJsonObject();
            int version = number(o, "v", id).getAsInt();
            if (version != VERSION) {
                throw new IllegalArgumentException("stored query " + id + " has version " + version + ", not " + VERSION);
            }
            JsonElement query = o.get("query");
            if (query == null || !query.isJsonPrimitive() || !query.getAsJsonPrimitive().isString()) {
                throw new IllegalArgumentException("stored query " + id + " has no query text");
            }
            return new StoredQuery(id, query.getAsString(), number(o, "start_time", id).getAsLong(),
                                   number(o, "reply_partition", id).getAsInt());
        } catch (JsonParseException | NumberFormatException | IllegalStateException e) {
            throw new IllegalArgumentException("stored query " + id + " is not JSON of version " + VERSION + ": "
                                                + e.getMessage());
        }
    }

    private static JsonPrimitive number(JsonObject o, String name, String id) {
        JsonElement e = o.get(name);
        if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
            throw new IllegalArgumentException("stored query " + id + " has no number '" + name + "'");
        }
        return e.getAsJsonPrimitive();
    }
}

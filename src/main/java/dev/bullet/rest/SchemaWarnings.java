package dev.bullet.rest;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import dev.bullet.common.BulletError;
import dev.bullet.record.JsonCodec;

import java.util.List;

/**
 * A query's listener that adds the schema's warnings about the query ({@code dev.bullet.schema.QueryFieldCheck}) to
 * {@code meta.warnings} of each of its results, beside the warnings the topology puts there. Only queries with such
 * warnings get one, so other results pass untouched.
 */
final class SchemaWarnings implements QueryListener {
    private final QueryListener listener;
    private final JsonArray warnings;

    private SchemaWarnings(QueryListener listener, List<BulletError> warnings) {
        this.listener = listener;
        this.warnings = JsonCodec.gson().toJsonTree(warnings).getAsJsonArray();
    }

    /** The listener, with the warnings added to its results when there are any. */
    static QueryListener wrap(QueryListener listener, List<BulletError> warnings) {
        return warnings.isEmpty() ? listener : new SchemaWarnings(listener, warnings);
    }

    @Override
    public void onResult(String resultJson) {
        listener.onResult(withWarnings(resultJson));
    }

    @Override
    public void onEnd(Ending ending, String resultJson) {
        listener.onEnd(ending, ending == Ending.COMPLETED ? withWarnings(resultJson) : resultJson);
    }

    private String withWarnings(String resultJson) {
        JsonElement root;
        try {
            root = JsonParser.parseString(resultJson);
        } catch (JsonParseException e) {
            return resultJson;
        }
        if (!root.isJsonObject()) {
            return resultJson;
        }
        JsonObject result = root.getAsJsonObject();
        JsonElement meta = result.get("meta");
        if (meta == null || !meta.isJsonObject()) {
            meta = new JsonObject();
            result.add("meta", meta);
        }
        JsonElement existing = meta.getAsJsonObject().get("warnings");
        JsonArray all = existing != null && existing.isJsonArray() ? existing.getAsJsonArray() : new JsonArray();
        all.addAll(warnings);
        meta.getAsJsonObject().add("warnings", all);
        return JsonCodec.gson().toJson(result);
    }
}

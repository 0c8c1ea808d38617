package dev.bullet.schema;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.bullet.common.BulletError;
import dev.bullet.common.Clock;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import dev.bullet.schema.SchemaSampler.InternalQueries;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The schema of the firehose as the REST service holds it: a schema file's ({@code bullet.schema.file}), or else the
 * one inferred from samples of the stream ({@link SchemaSampler} + {@link SchemaInference}), or none when sampling is
 * off. It answers {@code GET /api/bullet/schema} ({@link #toJson()}) and gives queries their schema warnings
 * ({@link #warnings}). Thread-safe.
 */
public final class FirehoseSchema implements AutoCloseable {
    private final Supplier<SchemaSnapshot> snapshots;
    private final SchemaSampler sampler;

    private FirehoseSchema(Supplier<SchemaSnapshot> snapshots, SchemaSampler sampler) {
        this.snapshots = snapshots;
        this.sampler = sampler;
    }

    /**
     * The schema of these settings: the schema file when one is set, else (with {@code bullet.schema.sample.enable})
     * a sampler started on {@code queries}.
     *
     * @throws dev.bullet.BulletException if the schema file cannot be read or is not in Bullet's format
     */
    public static FirehoseSchema start(BulletSettings settings, InternalQueries queries, Clock clock) {
        String file = settings.getString(SettingsTable.SCHEMA_FILE);
        if (!file.isBlank()) {
            SchemaSnapshot fixed = SchemaFile.load(file.trim(), clock.now());
            return new FirehoseSchema(() -> fixed, null);
        }
        SchemaInference inference = new SchemaInference(settings.getInt(SettingsTable.SCHEMA_SAMPLE_HISTORY));
        if (!settings.getBoolean(SettingsTable.SCHEMA_SAMPLE_ENABLE)) {
            return new FirehoseSchema(inference::snapshot, null);
        }
        SchemaSampler sampler = new SchemaSampler(inference, queries, clock,
                                                  settings.getInt(SettingsTable.SCHEMA_SAMPLE_SIZE),
                                                  settings.getLong(SettingsTable.SCHEMA_SAMPLE_DURATION_MS),
                                                  settings.getLong(SettingsTable.SCHEMA_SAMPLE_INTERVAL_MS));
        return new FirehoseSchema(inference::snapshot, sampler.start());
    }

    /** A schema that never changes (tests, and services without settings). */
    public static FirehoseSchema of(SchemaSnapshot snapshot) {
        return new FirehoseSchema(() -> snapshot, null);
    }

    /** No schema: nothing sampled, no warnings. */
    public static FirehoseSchema none() {
        return of(SchemaSnapshot.emptySample());
    }

    public SchemaSnapshot snapshot() {
        return snapshots.get();
    }

    /** The schema warnings of a query in its JSON form (see {@link QueryFieldCheck}). */
    public List<BulletError> warnings(JsonElement queryJson) {
        return QueryFieldCheck.warnings(queryJson, snapshot());
    }

    /**
     * The body of {@code GET /api/bullet/schema}: {@code {"source": "file"|"sample", "ready", "records_sampled",
     * "samples", "updated", "truncated", "fields": [...]}}, each field {@code {"name", "type", "subtype"?,
     * "description"?, "presence"?, "types"?, "fields"?, "enumerations"?}}.
     */
    public String toJson() {
        SchemaSnapshot s = snapshot();
        JsonObject out = new JsonObject();
        out.addProperty("source", s.source());
        out.addProperty("ready", s.ready());
        if (SchemaSnapshot.SAMPLE.equals(s.source())) {
            out.addProperty("records_sampled", s.recordsSampled());
            out.addProperty("samples", s.samples());
            out.addProperty("truncated", s.truncated());
        }
        out.addProperty("updated", s.updated());
        out.add("fields", fields(s.fields()));
        return out.toString();
    }

    private static JsonArray fields(List<SchemaField> fields) {
        JsonArray out = new JsonArray();
        for (SchemaField f : fields) {
            JsonObject o = new JsonObject();
            o.addProperty("name", f.name());
            o.addProperty("type", f.type());
            if (f.subtype() != null) {
                o.addProperty("subtype", f.subtype());
            }
            if (f.description() != null) {
                o.addProperty("description", f.description());
            }
            if (f.presence() != null) {
                o.addProperty("presence", f.presence());
            }
            if (!f.types().isEmpty()) {
                JsonObject types = new JsonObject();
                for (Map.Entry<String, Double> t : f.types().entrySet()) {
                    types.addProperty(t.getKey(), t.getValue());
                }
                o.add("types", types);
            }
            if (!f.fields().isEmpty()) {
                o.add("fields", fields(f.fields()));
            }
            if (!f.enumerations().isEmpty()) {
                JsonArray enumerations = new JsonArray();
                for (SchemaField e : f.enumerations()) {
                    JsonObject en = new JsonObject();
                    en.addProperty("name", e.name());
                    if (e.description() != null) {
                        en.addProperty("description", e.description());
                    }
                    enumerations.add(en);
                }
                o.add("enumerations", enumerations);
            }
            out.add(o);
        }
        return out;
    }

    @Override
    public void close() {
        if (sampler != null) {
            sampler.close();
        }
    }
}

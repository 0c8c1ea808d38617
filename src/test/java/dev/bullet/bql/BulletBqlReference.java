package dev.bullet.bql;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.ToNumberPolicy;
import com.google.gson.reflect.TypeToken;
import com.yahoo.bullet.bql.BQLResult;
import com.yahoo.bullet.bql.BulletQueryBuilder;
import com.yahoo.bullet.common.BulletConfig;
import com.yahoo.bullet.pubsub.Metadata;
import com.yahoo.bullet.querying.Querier;
import com.yahoo.bullet.querying.RunningQuery;
import com.yahoo.bullet.record.BulletRecord;
import com.yahoo.bullet.record.BulletRecordProvider;
import com.yahoo.bullet.typesystem.TypedObject;

import java.io.Serializable;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;

/**
 * The original: a BQL string compiled by bullet-bql 1.3.2 and run by bullet-core 1.5.2 over JSON records, the way
 * a 1.x Filter and Join would see them all in one task ({@link Querier.Mode#ALL}): a window that closes as records
 * arrive (a record window) is emitted and the next one started, and the answer is the last window's, the final result.
 * bullet-core reads its settings from the {@code bullet_defaults.yaml} first on the class path, which here is this
 * project's (bullet-core's defaults with this deployment's values, e.g. a RAW query of up to 500 records), so both
 * sides run with the same settings. Records are decoded with gson, integers as {@code Long} and other numbers as
 * {@code Double} (as this project decodes them, SPEC §5), every non-null top-level value {@code typedSet} into a record.
 */
final class BulletBqlReference {
    /** The answer: the final result's records, or the errors bullet-bql reported. */
    record Answer(List<Map<String, Object>> records, List<String> errors) {
    }

    private static final Gson GSON = new GsonBuilder().setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE).create();
    private static final Type MAP = new TypeToken<Map<String, Object>>() { }.getType();
    private static final Type RESULT = new TypeToken<Map<String, Object>>() { }.getType();

    private final BulletConfig config = new BulletConfig();
    private final BulletQueryBuilder builder = new BulletQueryBuilder(config);
    private final BulletRecordProvider provider = config.getBulletRecordProvider();

    @SuppressWarnings("unchecked")
    Answer run(String bql, List<String> lines) {
        BQLResult built = builder.buildQuery(bql);
        if (built.hasErrors()) {
            return new Answer(null, built.getErrors().stream().map(e -> e.getError()).toList());
        }
        Querier querier = new Querier(Querier.Mode.ALL, new RunningQuery("q", built.getQuery(), new Metadata()), config);
        for (String line : lines) {
            if (querier.isDone()) {
                break;
            }
            querier.consume(decode(line));
            if (querier.isClosed() && !querier.isDone()) {
                // a window closed (a record window filled): a 1.x Join emits it and starts the next one
                querier.getResult();
                querier.reset();
            }
        }
        Map<String, Object> result = GSON.fromJson(querier.getResult().asJSON(), RESULT);
        return new Answer((List<Map<String, Object>>) result.get("records"), List.of());
    }

    private BulletRecord<?> decode(String line) {
        Map<String, Object> map = GSON.fromJson(line, MAP);
        BulletRecord<?> record = provider.getInstance();
        for (Map.Entry<String, Object> entry : map.entrySet()) {
            if (entry.getValue() != null) {
                record.typedSet(entry.getKey(), new TypedObject((Serializable) entry.getValue()));
            }
        }
        return record;
    }
}

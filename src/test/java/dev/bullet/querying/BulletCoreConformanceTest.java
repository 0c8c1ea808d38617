package dev.bullet.querying;

import com.google.gson.Gson;
import com.google.gson.reflect.TypeToken;
import com.yahoo.bullet.query.expressions.BinaryExpression;
import com.yahoo.bullet.query.expressions.Expression;
import com.yahoo.bullet.query.expressions.FieldExpression;
import com.yahoo.bullet.query.expressions.Operation;
import com.yahoo.bullet.query.expressions.ValueExpression;
import com.yahoo.bullet.record.BulletRecord;
import com.yahoo.bullet.record.avro.TypedAvroBulletRecordProvider;
import com.yahoo.bullet.typesystem.TypedObject;
import dev.bullet.record.MapRecord;
import dev.bullet.testing.Queries;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Differential check of RLIKE, CONTAINSKEY and CONTAINSVALUE against the original engine (bullet-core 1.5.2, a
 * test-scope dependency): the same clause over the same records must match the same records (SPEC §6.2).
 * Records hold strings only, so the original's typing (gson reads numbers as doubles) plays no part.
 */
class BulletCoreConformanceTest {
    private static final Gson GSON = new Gson();
    private static final Type MAP_TYPE = new TypeToken<Map<String, Object>>() { }.getType();
    private static final TypedAvroBulletRecordProvider PROVIDER = new TypedAvroBulletRecordProvider();

    private static final List<String> RECORDS = List.of(
        "{\"s\": \"root\"}",
        "{\"s\": \"admin.root\"}",
        "{\"s\": \"rooted\"}",
        "{\"s\": \"\"}",
        "{\"s\": \"Root\"}",
        "{\"s\": \"a\\nroot\"}",
        "{\"s\": \"root\\r\"}",
        "{\"s\": \"a\\u2028root\"}",
        "{\"s\": \"\\u0085root\"}",
        "{\"s\": \"ro\\u000bot\"}",
        "{\"s\": \"ro ot\\u00a0\"}",
        "{\"s\": \"ROOT\\u00c9\"}",
        "{\"mm\": {\"y\": {\"p\": \"w\"}}}",
        "{\"mm\": {\"p\": {\"q\": \"u\"}}}",
        "{\"mm\": {\"a\": {\"b\": \"p\"}, \"c\": {\"d\": \"w\"}}}",
        "{\"mm\": {\"p\": \"w\", \"q\": \"u\"}}",
        "{\"mm\": {}}",
        "{\"mm\": [{\"p\": \"w\"}, {\"q\": \"u\"}]}",
        "{\"mm\": [\"p\", \"w\"]}",
        "{\"other\": \"p\"}");

    private static final List<String> PATTERNS = List.of("root", ".*root.*", "roo", "root|admin.*", "^root$", "",
                                                         "(?i)root", "r.*d", ".*", "a.root", "ro\\sot", "\\S+", ".+", "(?i)ROOT.",
                                                         "ro\\vot", "[^x]+", "ro\\s?ot\\h", "(?i)root\u00e9",
                                                         "(?s).*root.*", "\\p{Alpha}+\\P{Alpha}");
    private static final List<String> KEYS_AND_VALUES = List.of("p", "q", "w", "u", "y", "a", "b", "d", "zz");

    @Test
    void rlikeContainsKeyAndContainsValueMatchTheOriginal() {
        List<String> disagreements = new ArrayList<>();
        int compared = 0;
        for (String json : RECORDS) {
            Map<String, Object> map = GSON.fromJson(json, MAP_TYPE);
            BulletRecord<?> theirs = theirRecord(map);
            MapRecord ours = new MapRecord(map);
            for (String pattern : PATTERNS) {
                compared += compare("s", "RLIKE", Operation.REGEX_LIKE, pattern, json, ours, theirs, disagreements);
            }
            for (String value : KEYS_AND_VALUES) {
                compared += compare("mm", "CONTAINSKEY", Operation.CONTAINS_KEY, value, json, ours, theirs, disagreements);
                compared += compare("mm", "CONTAINSVALUE", Operation.CONTAINS_VALUE, value, json, ours, theirs, disagreements);
            }
        }
        assertEquals(List.of(), disagreements);
        assertTrue(compared > 300, "compared " + compared + " cases");
    }

    private static int compare(String field, String op, Operation theirOp, String value, String json, MapRecord ours,
                               BulletRecord<?> theirs, List<String> disagreements) {
        String clause = "{\"field\": \"" + field + "\", \"operation\": \"" + op + "\", \"values\": [" + GSON.toJson(value) + "]}";
        boolean ourAnswer = Predicates.compile(Queries.parse("{\"filters\": [" + clause + "]}").filter()).test(ours);
        Expression expression = new BinaryExpression(new FieldExpression(field), new ValueExpression(value), theirOp);
        boolean theirAnswer = isTrue(expression, theirs);
        if (ourAnswer != theirAnswer) {
            disagreements.add(json + " " + clause + ": ours " + ourAnswer + ", bullet-core " + theirAnswer);
        }
        return 1;
    }

    /** The original's answer: only a boolean true matches; an error or null (missing field, wrong type) does not. */
    private static boolean isTrue(Expression expression, BulletRecord<?> record) {
        try {
            TypedObject result = expression.getEvaluator().evaluate(record);
            return result != null && Boolean.TRUE.equals(result.getValue());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The schemaless path of bullet-dsl: each non-null entry typedSet into a record. */
    private static BulletRecord<?> theirRecord(Map<String, Object> map) {
        BulletRecord<?> record = PROVIDER.getInstance();
        for (Map.Entry<String, Object> entry : map.entrySet()) {
            if (entry.getValue() != null) {
                record.typedSet(entry.getKey(), new TypedObject((Serializable) entry.getValue()));
            }
        }
        return record;
    }
}

package dev.bullet.querying.eval;

import dev.bullet.query.expr.ExprType;
import dev.bullet.record.FieldPath;
import dev.bullet.record.Record;

import java.util.List;
import java.util.Map;

import static dev.bullet.querying.eval.Evaluators.FAILED;

/**
 * Field reads (bullet-core's {@code FieldEvaluator} over its records' {@code typedGet}): a missing or null field is
 * null; a key on a field that is not a map of its type, an index on one that is not a list, and an index out of range
 * fail. A key computed by an expression that is null gives null; a number indexes a list, anything else must be a
 * string map key.
 */
final class FieldEvaluators {
    private FieldEvaluators() {
    }

    static Evaluator of(String field, Object key, Object subKey) {
        FieldPath path = FieldPath.of(field);
        if (key == null) {
            return new Plain(path);
        }
        return new Keyed(path, key, subKey);
    }

    /** A top-level field. */
    private static final class Plain implements Evaluator {
        private final FieldPath path;

        Plain(FieldPath path) {
            this.path = path;
        }

        @Override
        public Object evaluate(Record record) {
            return record.get(path);
        }
    }

    /** A field with a key and maybe a sub-key, each literal (String, Integer) or computed (Evaluator). */
    private static final class Keyed implements Evaluator {
        private final FieldPath path;
        private final Object key;
        private final Object subKey;

        Keyed(FieldPath path, Object key, Object subKey) {
            this.path = path;
            this.key = key;
            this.subKey = subKey;
        }

        @Override
        public Object evaluate(Record record) {
            Object k = key;
            if (k instanceof Evaluator e) {
                k = e.evaluate(record);
                if (k == null || k == FAILED) {
                    return k;
                }
            }
            Object s = subKey;
            if (s instanceof Evaluator e) {
                s = e.evaluate(record);
                if (s == null || s == FAILED) {
                    return s;
                }
            }
            if (s != null && !(s instanceof String)) {
                return FAILED;
            }
            if (k instanceof Number n) {
                return s == null ? index(record.get(path), n.intValue()) : indexThenKey(record.get(path), n.intValue(), (String) s);
            }
            if (!(k instanceof String name)) {
                return FAILED;
            }
            return s == null ? key(record.get(path), name) : keyThenKey(record.get(path), name, (String) s);
        }
    }

    private static Object key(Object value, String key) {
        if (value == null) {
            return null;
        }
        if (!ExprType.of(value).isMap()) {
            return FAILED;
        }
        return ((Map<?, ?>) value).get(key);
    }

    private static Object keyThenKey(Object value, String key, String subKey) {
        if (value == null) {
            return null;
        }
        if (!ExprType.of(value).isComplexMap()) {
            return FAILED;
        }
        Object inner = ((Map<?, ?>) value).get(key);
        return inner == null ? null : ((Map<?, ?>) inner).get(subKey);
    }

    private static Object index(Object value, int index) {
        if (value == null) {
            return null;
        }
        if (!ExprType.of(value).isList()) {
            return FAILED;
        }
        List<?> list = (List<?>) value;
        return index >= 0 && index < list.size() ? list.get(index) : FAILED;
    }

    private static Object indexThenKey(Object value, int index, String subKey) {
        if (value == null) {
            return null;
        }
        if (!ExprType.of(value).isComplexList()) {
            return FAILED;
        }
        List<?> list = (List<?>) value;
        if (index < 0 || index >= list.size()) {
            return FAILED;
        }
        Object inner = list.get(index);
        return inner == null ? null : ((Map<?, ?>) inner).get(subKey);
    }
}

package dev.bullet.querying;

import dev.bullet.common.Clock;
import dev.bullet.common.Limits;
import dev.bullet.query.Explode;
import dev.bullet.query.TableFunction;
import dev.bullet.querying.eval.Evaluator;
import dev.bullet.querying.eval.Evaluators;
import dev.bullet.record.FieldPath;
import dev.bullet.record.MapRecord;
import dev.bullet.record.Record;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A query's {@link TableFunction} compiled once: a record into the records it generates, as bullet-core 1.5.2's
 * ExplodeFunctor and LateralViewFunctor do. A list gives one record per element, holding the key alias when the
 * element is not null; a map one record per entry (key alias, and value alias when the value is not null); a
 * missing, failed, empty or other value none, or with OUTER one record without the aliases. In a lateral view each
 * generated record reads the aliases first and the record it came from for every other field; chained views apply
 * in turn. Holds no per-record state.
 */
final class TableFunctor {
    private final boolean lateral;
    private final Explode[] explodes;
    private final Evaluator[] fields;

    TableFunctor(TableFunction function, Clock clock, Limits limits) {
        this.lateral = function.lateral();
        this.explodes = function.explodes().toArray(Explode[]::new);
        this.fields = new Evaluator[explodes.length];
        for (int i = 0; i < explodes.length; i++) {
            fields[i] = Evaluators.compile(explodes[i].field(), clock, limits);
        }
    }

    /**
     * The records generated from one record, in bullet-core's order; null when the table function would generate more
     * than {@link #MAX_GENERATED} at some step (chained explodes multiply: a list of 2 exploded 24 times is 2^24
     * records), which the query cannot take: none are kept.
     */
    List<Record> apply(Record record) {
        List<Record> records = List.of(record);
        for (int i = 0; i < explodes.length; i++) {
            List<Record> next = new ArrayList<>();
            for (Record r : records) {
                List<Map<String, Object>> tops = explode(i, r, MAX_GENERATED - next.size());
                if (tops == null) {
                    return null;
                }
                for (Map<String, Object> top : tops) {
                    next.add(lateral ? new LateralRecord(r, top) : new MapRecord(top));
                }
            }
            records = next;
        }
        return records;
    }

    /** The most records a table function may generate from one record, at any of its steps. */
    static final int MAX_GENERATED = 10_000;

    /** The aliases' values explode {@code i} generates from the record; null when they would be more than {@code room}. */
    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> explode(int i, Record record, int room) {
        Explode explode = explodes[i];
        Object value = fields[i].evaluate(record);
        List<Map<String, Object>> generated = new ArrayList<>();
        if (explode.explodesMap() && value instanceof Map) {
            Map<String, Object> map = (Map<String, Object>) value;
            if (map.size() > room) {
                return null;
            }
            for (Map.Entry<String, Object> entry : map.entrySet()) {
                Map<String, Object> top = new LinkedHashMap<>();
                putIfNotNull(top, explode.keyAlias(), entry.getKey());
                putIfNotNull(top, explode.valueAlias(), entry.getValue());
                generated.add(top);
            }
        } else if (!explode.explodesMap() && value instanceof List) {
            List<Object> list = (List<Object>) value;
            if (list.size() > room) {
                return null;
            }
            for (Object element : list) {
                Map<String, Object> top = new LinkedHashMap<>();
                putIfNotNull(top, explode.keyAlias(), element);
                generated.add(top);
            }
        }
        if (generated.isEmpty() && explode.outer()) {
            if (room < 1) {
                return null;
            }
            generated.add(new LinkedHashMap<>());
        }
        return generated;
    }

    private static void putIfNotNull(Map<String, Object> top, String alias, Object value) {
        if (value != null) {
            top.put(alias, value);
        }
    }

    /** A lateral view's record: the aliases, over the record it was generated from (bullet-core's LateralViewBulletRecord). */
    static final class LateralRecord implements Record {
        private final Record base;
        private final Map<String, Object> top;

        LateralRecord(Record base, Map<String, Object> top) {
            this.base = base;
            this.top = top;
        }

        @Override
        public Object get(FieldPath path) {
            return top.containsKey(path.head()) ? path.resolve(top) : base.get(path);
        }

        @Override
        public Map<String, Object> asMap() {
            Map<String, Object> map = new LinkedHashMap<>(base.asMap());
            map.putAll(top);
            return map;
        }

        @Override
        public String toString() {
            return asMap().toString();
        }
    }
}

package dev.bullet.querying.eval;

import dev.bullet.record.Record;

/** A literal. */
final class Const implements Evaluator {
    private final Object value;

    Const(Object value) {
        this.value = value;
    }

    @Override
    public Object evaluate(Record record) {
        return value;
    }
}

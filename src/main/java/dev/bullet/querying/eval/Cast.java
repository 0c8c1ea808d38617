package dev.bullet.querying.eval;

import dev.bullet.query.expr.ExprType;
import dev.bullet.record.Record;

import static dev.bullet.querying.eval.Evaluators.FAILED;

/** CAST: bullet-core's forced cast ({@link Semantics#cast}); null stays null. */
final class Cast implements Evaluator {
    private final Evaluator value;
    private final ExprType type;

    Cast(Evaluator value, ExprType type) {
        this.value = value;
        this.type = type;
    }

    @Override
    public Object evaluate(Record record) {
        Object v = value.evaluate(record);
        return v == null || v == FAILED ? v : Semantics.cast(v, type);
    }
}

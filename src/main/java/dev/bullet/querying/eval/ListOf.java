package dev.bullet.querying.eval;

import dev.bullet.record.Record;

import java.util.ArrayList;
import java.util.List;

import static dev.bullet.querying.eval.Evaluators.FAILED;

/** A list expression: a new list of its members' values (nulls kept). */
final class ListOf implements Evaluator {
    private final Evaluator[] members;

    ListOf(Evaluator[] members) {
        this.members = members;
    }

    @Override
    public Object evaluate(Record record) {
        List<Object> out = new ArrayList<>(members.length);
        for (Evaluator member : members) {
            Object v = member.evaluate(record);
            if (v == FAILED) {
                return FAILED;
            }
            out.add(v);
        }
        return out;
    }
}

package dev.bullet.querying.eval;

import dev.bullet.query.expr.Op;
import dev.bullet.record.Record;

import java.util.Locale;
import java.util.Objects;

import static dev.bullet.querying.eval.Evaluators.FAILED;

/**
 * The unary operations (bullet-core's {@code UnaryOperations}). All but IS NULL, IS NOT NULL and HASH give null for a
 * null operand.
 */
final class UnaryEvaluators {
    private UnaryEvaluators() {
    }

    static Evaluator of(Op op, Evaluator operand) {
        return switch (op) {
            case IS_NULL -> new IsNull(operand, false);
            case IS_NOT_NULL -> new IsNull(operand, true);
            case HASH -> new Hash(operand);
            default -> new NullChecked(op, operand);
        };
    }

    /** IS NULL and IS NOT NULL. */
    private static final class IsNull implements Evaluator {
        private final Evaluator operand;
        private final boolean negated;

        IsNull(Evaluator operand, boolean negated) {
            this.operand = operand;
            this.negated = negated;
        }

        @Override
        public Object evaluate(Record record) {
            Object v = operand.evaluate(record);
            return v == FAILED ? FAILED : (Object) ((v == null) != negated);
        }
    }

    /** HASH: Java's {@code Objects.hashCode} of the value (0 for null), as an Integer. */
    private static final class Hash implements Evaluator {
        private final Evaluator operand;

        Hash(Evaluator operand) {
            this.operand = operand;
        }

        @Override
        public Object evaluate(Record record) {
            Object v = operand.evaluate(record);
            return v == FAILED ? FAILED : (Object) Objects.hashCode(v);
        }
    }

    /** NOT, SIZEOF, TRIM, ABS, LOWER, UPPER. */
    private static final class NullChecked implements Evaluator {
        private final Op op;
        private final Evaluator operand;

        NullChecked(Op op, Evaluator operand) {
            this.op = op;
            this.operand = operand;
        }

        @Override
        public Object evaluate(Record record) {
            Object v = operand.evaluate(record);
            if (v == null || v == FAILED) {
                return v;
            }
            switch (op) {
                case NOT: {
                    Object b = Semantics.toBoolean(v);
                    return b == FAILED ? FAILED : (Object) !(Boolean) b;
                }
                case SIZE_OF:
                    return Semantics.size(v);
                case ABS:
                    return abs(v);
                default:
                    break;
            }
            if (!(v instanceof String s)) {
                return FAILED;
            }
            return switch (op) {
                case TRIM -> s.trim();
                case LOWER -> s.toLowerCase(Locale.ROOT);
                default -> s.toUpperCase(Locale.ROOT);
            };
        }

        private static Object abs(Object v) {
            if (v instanceof Double d) {
                return Math.abs(d);
            }
            if (v instanceof Float f) {
                return Math.abs(f);
            }
            if (v instanceof Long l) {
                return Math.abs(l);
            }
            return v instanceof Integer i ? (Object) Math.abs(i) : FAILED;
        }
    }
}

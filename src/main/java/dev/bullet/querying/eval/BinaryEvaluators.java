package dev.bullet.querying.eval;

import dev.bullet.query.expr.ExprType;
import dev.bullet.query.expr.Op;
import dev.bullet.record.Record;

import java.util.ArrayList;
import java.util.List;

import static dev.bullet.querying.eval.Evaluators.FAILED;
import static dev.bullet.querying.eval.Semantics.INCOMPARABLE;

/**
 * The binary operations (bullet-core's {@code BinaryOperations}). All but AND and OR give null when either side is null
 * (the left is evaluated first; a null left leaves the right unevaluated).
 */
final class BinaryEvaluators {
    private BinaryEvaluators() {
    }

    static Evaluator of(Op op, Evaluator left, Evaluator right, Object literalRight) {
        if (op.isArithmetic()) {
            return new Arithmetic(op, left, right);
        }
        if (op.isComparison()) {
            return new Comparison(op, left, right);
        }
        if (op.isQuantified()) {
            return new Quantified(op, left, right);
        }
        return switch (op) {
            case REGEX_LIKE, NOT_REGEX_LIKE -> new RegexLike(left, right, op == Op.NOT_REGEX_LIKE, literalRight);
            case REGEX_LIKE_ANY, NOT_REGEX_LIKE_ANY -> new RegexLikeAny(left, right, op == Op.NOT_REGEX_LIKE_ANY);
            case AND -> new And(left, right);
            case OR -> new Or(left, right);
            default -> new Other(op, left, right);
        };
    }

    /** Both sides non-null and not failed, or null (a side is null) or FAILED. The left is evaluated first. */
    private abstract static class NullChecked implements Evaluator {
        final Evaluator left;
        final Evaluator right;

        NullChecked(Evaluator left, Evaluator right) {
            this.left = left;
            this.right = right;
        }

        @Override
        public final Object evaluate(Record record) {
            Object l = left.evaluate(record);
            if (l == null || l == FAILED) {
                return l;
            }
            Object r = right.evaluate(record);
            if (r == null || r == FAILED) {
                return r;
            }
            return apply(l, r);
        }

        abstract Object apply(Object l, Object r);
    }

    /** + - * / %: DOUBLE if either side is, else FLOAT, else LONG, else INTEGER; both sides must be numbers. */
    private static final class Arithmetic extends NullChecked {
        private final Op op;

        Arithmetic(Op op, Evaluator left, Evaluator right) {
            super(left, right);
            this.op = op;
        }

        @Override
        Object apply(Object l, Object r) {
            if (!(l instanceof Number a) || !(r instanceof Number b)) {
                return FAILED;
            }
            if (l instanceof Double || r instanceof Double) {
                return doubles(a.doubleValue(), b.doubleValue());
            }
            if (l instanceof Float || r instanceof Float) {
                return floats(a.floatValue(), b.floatValue());
            }
            if (l instanceof Long || r instanceof Long) {
                return longs(a.longValue(), b.longValue());
            }
            return ints(a.intValue(), b.intValue());
        }

        private Object doubles(double a, double b) {
            return switch (op) {
                case ADD -> a + b;
                case SUB -> a - b;
                case MUL -> a * b;
                case DIV -> a / b;
                default -> a % b;
            };
        }

        private Object floats(float a, float b) {
            return switch (op) {
                case ADD -> a + b;
                case SUB -> a - b;
                case MUL -> a * b;
                case DIV -> a / b;
                default -> a % b;
            };
        }

        private Object longs(long a, long b) {
            if (b == 0 && (op == Op.DIV || op == Op.MOD)) {
                return FAILED;
            }
            return switch (op) {
                case ADD -> a + b;
                case SUB -> a - b;
                case MUL -> a * b;
                case DIV -> a / b;
                default -> a % b;
            };
        }

        private Object ints(int a, int b) {
            if (b == 0 && (op == Op.DIV || op == Op.MOD)) {
                return FAILED;
            }
            return switch (op) {
                case ADD -> a + b;
                case SUB -> a - b;
                case MUL -> a * b;
                case DIV -> a / b;
                default -> a % b;
            };
        }
    }

    static boolean test(Op op, int c) {
        return switch (op) {
            case EQUALS, EQUALS_ANY, EQUALS_ALL -> c == 0;
            case NOT_EQUALS, NOT_EQUALS_ANY, NOT_EQUALS_ALL -> c != 0;
            case GREATER_THAN, GREATER_THAN_ANY, GREATER_THAN_ALL -> c > 0;
            case LESS_THAN, LESS_THAN_ANY, LESS_THAN_ALL -> c < 0;
            case GREATER_THAN_OR_EQUALS, GREATER_THAN_OR_EQUALS_ANY, GREATER_THAN_OR_EQUALS_ALL -> c >= 0;
            default -> c <= 0;
        };
    }

    /** = != > < >= <=: equal primitive types or two numbers (compared as doubles when their types differ). */
    private static final class Comparison extends NullChecked {
        private final Op op;

        Comparison(Op op, Evaluator left, Evaluator right) {
            super(left, right);
            this.op = op;
        }

        @Override
        Object apply(Object l, Object r) {
            int c = Semantics.compare(l, r);
            return c == INCOMPARABLE ? FAILED : test(op, c);
        }
    }

    /** A comparison with ANY or ALL of a list: null members make a FALSE (ANY) or TRUE (ALL) answer null. */
    private static final class Quantified extends NullChecked {
        private final Op op;
        private final boolean any;

        Quantified(Op op, Evaluator left, Evaluator right) {
            super(left, right);
            this.op = op;
            this.any = op.name().endsWith("_ANY");
        }

        @Override
        Object apply(Object l, Object r) {
            if (!(r instanceof List<?> list)) {
                return FAILED;
            }
            boolean containsNull = false;
            boolean typed = false;
            for (int i = 0, n = list.size(); i < n; i++) {
                Object member = list.get(i);
                if (member == null) {
                    containsNull = true;
                    continue;
                }
                if (!typed && ExprType.of(list) == ExprType.UNKNOWN) {
                    return FAILED;
                }
                typed = true;
                int c = Semantics.compare(l, member);
                if (c == INCOMPARABLE) {
                    return FAILED;
                }
                if (test(op, c) == any) {
                    return any;
                }
            }
            return containsNull ? null : !any;
        }
    }

    /** AND: FALSE when either side is FALSE, else null when either is null; the right is skipped after a FALSE left. */
    private static final class And implements Evaluator {
        private final Evaluator left;
        private final Evaluator right;

        And(Evaluator left, Evaluator right) {
            this.left = left;
            this.right = right;
        }

        @Override
        public Object evaluate(Record record) {
            return junction(left, right, record, false);
        }
    }

    /** OR: TRUE when either side is TRUE, else null when either is null; the right is skipped after a TRUE left. */
    private static final class Or implements Evaluator {
        private final Evaluator left;
        private final Evaluator right;

        Or(Evaluator left, Evaluator right) {
            this.left = left;
            this.right = right;
        }

        @Override
        public Object evaluate(Record record) {
            return junction(left, right, record, true);
        }
    }

    /** AND ({@code decisive} FALSE) or OR ({@code decisive} TRUE) of two sides, each forced to BOOLEAN. */
    private static Object junction(Evaluator left, Evaluator right, Record record, boolean decisive) {
        Object l = left.evaluate(record);
        if (l == FAILED) {
            return FAILED;
        }
        if (l != null) {
            l = Semantics.toBoolean(l);
            if (l == FAILED || (Boolean) l == decisive) {
                return l;
            }
        }
        Object r = right.evaluate(record);
        if (r == null || r == FAILED) {
            return r;
        }
        r = Semantics.toBoolean(r);
        if (r == FAILED || (Boolean) r == decisive) {
            return r;
        }
        return l == null ? null : !decisive;
    }

    /** RLIKE and NOT RLIKE: the whole string must match (Java's {@code matches()}). */
    private static final class RegexLike extends NullChecked {
        private final boolean negated;
        private final Patterns patterns;

        RegexLike(Evaluator left, Evaluator right, boolean negated, Object literal) {
            super(left, right);
            this.negated = negated;
            this.patterns = new Patterns(literal instanceof String s ? s : null);
        }

        @Override
        Object apply(Object l, Object r) {
            if (!(r instanceof String regex) || !(l instanceof String s)) {
                return FAILED;
            }
            Object matched = patterns.matches(regex, s);
            return matched == FAILED ? FAILED : (Boolean) matched != negated;
        }
    }

    /** RLIKE ANY and NOT RLIKE ANY over a list of patterns; null members make a FALSE answer null. */
    private static final class RegexLikeAny extends NullChecked {
        private final boolean negated;
        private final Patterns patterns = new Patterns(null);

        RegexLikeAny(Evaluator left, Evaluator right, boolean negated) {
            super(left, right);
            this.negated = negated;
        }

        @Override
        Object apply(Object l, Object r) {
            if (!(l instanceof String s) || !(r instanceof List<?> list)) {
                return FAILED;
            }
            boolean containsNull = false;
            for (int i = 0, n = list.size(); i < n; i++) {
                Object member = list.get(i);
                if (member == null) {
                    containsNull = true;
                    continue;
                }
                if (!(member instanceof String regex)) {
                    return FAILED;
                }
                Object matched = patterns.matches(regex, s);
                if (matched != Boolean.FALSE) {
                    return matched == FAILED ? FAILED : !negated;
                }
            }
            return containsNull ? null : negated;
        }
    }

    /** SIZEIS, CONTAINSKEY, CONTAINSVALUE, IN, NOT IN, XOR, FILTER. */
    private static final class Other extends NullChecked {
        private final Op op;

        Other(Op op, Evaluator left, Evaluator right) {
            super(left, right);
            this.op = op;
        }

        @Override
        Object apply(Object l, Object r) {
            switch (op) {
                case SIZE_IS: {
                    Object size = Semantics.size(l);
                    return size == FAILED || !(r instanceof Integer i) ? FAILED : (Object) (((Integer) size).intValue() == i);
                }
                case CONTAINS_KEY:
                    return r instanceof String key ? Semantics.containsKey(l, key) : FAILED;
                case CONTAINS_VALUE:
                    return Semantics.containsValue(l, r);
                case IN:
                    return Semantics.containsValue(r, l);
                case NOT_IN: {
                    Object in = Semantics.containsValue(r, l);
                    return in instanceof Boolean b ? (Object) !b : in;
                }
                case XOR: {
                    Object a = Semantics.toBoolean(l);
                    Object b = Semantics.toBoolean(r);
                    return a == FAILED || b == FAILED ? FAILED : (Object) ((Boolean) a ^ (Boolean) b);
                }
                default:
                    return filter(l, r);
            }
        }

        private static Object filter(Object l, Object r) {
            if (!(l instanceof List<?> list) || !(r instanceof List<?> mask)) {
                return FAILED;
            }
            if (list.size() > mask.size()) {
                return FAILED;
            }
            List<Object> out = new ArrayList<>();
            for (int i = 0, n = list.size(); i < n; i++) {
                if (Boolean.TRUE.equals(mask.get(i))) {
                    out.add(list.get(i));
                }
            }
            return out;
        }
    }
}

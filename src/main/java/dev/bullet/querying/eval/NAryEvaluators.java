package dev.bullet.querying.eval;

import dev.bullet.common.Clock;
import dev.bullet.query.expr.Op;
import dev.bullet.record.Record;

import java.sql.Timestamp;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import static dev.bullet.querying.eval.Evaluators.FAILED;

/** The n-ary operations (bullet-core's {@code NAryOperations}): AND, OR, IF, BETWEEN, SUBSTRING, UNIXTIMESTAMP. */
final class NAryEvaluators {
    private NAryEvaluators() {
    }

    static Evaluator of(Op op, Evaluator[] operands, Clock clock) {
        return switch (op) {
            case AND -> new Junction(operands, false);
            case OR -> new Junction(operands, true);
            case IF -> new If(operands[0], operands.length > 1 ? operands[1] : null, operands.length > 2 ? operands[2] : null);
            case BETWEEN -> new Between(operands, false);
            case NOT_BETWEEN -> new Between(operands, true);
            case SUBSTRING -> new Substring(operands);
            default -> new UnixTimestamp(operands, clock);
        };
    }

    /** AND ({@code decisive} FALSE) or OR (TRUE) of every operand forced to BOOLEAN; stops at a decisive one. */
    private static final class Junction implements Evaluator {
        private final Evaluator[] operands;
        private final boolean decisive;

        Junction(Evaluator[] operands, boolean decisive) {
            this.operands = operands;
            this.decisive = decisive;
        }

        @Override
        public Object evaluate(Record record) {
            boolean containsNull = false;
            for (Evaluator operand : operands) {
                Object v = operand.evaluate(record);
                if (v == FAILED) {
                    return FAILED;
                }
                if (v == null) {
                    containsNull = true;
                    continue;
                }
                Object b = Semantics.toBoolean(v);
                if (b == FAILED || (Boolean) b == decisive) {
                    return b;
                }
            }
            return containsNull ? null : !decisive;
        }
    }

    /**
     * IF: the condition must be a Boolean (it is not cast); null counts as false. A branch that is not there (IF with
     * fewer than three operands, which bullet-bql lets through when an operand's type is unknown) fails when taken,
     * as bullet-core's evaluator does; operands after the third are never evaluated.
     */
    private static final class If implements Evaluator {
        private final Evaluator condition;
        private final Evaluator then;
        private final Evaluator otherwise;

        If(Evaluator condition, Evaluator then, Evaluator otherwise) {
            this.condition = condition;
            this.then = then;
            this.otherwise = otherwise;
        }

        @Override
        public Object evaluate(Record record) {
            Object c = condition.evaluate(record);
            if (c == FAILED || c != null && !(c instanceof Boolean)) {
                return FAILED;
            }
            Evaluator taken = c == Boolean.TRUE ? then : otherwise;
            return taken == null ? FAILED : taken.evaluate(record);
        }
    }

    /**
     * BETWEEN and NOT BETWEEN: a number against two numbers (all as doubles), else a string against two strings; a null
     * bound gives FALSE when the other bound already excludes the value, else null.
     */
    private static final class Between implements Evaluator {
        private final Evaluator value;
        private final Evaluator lower;
        private final Evaluator upper;
        private final boolean negated;

        Between(Evaluator[] operands, boolean negated) {
            this.value = operands[0];
            this.lower = operands[1];
            this.upper = operands[2];
            this.negated = negated;
        }

        @Override
        public Object evaluate(Record record) {
            Object result = between(record);
            return negated && result instanceof Boolean b ? (Object) !b : result;
        }

        private Object between(Record record) {
            Object v = value.evaluate(record);
            if (v == null || v == FAILED) {
                return v;
            }
            if (v instanceof Number n) {
                Object lo = lower.evaluate(record);
                if (lo == FAILED) {
                    return FAILED;
                }
                Object hi = upper.evaluate(record);
                if (hi == FAILED || lo != null && !(lo instanceof Number) || hi != null && !(hi instanceof Number)) {
                    return FAILED;
                }
                double x = n.doubleValue();
                if (lo == null) {
                    return hi == null ? null : ((Number) hi).doubleValue() < x ? Boolean.FALSE : null;
                }
                double l = ((Number) lo).doubleValue();
                if (hi == null) {
                    return x < l ? Boolean.FALSE : null;
                }
                return l <= x && x <= ((Number) hi).doubleValue();
            }
            if (!(v instanceof String x)) {
                return FAILED;
            }
            Object lo = lower.evaluate(record);
            if (lo == FAILED) {
                return FAILED;
            }
            Object hi = upper.evaluate(record);
            if (hi == FAILED || lo != null && !(lo instanceof String) || hi != null && !(hi instanceof String)) {
                return FAILED;
            }
            if (lo == null) {
                return hi == null ? null : ((String) hi).compareTo(x) < 0 ? Boolean.FALSE : null;
            }
            if (hi == null) {
                return x.compareTo((String) lo) < 0 ? Boolean.FALSE : null;
            }
            return ((String) lo).compareTo(x) <= 0 && x.compareTo((String) hi) <= 0;
        }
    }

    /** SUBSTRING(s, start[, length]): start is 1-based, negative counts from the end; 0 or past the end gives "". */
    private static final class Substring implements Evaluator {
        private final Evaluator[] operands;

        Substring(Evaluator[] operands) {
            this.operands = operands;
        }

        @Override
        public Object evaluate(Record record) {
            Object string = operands[0].evaluate(record);
            if (string == null || string == FAILED) {
                return string;
            }
            Object start = operands[1].evaluate(record);
            if (start == null || start == FAILED) {
                return start;
            }
            Object length = null;
            if (operands.length > 2) {
                length = operands[2].evaluate(record);
                if (length == null || length == FAILED) {
                    return length;
                }
            }
            if (!(string instanceof String s)) {
                return FAILED;
            }
            if (s.isEmpty()) {
                return "";
            }
            if (!(start instanceof Number n)) {
                return FAILED;
            }
            return substring(s, n.intValue(), length);
        }

        private static Object substring(String s, int start, Object length) {
            if (start == 0 || Math.abs(start) > s.length()) {
                return "";
            }
            int from = start > 0 ? start - 1 : start + s.length();
            if (length == null) {
                return from < 0 ? FAILED : s.substring(from);
            }
            if (!(length instanceof Number n)) {
                return FAILED;
            }
            int count = n.intValue();
            if (count <= 0) {
                return "";
            }
            int end = Math.min(from + count, s.length());
            return from < 0 || end < from ? FAILED : s.substring(from, end);
        }
    }

    /**
     * UNIXTIMESTAMP(): the clock's seconds; UNIXTIMESTAMP(date): a {@code yyyy-[m]m-[d]d hh:mm:ss[.f...]} string
     * ({@link Timestamp#valueOf}) read as UTC; UNIXTIMESTAMP(date, pattern): the date (a number is read as its digits)
     * parsed with a {@link DateTimeFormatter} pattern, as UTC. What does not parse fails.
     */
    private static final class UnixTimestamp implements Evaluator {
        private final Evaluator[] operands;
        private final Clock clock;

        UnixTimestamp(Evaluator[] operands, Clock clock) {
            this.operands = operands;
            this.clock = clock;
        }

        @Override
        public Object evaluate(Record record) {
            if (operands.length == 0) {
                return clock.now() / 1000;
            }
            Object date = operands[0].evaluate(record);
            if (date == null || date == FAILED) {
                return date;
            }
            if (operands.length == 1) {
                return date instanceof String s ? timestamp(s) : FAILED;
            }
            Object pattern = operands[1].evaluate(record);
            if (pattern == null || pattern == FAILED) {
                return pattern;
            }
            String text = date instanceof Number n ? Long.toString(n.longValue()) : date instanceof String s ? s : null;
            if (text == null || !(pattern instanceof String p)) {
                return FAILED;
            }
            return parse(text, p);
        }

        private static Object timestamp(String s) {
            try {
                return Timestamp.valueOf(s).toLocalDateTime().toEpochSecond(ZoneOffset.UTC);
            } catch (IllegalArgumentException notATimestamp) {
                return FAILED;
            }
        }

        private static Object parse(String text, String pattern) {
            try {
                return LocalDateTime.parse(text, DateTimeFormatter.ofPattern(pattern)).toEpochSecond(ZoneOffset.UTC);
            } catch (IllegalArgumentException | DateTimeException unparsable) {
                return FAILED;
            }
        }
    }
}

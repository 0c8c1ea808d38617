package dev.bullet.querying.eval;

import dev.bullet.BulletException;
import dev.bullet.common.Clock;
import dev.bullet.common.Limits;
import dev.bullet.query.expr.BinaryExpr;
import dev.bullet.query.expr.CastExpr;
import dev.bullet.query.expr.Expr;
import dev.bullet.query.expr.FieldExpr;
import dev.bullet.query.expr.ListExpr;
import dev.bullet.query.expr.NAryExpr;
import dev.bullet.query.expr.UnaryExpr;
import dev.bullet.query.expr.ValueExpr;

import java.util.List;

/**
 * Compiles an expression into its {@link Evaluator} tree, and reads an evaluation the way bullet-core's consumers do:
 * a filter keeps a record only when its expression is TRUE ({@link #matches}, bullet-core's {@code Filter.match}); a
 * projection leaves out a field whose expression is null or failed ({@link #projected}).
 */
public final class Evaluators {
    /** What an evaluation gives where bullet-core's evaluator throws. Never equal to any record value. */
    public static final Object FAILED = new Object() {
        @Override
        public String toString() {
            return "FAILED";
        }
    };

    private Evaluators() {
    }

    /**
     * Compiles {@code expr}; {@code clock} is what UNIXTIMESTAMP() reads. Refuses a tree deeper than
     * {@code limits.queryDepth()} (the parser never builds one; this guards trees built in code).
     */
    public static Evaluator compile(Expr expr, Clock clock, Limits limits) {
        if (expr.depth() > limits.queryDepth()) {
            throw new BulletException("The expression nests " + expr.depth() + " levels, over the limit of "
                    + limits.queryDepth());
        }
        return new Evaluators.Compiler(clock).compile(expr);
    }

    public static boolean failed(Object value) {
        return value == FAILED;
    }

    /** Whether a filter keeps the record: the value is not null, did not fail, and casts to TRUE. */
    public static boolean matches(Object value) {
        return value != null && value != FAILED && Semantics.toBoolean(value) == Boolean.TRUE;
    }

    /** What {@link #compare} gives for two values bullet-core cannot compare (it throws). */
    public static final int INCOMPARABLE = Semantics.INCOMPARABLE;

    /** bullet-core's comparison of two non-null values ({@code TypedObject.compareTo}), or {@link #INCOMPARABLE}. */
    public static int compare(Object left, Object right) {
        return Semantics.compare(left, right);
    }

    /** The value a projection writes: null (the field is left out) when it is null or failed. */
    public static Object projected(Object value) {
        return value == FAILED ? null : value;
    }

    private static final class Compiler {
        private final Clock clock;

        Compiler(Clock clock) {
            this.clock = clock;
        }

        Evaluator compile(Expr expr) {
            if (expr instanceof FieldExpr f) {
                return FieldEvaluators.of(f.field(), key(f.key()), key(f.subKey()));
            }
            if (expr instanceof ValueExpr v) {
                return new Const(v.value());
            }
            if (expr instanceof ListExpr l) {
                return new ListOf(all(l.values()));
            }
            if (expr instanceof UnaryExpr u) {
                return UnaryEvaluators.of(u.op(), compile(u.operand()));
            }
            if (expr instanceof BinaryExpr b) {
                return BinaryEvaluators.of(b.op(), compile(b.left()), compile(b.right()), literal(b.right()));
            }
            if (expr instanceof NAryExpr n) {
                return NAryEvaluators.of(n.op(), all(n.operands()), clock);
            }
            CastExpr c = (CastExpr) expr;
            return new Cast(compile(c.value()), c.castType());
        }

        private Object key(Object key) {
            return key instanceof Expr e ? compile(e) : key;
        }

        private Evaluator[] all(List<Expr> exprs) {
            Evaluator[] out = new Evaluator[exprs.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = compile(exprs.get(i));
            }
            return out;
        }

        private static Object literal(Expr expr) {
            return expr instanceof ValueExpr v ? v.value() : null;
        }
    }
}

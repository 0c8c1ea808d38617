package dev.bullet.querying;

import dev.bullet.index.ComputedEquality;
import dev.bullet.query.expr.BinaryExpr;
import dev.bullet.query.expr.CastExpr;
import dev.bullet.query.expr.Expr;
import dev.bullet.query.expr.FieldExpr;
import dev.bullet.query.expr.ListExpr;
import dev.bullet.query.expr.NAryExpr;
import dev.bullet.query.expr.Op;
import dev.bullet.query.expr.UnaryExpr;
import dev.bullet.query.expr.ValueExpr;
import dev.bullet.querying.eval.Evaluator;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The {@link ComputedEquality} a query's expression filters require, for the index: a conjunct {@code E = literal}
 * (either side) or {@code E IN (literals)} where {@code E} reads the record and not the clock. Such a conjunct is true
 * only when {@code E}'s value compares equal to a literal (a null or failed value makes it null, never true), so the
 * literals are all the values it can be true for. Null literals are left out: they equal nothing.
 */
final class ComputedEqualities {
    private ComputedEqualities() {
    }

    /** The first conjunct's computed equality, {@code compile} making its expression's evaluator; null when none is one. */
    static ComputedEquality of(List<Expr> where, Function<Expr, Evaluator> compile) {
        return first(where, (side, literals) -> computed(side, literals, compile));
    }

    /**
     * The first non-null {@code make(side, literals)} over the conjuncts that compare an expression with literals:
     * {@code side = literal} (either side first the left) and {@code side IN (literals)}, the literals' values but
     * nulls (which equal nothing); null when there is none. A list with a member that is no literal is no such
     * conjunct (a field's value could equal anything).
     */
    static <T> T first(List<Expr> where, BiFunction<Expr, List<Object>, T> make) {
        for (Expr conjunct : where) {
            if (!(conjunct instanceof BinaryExpr binary)) {
                continue;
            }
            T found = null;
            if (binary.op() == Op.EQUALS) {
                found = make(binary.left(), literal(binary.right()), make);
                if (found == null) {
                    found = make(binary.right(), literal(binary.left()), make);
                }
            } else if (binary.op() == Op.IN) {
                found = make(binary.left(), literals(binary.right()), make);
            }
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static <T> T make(Expr side, List<Object> literals, BiFunction<Expr, List<Object>, T> make) {
        return literals == null || literals.isEmpty() ? null : make.apply(side, literals);
    }

    private static ComputedEquality computed(Expr side, List<Object> literals, Function<Expr, Evaluator> compile) {
        if (side instanceof ValueExpr || !readsRecordOnly(side)) {
            return null;
        }
        Evaluator evaluator = compile.apply(side);
        return new ComputedEquality(side, evaluator::evaluate, literals);
    }

    /** Whether the expression reads a field of the record and never the clock. */
    static boolean readsRecordOnly(Expr e) {
        return readsField(e) && !readsClock(e);
    }

    private static boolean readsField(Expr e) {
        return e instanceof FieldExpr || children(e).stream().anyMatch(ComputedEqualities::readsField);
    }

    private static boolean readsClock(Expr e) {
        return e instanceof NAryExpr n && n.op() == Op.UNIX_TIMESTAMP
               || children(e).stream().anyMatch(ComputedEqualities::readsClock);
    }

    private static List<Expr> children(Expr e) {
        List<Expr> out = new ArrayList<>();
        if (e instanceof UnaryExpr u) {
            out.add(u.operand());
        } else if (e instanceof BinaryExpr b) {
            out.add(b.left());
            out.add(b.right());
        } else if (e instanceof NAryExpr n) {
            out.addAll(n.operands());
        } else if (e instanceof CastExpr c) {
            out.add(c.value());
        } else if (e instanceof ListExpr l) {
            out.addAll(l.values());
        } else if (e instanceof FieldExpr f) {
            if (f.key() instanceof Expr k) {
                out.add(k);
            }
            if (f.subKey() instanceof Expr k) {
                out.add(k);
            }
        }
        return out;
    }

    private static List<Object> literal(Expr e) {
        return e instanceof ValueExpr v && v.value() != null ? List.of(v.value()) : null;
    }

    /** A list of literals' values but nulls; null when a member is no literal (it could equal anything). */
    private static List<Object> literals(Expr e) {
        if (!(e instanceof ListExpr list)) {
            return null;
        }
        List<Object> values = new ArrayList<>();
        for (Expr member : list.values()) {
            if (!(member instanceof ValueExpr v)) {
                return null;
            }
            if (v.value() != null) {
                values.add(v.value());
            }
        }
        return values;
    }
}

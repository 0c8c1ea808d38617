package dev.bullet.querying.eval;

import com.yahoo.bullet.query.expressions.BinaryExpression;
import com.yahoo.bullet.query.expressions.CastExpression;
import com.yahoo.bullet.query.expressions.Expression;
import com.yahoo.bullet.query.expressions.FieldExpression;
import com.yahoo.bullet.query.expressions.ListExpression;
import com.yahoo.bullet.query.expressions.NAryExpression;
import com.yahoo.bullet.query.expressions.Operation;
import com.yahoo.bullet.query.expressions.UnaryExpression;
import com.yahoo.bullet.query.expressions.ValueExpression;
import com.yahoo.bullet.record.simple.TypedSimpleBulletRecord;
import com.yahoo.bullet.typesystem.Type;
import com.yahoo.bullet.typesystem.TypedObject;
import dev.bullet.query.expr.BinaryExpr;
import dev.bullet.query.expr.CastExpr;
import dev.bullet.query.expr.Expr;
import dev.bullet.query.expr.FieldExpr;
import dev.bullet.query.expr.ListExpr;
import dev.bullet.query.expr.NAryExpr;
import dev.bullet.query.expr.UnaryExpr;
import dev.bullet.query.expr.ValueExpr;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builds the same expression and record for bullet-core 1.5.2, and runs its evaluator (a throw is FAILED). */
final class BulletCoreBridge {
    private BulletCoreBridge() {
    }

    /** bullet-core's answer: its value and type, or null for a throw. */
    record Answer(Object value, String type) {
    }

    static Answer evaluate(Expr expr, Map<String, Object> fields) {
        TypedSimpleBulletRecord record = record(fields);
        try {
            TypedObject result = toCore(expr).getEvaluator().evaluate(record);
            return new Answer(result.getValue(), result.getType().name());
        } catch (RuntimeException thrown) {
            return null;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static TypedSimpleBulletRecord record(Map<String, Object> fields) {
        TypedSimpleBulletRecord record = new TypedSimpleBulletRecord();
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            Object v = e.getValue();
            if (v instanceof List list) {
                record.setLongList(e.getKey(), list);
            } else if (v instanceof Map map) {
                record.setLongMap(e.getKey(), map);
            } else if (v instanceof Long l) {
                record.setLong(e.getKey(), l);
            } else if (v instanceof Double d) {
                record.setDouble(e.getKey(), d);
            } else if (v instanceof Boolean b) {
                record.setBoolean(e.getKey(), b);
            } else {
                record.setString(e.getKey(), (String) v);
            }
        }
        return record;
    }

    static Expression toCore(Expr expr) {
        if (expr instanceof FieldExpr f) {
            return field(f);
        }
        if (expr instanceof ValueExpr v) {
            return new ValueExpression((Serializable) v.value());
        }
        if (expr instanceof ListExpr l) {
            return new ListExpression(all(l.values()));
        }
        if (expr instanceof UnaryExpr u) {
            return new UnaryExpression(toCore(u.operand()), Operation.valueOf(u.op().name()));
        }
        if (expr instanceof BinaryExpr b) {
            return new BinaryExpression(toCore(b.left()), toCore(b.right()), Operation.valueOf(b.op().name()));
        }
        if (expr instanceof NAryExpr n) {
            return new NAryExpression(all(n.operands()), Operation.valueOf(n.op().name()));
        }
        CastExpr c = (CastExpr) expr;
        return new CastExpression(toCore(c.value()), Type.valueOf(c.castType().name()));
    }

    private static List<Expression> all(List<Expr> exprs) {
        List<Expression> out = new ArrayList<>();
        for (Expr e : exprs) {
            out.add(toCore(e));
        }
        return out;
    }

    private static Expression field(FieldExpr f) {
        FieldExpression base = new FieldExpression(f.field());
        if (f.key() == null) {
            return base;
        }
        FieldExpression keyed = withKey(base, f.key());
        return f.subKey() == null ? keyed : withKey(keyed, f.subKey());
    }

    private static FieldExpression withKey(FieldExpression base, Object key) {
        if (key instanceof Integer i) {
            return new FieldExpression(base, i);
        }
        if (key instanceof String s) {
            return new FieldExpression(base, s);
        }
        return new FieldExpression(base, toCore((Expr) key));
    }
}

package dev.bullet.query.expr;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;

/**
 * Writes an expression in its JSON form (the package documentation describes it); {@link ExprParser} reads it back.
 * A NaN or infinite FLOAT or DOUBLE is written as the string {@code "NaN"}, {@code "Infinity"} or {@code "-Infinity"}.
 */
public final class ExprJson {
    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().serializeNulls().create();

    private ExprJson() {
    }

    public static String write(Expr expr) {
        return GSON.toJson(toJson(expr));
    }

    public static JsonObject toJson(Expr expr) {
        JsonObject o = new JsonObject();
        if (expr instanceof FieldExpr f) {
            o.addProperty("field", f.field());
            if (f.key() != null) {
                o.add("key", key(f.key()));
            }
            if (f.subKey() != null) {
                o.add("subKey", key(f.subKey()));
            }
            if (f.type() != ExprType.UNKNOWN) {
                o.addProperty("type", f.type().name());
            }
        } else if (expr instanceof ValueExpr v) {
            o.add("value", value(v.value()));
            o.addProperty("type", v.type().name());
        } else if (expr instanceof ListExpr l) {
            o.add("list", array(l.values()));
        } else if (expr instanceof UnaryExpr u) {
            o.addProperty("op", u.op().symbol());
            o.add("operand", toJson(u.operand()));
        } else if (expr instanceof BinaryExpr b) {
            o.addProperty("op", b.op().symbol());
            o.add("left", toJson(b.left()));
            o.add("right", toJson(b.right()));
        } else if (expr instanceof NAryExpr n) {
            o.addProperty("op", n.op().symbol());
            o.add("operands", array(n.operands()));
        } else {
            CastExpr c = (CastExpr) expr;
            o.add("cast", toJson(c.value()));
            o.addProperty("type", c.castType().name());
        }
        return o;
    }

    private static JsonElement key(Object key) {
        if (key instanceof Expr e) {
            return toJson(e);
        }
        return key instanceof Integer i ? new JsonPrimitive(i) : new JsonPrimitive((String) key);
    }

    private static JsonArray array(Iterable<Expr> exprs) {
        JsonArray array = new JsonArray();
        for (Expr e : exprs) {
            array.add(toJson(e));
        }
        return array;
    }

    private static JsonElement value(Object value) {
        if (value == null) {
            return JsonNull.INSTANCE;
        }
        if (value instanceof String s) {
            return new JsonPrimitive(s);
        }
        if (value instanceof Boolean b) {
            return new JsonPrimitive(b);
        }
        if (value instanceof Double d && (d.isNaN() || d.isInfinite()) || value instanceof Float f && (f.isNaN() || f.isInfinite())) {
            return new JsonPrimitive(value.toString());
        }
        return new JsonPrimitive((Number) value);
    }
}

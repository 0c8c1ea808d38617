package dev.bullet.query.expr;

import java.util.Objects;

/**
 * A field of the record, optionally with a key and a sub-key (bullet-core's {@code FieldExpression}): the key is a
 * literal map key ({@link String}), a literal list index ({@link Integer}) or an {@link Expr} (a number indexes a list,
 * anything else is a map key); the sub-key, allowed only with a key, is a literal map key or an {@link Expr}. The
 * {@code field} is one top-level name. The static type is the declared one (a schema hint, not used to evaluate), else
 * {@link ExprType#UNKNOWN}.
 */
public final class FieldExpr extends Expr {
    private final String field;
    private final Object key;
    private final Object subKey;

    private FieldExpr(String field, Object key, Object subKey, ExprType declared) {
        super(declared == null ? ExprType.UNKNOWN : declared, 1 + Math.max(depthOf(key), depthOf(subKey)));
        this.field = Objects.requireNonNull(field, "field");
        if (key != null && !(key instanceof String || key instanceof Integer || key instanceof Expr)) {
            throw new IllegalArgumentException("a key is a String, an Integer or an Expr: " + key);
        }
        if (subKey != null && (key == null || !(subKey instanceof String || subKey instanceof Expr))) {
            throw new IllegalArgumentException("a sub-key is a String or an Expr and needs a key: " + subKey);
        }
        this.key = key;
        this.subKey = subKey;
    }

    private static int depthOf(Object key) {
        return key instanceof Expr e ? e.depth() : 0;
    }

    public static FieldExpr of(String field) {
        return new FieldExpr(field, null, null, null);
    }

    /** A field with a key ({@code String}, {@code Integer} or {@code Expr}) and a sub-key (null, String or Expr). */
    public static FieldExpr of(String field, Object key, Object subKey) {
        return new FieldExpr(field, key, subKey, null);
    }

    /** The same field with a declared (schema) type. */
    public FieldExpr withType(ExprType declared) {
        return new FieldExpr(field, key, subKey, declared);
    }

    public String field() {
        return field;
    }

    /** The key: null, a map key String, a list index Integer or an Expr. */
    public Object key() {
        return key;
    }

    /** The sub-key: null, a map key String or an Expr. */
    public Object subKey() {
        return subKey;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldExpr f && field.equals(f.field) && Objects.equals(key, f.key)
                && Objects.equals(subKey, f.subKey) && type() == f.type();
    }

    @Override
    public int hashCode() {
        return Objects.hash(field, key, subKey, type());
    }
}

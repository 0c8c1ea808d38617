package dev.bullet.query.expr;

import dev.bullet.record.TypeMemo;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The types of bullet-core 1.5.2 (its {@code Type} enum, same constants in the same order): the primitives, maps and
 * lists of them one level deep, maps of maps and lists of maps, the {@code UNKNOWN_*} containers, {@code UNKNOWN} and
 * {@code NULL}. {@link #of(Object)} infers a value's type from its Java class exactly as bullet-core does: a container's
 * type comes from the types of its non-null members (one type, or {@code UNKNOWN} as the member type when they differ
 * or there are none); what the system cannot name (a list of lists, a map of lists) is {@code UNKNOWN}.
 */
public enum ExprType {
    NULL(Kind.NONE, null),
    STRING(Kind.PRIMITIVE, null),
    BOOLEAN(Kind.PRIMITIVE, null),
    INTEGER(Kind.PRIMITIVE, null),
    LONG(Kind.PRIMITIVE, null),
    FLOAT(Kind.PRIMITIVE, null),
    DOUBLE(Kind.PRIMITIVE, null),
    STRING_MAP(Kind.PRIMITIVE_MAP, STRING),
    BOOLEAN_MAP(Kind.PRIMITIVE_MAP, BOOLEAN),
    INTEGER_MAP(Kind.PRIMITIVE_MAP, INTEGER),
    LONG_MAP(Kind.PRIMITIVE_MAP, LONG),
    FLOAT_MAP(Kind.PRIMITIVE_MAP, FLOAT),
    DOUBLE_MAP(Kind.PRIMITIVE_MAP, DOUBLE),
    STRING_MAP_MAP(Kind.COMPLEX_MAP, STRING_MAP),
    BOOLEAN_MAP_MAP(Kind.COMPLEX_MAP, BOOLEAN_MAP),
    INTEGER_MAP_MAP(Kind.COMPLEX_MAP, INTEGER_MAP),
    LONG_MAP_MAP(Kind.COMPLEX_MAP, LONG_MAP),
    FLOAT_MAP_MAP(Kind.COMPLEX_MAP, FLOAT_MAP),
    DOUBLE_MAP_MAP(Kind.COMPLEX_MAP, DOUBLE_MAP),
    STRING_LIST(Kind.PRIMITIVE_LIST, STRING),
    BOOLEAN_LIST(Kind.PRIMITIVE_LIST, BOOLEAN),
    INTEGER_LIST(Kind.PRIMITIVE_LIST, INTEGER),
    LONG_LIST(Kind.PRIMITIVE_LIST, LONG),
    FLOAT_LIST(Kind.PRIMITIVE_LIST, FLOAT),
    DOUBLE_LIST(Kind.PRIMITIVE_LIST, DOUBLE),
    STRING_MAP_LIST(Kind.COMPLEX_LIST, STRING_MAP),
    BOOLEAN_MAP_LIST(Kind.COMPLEX_LIST, BOOLEAN_MAP),
    INTEGER_MAP_LIST(Kind.COMPLEX_LIST, INTEGER_MAP),
    LONG_MAP_LIST(Kind.COMPLEX_LIST, LONG_MAP),
    FLOAT_MAP_LIST(Kind.COMPLEX_LIST, FLOAT_MAP),
    DOUBLE_MAP_LIST(Kind.COMPLEX_LIST, DOUBLE_MAP),
    UNKNOWN(Kind.NONE, null),
    UNKNOWN_LIST(Kind.PRIMITIVE_LIST, UNKNOWN),
    UNKNOWN_MAP(Kind.PRIMITIVE_MAP, UNKNOWN),
    UNKNOWN_MAP_MAP(Kind.COMPLEX_MAP, UNKNOWN_MAP),
    UNKNOWN_MAP_LIST(Kind.COMPLEX_LIST, UNKNOWN_MAP);

    private enum Kind { NONE, PRIMITIVE, PRIMITIVE_MAP, COMPLEX_MAP, PRIMITIVE_LIST, COMPLEX_LIST }

    private static final ExprType[] VALUES = values();

    private final Kind kind;
    private final ExprType subType;

    ExprType(Kind kind, ExprType subType) {
        this.kind = kind;
        this.subType = subType;
    }

    /** The member type of a map or list (a map's values), {@code null} for the others. */
    public ExprType subType() {
        return subType;
    }

    public boolean isPrimitive() {
        return kind == Kind.PRIMITIVE;
    }

    public boolean isNumeric() {
        return this == INTEGER || this == LONG || this == FLOAT || this == DOUBLE;
    }

    public boolean isMap() {
        return kind == Kind.PRIMITIVE_MAP || kind == Kind.COMPLEX_MAP;
    }

    public boolean isPrimitiveMap() {
        return kind == Kind.PRIMITIVE_MAP;
    }

    public boolean isComplexMap() {
        return kind == Kind.COMPLEX_MAP;
    }

    public boolean isList() {
        return kind == Kind.PRIMITIVE_LIST || kind == Kind.COMPLEX_LIST;
    }

    public boolean isPrimitiveList() {
        return kind == Kind.PRIMITIVE_LIST;
    }

    public boolean isComplexList() {
        return kind == Kind.COMPLEX_LIST;
    }

    /** Whether a value of this type may be forced to {@code target} (bullet-core's {@code canForceCast}). */
    public boolean canForceCastTo(ExprType target) {
        return target == this || kind != Kind.NONE && kind == target.kind;
    }

    /** Whether two types compare (bullet-core's {@code canCompare}): equal primitives, or two numbers. */
    public static boolean canCompare(ExprType a, ExprType b) {
        return a.isPrimitive() && b.isPrimitive() && (a == b || a.isNumeric() && b.isNumeric());
    }

    /** The type of a Java value, as bullet-core infers it. */
    public static ExprType of(Object value) {
        if (value == null) {
            return NULL;
        }
        if (value instanceof String) {
            return STRING;
        }
        if (value instanceof Boolean) {
            return BOOLEAN;
        }
        if (value instanceof Integer) {
            return INTEGER;
        }
        if (value instanceof Long) {
            return LONG;
        }
        if (value instanceof Float) {
            return FLOAT;
        }
        if (value instanceof Double) {
            return DOUBLE;
        }
        if (value instanceof TypeMemo memo && memo.typeMemo() instanceof ExprType known) {
            return known; // a view over a record's bytes, typed already for another query
        }
        ExprType type;
        if (value instanceof TypeMemo memo) { // a view over a record's bytes: its members typed from their bytes
            type = container(value instanceof Map, memo.memberCount() == 0 ? UNKNOWN : memberType(memo));
        } else if (value instanceof Map<?, ?> map) {
            ExprType member = map.isEmpty() || !hasStringKeys(map) ? UNKNOWN : memberType(map.values());
            type = container(true, member);
        } else if (value instanceof List<?> list) {
            type = container(false, list.isEmpty() ? UNKNOWN : memberType(list));
        } else {
            return UNKNOWN;
        }
        if (value instanceof TypeMemo memo) {
            memo.typeMemo(type);
        }
        return type;
    }

    private static boolean hasStringKeys(Map<?, ?> map) {
        for (Object key : map.keySet()) {
            if (key != null && !(key instanceof String)) {
                return false;
            }
        }
        return true;
    }

    /** The one type of the non-null members; UNKNOWN_MAP when they are maps of several types, else UNKNOWN. */
    private static ExprType memberType(Collection<?> members) {
        MemberTypes types = new MemberTypes();
        for (Object member : members) {
            types.add(of(member));
        }
        return types.result();
    }

    /** {@link #memberType(Collection)} of a view's members, each typed from its bytes, containers read as views. */
    private static ExprType memberType(TypeMemo view) {
        MemberTypes types = new MemberTypes();
        for (int i = 0, n = view.memberCount(); i < n; i++) {
            types.add(switch (view.memberKind(i)) {
                case TypeMemo.NULL_MEMBER -> NULL;
                case TypeMemo.STRING_MEMBER -> STRING;
                case TypeMemo.BOOLEAN_MEMBER -> BOOLEAN;
                case TypeMemo.LONG_MEMBER -> LONG;
                case TypeMemo.DOUBLE_MEMBER -> DOUBLE;
                default -> of(view.member(i));
            });
        }
        return types.result();
    }

    /** The types of a container's members, folded as they come. */
    private static final class MemberTypes {
        private ExprType found;
        private boolean several;
        private boolean allMaps = true;

        void add(ExprType type) {
            if (type == NULL) {
                return;
            }
            allMaps &= type.isMap();
            if (found == null) {
                found = type;
            } else if (found != type) {
                several = true;
            }
        }

        ExprType result() {
            if (found == null) {
                return UNKNOWN;
            }
            if (several) {
                return allMaps ? UNKNOWN_MAP : UNKNOWN;
            }
            return found;
        }
    }

    private static ExprType container(boolean map, ExprType member) {
        for (ExprType type : VALUES) {
            if (type.subType == member && (map ? type.isMap() : type.isList())) {
                return type;
            }
        }
        return UNKNOWN;
    }

    /** The type named {@code name} (case-insensitive), or {@code null}. */
    public static ExprType named(String name) {
        for (ExprType type : VALUES) {
            if (type.name().equalsIgnoreCase(name)) {
                return type;
            }
        }
        return null;
    }
}

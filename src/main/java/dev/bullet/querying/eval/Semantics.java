package dev.bullet.querying.eval;

import dev.bullet.query.expr.ExprType;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.bullet.querying.eval.Evaluators.FAILED;

/**
 * bullet-core 1.5.2's value semantics (its {@code Type} and {@code TypedObject}) over plain Java values, whose type is
 * {@link ExprType#of}: forced casts, comparisons, sizes, CONTAINSKEY and CONTAINSVALUE. Where bullet-core throws, these
 * give {@link Evaluators#FAILED} (or {@link #INCOMPARABLE} for a comparison).
 */
final class Semantics {
    /** What {@link #compare} gives for two values bullet-core cannot compare (no real comparison gives it). */
    static final int INCOMPARABLE = Integer.MIN_VALUE;

    private Semantics() {
    }

    /** The value forced to BOOLEAN (bullet-core's {@code forceCast(BOOLEAN)}): a Boolean, or FAILED. Not for null. */
    static Object toBoolean(Object value) {
        if (value instanceof Boolean) {
            return value;
        }
        if (value instanceof String s) {
            return Boolean.parseBoolean(s);
        }
        if (value instanceof Integer i) {
            return i != 0;
        }
        if (value instanceof Long l) {
            return l != 0;
        }
        if (value instanceof Float f) {
            return f != 0;
        }
        if (value instanceof Double d) {
            return d != 0;
        }
        return FAILED;
    }

    /** bullet-core's {@code compareTo} of two non-null values, or {@link #INCOMPARABLE}. */
    static int compare(Object left, Object right) {
        ExprType l = ExprType.of(left);
        ExprType r = ExprType.of(right);
        if (!ExprType.canCompare(l, r)) {
            return INCOMPARABLE;
        }
        if (l != r) {
            return Double.compare(((Number) left).doubleValue(), ((Number) right).doubleValue());
        }
        return switch (l) {
            case BOOLEAN -> ((Boolean) left).compareTo((Boolean) right);
            case INTEGER -> ((Integer) left).compareTo((Integer) right);
            case LONG -> ((Long) left).compareTo((Long) right);
            case FLOAT -> ((Float) left).compareTo((Float) right);
            case DOUBLE -> ((Double) left).compareTo((Double) right);
            default -> ((String) left).compareTo((String) right);
        };
    }

    /** SIZEOF: a list's or map's size or a string's length, as an Integer; FAILED for the rest. Not for null. */
    static Object size(Object value) {
        if (value instanceof String s) {
            return s.length();
        }
        ExprType type = ExprType.of(value);
        if (type.isList()) {
            return ((List<?>) value).size();
        }
        return type.isMap() ? (Object) ((Map<?, ?>) value).size() : FAILED;
    }

    /** CONTAINSKEY of a non-null container and key: TRUE, FALSE, null or FAILED. */
    static Object containsKey(Object container, String key) {
        ExprType type = ExprType.of(container);
        if (type.isComplexList()) {
            return keyInMaps((List<?>) container, key);
        }
        if (type.isComplexMap()) {
            Map<?, ?> map = (Map<?, ?>) container;
            if (map.containsKey(key)) {
                return Boolean.TRUE;
            }
            if (hasNullKey(map)) {
                for (Object inner : map.values()) {
                    if (inner != null && ((Map<?, ?>) inner).containsKey(key)) {
                        return Boolean.TRUE;
                    }
                }
                return null;
            }
            return keyInMaps(map.values(), key);
        }
        if (type.isPrimitiveMap()) {
            Map<?, ?> map = (Map<?, ?>) container;
            if (map.containsKey(key)) {
                return Boolean.TRUE;
            }
            return hasNullKey(map) ? null : Boolean.FALSE;
        }
        return FAILED;
    }

    /** Whether a map has a null key (a map that forbids null keys has none). */
    private static boolean hasNullKey(Map<?, ?> map) {
        try {
            return map.containsKey(null);
        } catch (NullPointerException forbidden) {
            return false;
        }
    }

    private static Object keyInMaps(Collection<?> maps, String key) {
        boolean containsNull = false;
        for (Object member : maps) {
            if (member == null) {
                containsNull = true;
            } else {
                Map<?, ?> map = (Map<?, ?>) member;
                if (map.containsKey(key)) {
                    return Boolean.TRUE;
                }
                containsNull |= hasNullKey(map);
            }
        }
        return containsNull ? null : Boolean.FALSE;
    }

    /** CONTAINSVALUE (and IN) of a non-null container and target: TRUE, FALSE, null or FAILED. */
    static Object containsValue(Object container, Object target) {
        ExprType type = ExprType.of(container);
        if (type.isPrimitiveList()) {
            return valueIn((List<?>) container, target);
        }
        if (type.isComplexList()) {
            return valueInMaps((List<?>) container, target);
        }
        if (type.isPrimitiveMap()) {
            return valueIn(((Map<?, ?>) container).values(), target);
        }
        if (type.isComplexMap()) {
            return valueInMaps(((Map<?, ?>) container).values(), target);
        }
        return FAILED;
    }

    private static Object valueIn(Collection<?> values, Object target) {
        boolean containsNull = false;
        for (Object value : values) {
            if (value == null) {
                containsNull = true;
                continue;
            }
            int c = compare(target, value);
            if (c == INCOMPARABLE) {
                return FAILED;
            }
            if (c == 0) {
                return Boolean.TRUE;
            }
        }
        return containsNull ? null : Boolean.FALSE;
    }

    private static Object valueInMaps(Collection<?> maps, Object target) {
        boolean containsNull = false;
        for (Object map : maps) {
            if (map == null) {
                containsNull = true;
                continue;
            }
            Object found = valueIn(((Map<?, ?>) map).values(), target);
            if (found == Boolean.TRUE || found == FAILED) {
                return found;
            }
            containsNull |= found == null;
        }
        return containsNull ? null : Boolean.FALSE;
    }

    /** CAST: the non-null-or-null value forced to {@code target} (bullet-core's {@code forceCast}), or FAILED. */
    static Object cast(Object value, ExprType target) {
        return value == null ? null : cast(target, ExprType.of(value), value);
    }

    /** bullet-core's {@code forceCast(target, source, object)}: members are cast by the source's declared member type. */
    private static Object cast(ExprType target, ExprType source, Object value) {
        if (value == null) {
            return null;
        }
        if (!source.canForceCastTo(target)) {
            return FAILED;
        }
        switch (target) {
            case STRING:
                return value.toString();
            case BOOLEAN:
                return toBoolean(value);
            case INTEGER:
            case LONG:
            case FLOAT:
            case DOUBLE:
                return toNumber(target, value);
            case UNKNOWN_MAP:
            case UNKNOWN_MAP_MAP:
            case UNKNOWN_LIST:
            case UNKNOWN_MAP_LIST:
            case NULL:
            case UNKNOWN:
                return FAILED;
            default:
                break;
        }
        if (target.isMap()) {
            Map<String, Object> map = new HashMap<>();
            for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                Object member = cast(target.subType(), source.subType(), entry.getValue());
                if (member == FAILED) {
                    return FAILED;
                }
                map.put(entry.getKey() == null ? null : entry.getKey().toString(), member);
            }
            return map;
        }
        List<?> list = (List<?>) value;
        List<Object> out = new ArrayList<>(list.size());
        for (Object element : list) {
            Object member = cast(target.subType(), source.subType(), element);
            if (member == FAILED) {
                return FAILED;
            }
            out.add(member);
        }
        return out;
    }

    /** A primitive forced to a numeric type; a string is read by {@link Double#parseDouble} as bullet-core does. */
    private static Object toNumber(ExprType target, Object value) {
        if (value instanceof Boolean b) {
            return switch (target) {
                case INTEGER -> b ? 1 : 0;
                case LONG -> b ? 1L : 0L;
                case FLOAT -> b ? 1.0f : 0.0f;
                default -> b ? 1.0 : 0.0;
            };
        }
        if (value instanceof String s) {
            double d;
            try {
                d = Double.parseDouble(s);
            } catch (NumberFormatException notANumber) {
                return FAILED;
            }
            return switch (target) {
                case INTEGER -> (int) d;
                case LONG -> (long) d;
                case FLOAT -> (float) d;
                default -> d;
            };
        }
        return narrow(target, (Number) value);
    }

    /** Java's conversions between the numeric types, as bullet-core's casts make them. */
    private static Object narrow(ExprType target, Number n) {
        return switch (target) {
            case INTEGER -> n instanceof Float f ? (int) f.floatValue() : n instanceof Double d ? (int) d.doubleValue() : n.intValue();
            case LONG -> n instanceof Float f ? (long) f.floatValue() : n instanceof Double d ? (long) d.doubleValue() : n.longValue();
            case FLOAT -> n.floatValue();
            default -> n.doubleValue();
        };
    }
}

package dev.bullet.config;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The value types a setting can have, and how a raw value (as parsed from YAML, or a string from a command-line
 * flag) becomes the canonical Java value: {@link Boolean}, {@link Integer}, {@link Long}, {@link Double},
 * {@link String}, an unmodifiable {@code List<String>}, or an unmodifiable insertion-ordered
 * {@code Map<String, Integer>} / {@code Map<String, String>}. {@link #PROPERTIES} (Kafka client properties) is a
 * {@code Map<String, String>} too, but takes any scalar value (a number or boolean becomes its text) and flattens
 * nested maps into dotted names ({@code security: {protocol: SSL}} is {@code security.protocol: SSL}); its values
 * never appear in a message when their name marks them secret ({@link KafkaProperties#isSecret}).
 *
 * <p>Lenient where there is no doubt: numeric strings are accepted for numbers ({@code "5000"}), integers for longs and
 * doubles, {@code "true"}/{@code "false"} for booleans, a single string for a list. Strict where there is: a fraction
 * is not an integer, a boolean is not a string (YAML reads an unquoted {@code no} as {@code false}), null is no value.
 */
enum SettingType {
    BOOLEAN("boolean"),
    INT("integer"),
    LONG("long integer"),
    DOUBLE("number"),
    STRING("string"),
    LIST("list of strings"),
    INT_MAP("map of names to integers"),
    STRING_MAP("map of names to strings"),
    PROPERTIES("map of Kafka client properties");

    private final String description;

    SettingType(String description) {
        this.description = description;
    }

    /** A short human name for messages and the documented settings file, e.g. "long integer". */
    String description() {
        return description;
    }

    /**
     * Converts {@code raw} to this type's canonical value.
     *
     * @param problems receives one message per problem found (without the key), e.g. {@code expected an integer, got "x"}
     * @return the converted value, or empty when {@code problems} received at least one message
     */
    Optional<Object> coerce(Object raw, Consumer<String> problems) {
        if (raw == null) {
            problems.accept("expected " + article(description) + ", got no value");
            return Optional.empty();
        }
        Object value = switch (this) {
            case BOOLEAN -> toBoolean(raw);
            case INT -> toInt(raw);
            case LONG -> toLong(raw);
            case DOUBLE -> toDouble(raw);
            case STRING -> toStringValue(raw);
            case LIST -> toList(raw, problems);
            case INT_MAP -> toMap(raw, this, INT, problems);
            case STRING_MAP -> toMap(raw, this, STRING, problems);
            case PROPERTIES -> toProperties(raw, problems);
        };
        if (value == null) {
            if (this != LIST && this != INT_MAP && this != STRING_MAP && this != PROPERTIES) {
                problems.accept("expected " + article(description) + ", got " + show(raw));
            }
            return Optional.empty();
        }
        return Optional.of(value);
    }

    private static Boolean toBoolean(Object raw) {
        if (raw instanceof Boolean b) {
            return b;
        }
        if (raw instanceof String s) {
            String t = s.trim();
            if (t.equalsIgnoreCase("true")) {
                return Boolean.TRUE;
            }
            if (t.equalsIgnoreCase("false")) {
                return Boolean.FALSE;
            }
        }
        return null;
    }

    private static Integer toInt(Object raw) {
        BigInteger big = toBigInteger(raw);
        if (big == null || big.bitLength() > 31) {
            return null;
        }
        return big.intValue();
    }

    private static Long toLong(Object raw) {
        BigInteger big = toBigInteger(raw);
        if (big == null || big.bitLength() > 63) {
            return null;
        }
        return big.longValue();
    }

    private static BigInteger toBigInteger(Object raw) {
        if (raw instanceof Integer || raw instanceof Long || raw instanceof Short || raw instanceof Byte) {
            return BigInteger.valueOf(((Number) raw).longValue());
        }
        if (raw instanceof BigInteger big) {
            return big;
        }
        if (raw instanceof String s) {
            try {
                return new BigInteger(s.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    private static Double toDouble(Object raw) {
        double d;
        if (raw instanceof Number n && !(raw instanceof BigDecimal)) {
            d = n.doubleValue();
        } else if (raw instanceof BigDecimal big) {
            d = big.doubleValue();
        } else if (raw instanceof String s) {
            try {
                d = Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        } else {
            return null;
        }
        return Double.isFinite(d) ? d : null;
    }

    private static String toStringValue(Object raw) {
        if (raw instanceof String s) {
            return s;
        }
        if (raw instanceof Integer || raw instanceof Long || raw instanceof BigInteger || raw instanceof Double) {
            return raw.toString();
        }
        return null;
    }

    private static List<String> toList(Object raw, Consumer<String> problems) {
        if (raw instanceof String s) {
            return List.of(s);
        }
        if (!(raw instanceof List<?> list)) {
            problems.accept("expected " + article(LIST.description) + ", got " + show(raw));
            return null;
        }
        List<String> out = new ArrayList<>(list.size());
        boolean ok = true;
        for (int i = 0; i < list.size(); i++) {
            String element = list.get(i) == null ? null : toStringValue(list.get(i));
            if (element == null) {
                problems.accept("element " + i + ": expected a string, got " + show(list.get(i)));
                ok = false;
            } else {
                out.add(element);
            }
        }
        return ok ? List.copyOf(out) : null;
    }

    private static Map<String, Object> toMap(Object raw, SettingType mapType, SettingType valueType,
                                             Consumer<String> problems) {
        if (!(raw instanceof Map<?, ?> map)) {
            problems.accept("expected " + article(mapType.description) + ", got " + show(raw));
            return null;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        boolean ok = true;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (!(entry.getKey() instanceof String name)) {
                problems.accept("entry " + show(entry.getKey()) + ": names must be strings");
                ok = false;
                continue;
            }
            boolean[] entryOk = {true};
            Optional<Object> value = valueType.coerce(entry.getValue(), p -> {
                problems.accept("entry \"" + name + "\": " + p);
                entryOk[0] = false;
            });
            if (entryOk[0] && value.isPresent()) {
                out.put(name, value.get());
            } else {
                ok = false;
            }
        }
        return ok ? Collections.unmodifiableMap(out) : null;
    }

    private static Map<String, String> toProperties(Object raw, Consumer<String> problems) {
        if (!(raw instanceof Map<?, ?> map)) {
            // the value itself is not shown: it may hold a secret written in the wrong place
            problems.accept("expected " + article(PROPERTIES.description) + " (name: value entries), got "
                    + kind(raw));
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>();
        return flatten("", map, out, problems) ? Collections.unmodifiableMap(out) : null;
    }

    private static boolean flatten(String prefix, Map<?, ?> map, Map<String, String> out, Consumer<String> problems) {
        boolean ok = true;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (!(entry.getKey() instanceof String key) || key.isBlank()) {
                problems.accept("entry " + show(entry.getKey()) + ": names must be non-empty strings");
                ok = false;
                continue;
            }
            String name = prefix + key.trim();
            Object value = entry.getValue();
            if (value instanceof Map<?, ?> nested) {
                ok &= flatten(name + ".", nested, out, problems);
                continue;
            }
            String text = value instanceof Boolean b ? b.toString() : value == null ? null : toStringValue(value);
            if (value instanceof BigDecimal big) {
                text = big.toPlainString();
            }
            if (text == null) {
                problems.accept("entry \"" + name + "\": expected a string, number or boolean, got "
                        + (KafkaProperties.isSecret(name) ? kind(value) : show(value)));
                ok = false;
            } else {
                out.put(name, text);
            }
        }
        return ok;
    }

    /** The kind of a raw value without the value, e.g. "a list". */
    static String kind(Object raw) {
        String shown = show(raw);
        int space = shown.indexOf(' ', shown.startsWith("a ") || shown.startsWith("an ") ? shown.indexOf(' ') + 1 : 0);
        return raw == null || space < 0 ? shown : shown.substring(0, space);
    }

    /** Renders a raw value for an error message: strings quoted, long values shortened, with their kind. */
    static String show(Object raw) {
        if (raw == null) {
            return "no value";
        }
        String kind;
        String text;
        if (raw instanceof String s) {
            kind = "a string";
            text = '"' + s + '"';
        } else if (raw instanceof Boolean) {
            kind = "a boolean";
            text = raw.toString();
        } else if (raw instanceof Number) {
            kind = "a number";
            text = raw.toString();
        } else if (raw instanceof List) {
            kind = "a list";
            text = raw.toString();
        } else if (raw instanceof Map) {
            kind = "a map";
            text = raw.toString();
        } else {
            kind = "a " + raw.getClass().getSimpleName();
            text = String.valueOf(raw);
        }
        if (text.length() > 80) {
            text = text.substring(0, 77) + "...";
        }
        return kind + " " + text;
    }

    private static String article(String noun) {
        return ("aeiou".indexOf(noun.charAt(0)) >= 0 ? "an " : "a ") + noun;
    }
}

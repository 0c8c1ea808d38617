package dev.bullet.querying;

import com.google.re2j.Pattern;
import dev.bullet.query.Clause;
import dev.bullet.query.FilterValue;
import dev.bullet.query.Operation;
import dev.bullet.query.ValueType;
import dev.bullet.query.Values;
import dev.bullet.record.FieldPath;
import dev.bullet.record.Record;
import dev.bullet.regex.RegexDfa;
import dev.bullet.regex.RegexGate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compiles validated {@link Clause}s into {@link RecordPredicate}s with the exact semantics of SPEC §6.2.
 * Literals are cast once here, never per record; regular expressions run on RE2/J (linear time).
 */
public final class Predicates {
    private Predicates() {
    }

    /** The predicate of a clause; {@code null} clause matches everything. */
    public static RecordPredicate compile(Clause clause) {
        if (clause == null) {
            return RecordPredicate.ALWAYS;
        }
        if (clause instanceof Clause.Logical) {
            return logical((Clause.Logical) clause);
        }
        return relational((Clause.Relational) clause);
    }

    private static RecordPredicate logical(Clause.Logical clause) {
        List<Clause> clauses = clause.clauses();
        RecordPredicate[] parts = new RecordPredicate[clauses.size()];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = compile(clauses.get(i));
        }
        switch (clause.operation()) {
            case NOT: {
                RecordPredicate inner = parts[0];
                return record -> !inner.test(record);
            }
            case OR:
                return record -> {
                    for (RecordPredicate p : parts) {
                        if (p.test(record)) {
                            return true;
                        }
                    }
                    return false;
                };
            default:
                return record -> {
                    for (RecordPredicate p : parts) {
                        if (!p.test(record)) {
                            return false;
                        }
                    }
                    return true;
                };
        }
    }

    private static RecordPredicate relational(Clause.Relational clause) {
        FieldPath field = clause.field();
        Operand[] operands = clause.values().stream().map(Operand::of).toArray(Operand[]::new);
        Operation op = clause.operation();
        switch (op) {
            case EQUALS:
                return record -> equalsAny(record.get(field), operands, record);
            case NOT_EQUALS:
                return record -> {
                    Object value = record.get(field);
                    return value != null && !equalsAny(value, operands, record);
                };
            case REGEX_LIKE: {
                Rlike[] patterns = clause.values().stream().map(v -> rlike(v.value())).toArray(Rlike[]::new);
                return record -> regexAny(record.get(field), patterns);
            }
            case SIZE_IS:
                return record -> sizeIsAny(record.get(field), operands, record);
            case CONTAINS_KEY:
                return record -> containsKeyAny(record.get(field), operands, record);
            case CONTAINS_VALUE:
                return record -> containsValueAny(record.get(field), operands, record);
            default:
                return record -> rangeAny(record.get(field), op, operands, record);
        }
    }

    /** Patterns compiled (with their gates) lately on this thread: a query submitted again (a restarted RAW query, a dashboard opened
     * by many) does not compile its pattern again. Per thread, so no two Filter tasks share an RE2 matcher pool. */
    private static final int PATTERN_CACHE = 4096;
    private static final ThreadLocal<Map<String, Rlike>> PATTERNS = ThreadLocal.withInitial(
            () -> new LinkedHashMap<>(256, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Rlike> eldest) {
                    return size() > PATTERN_CACHE;
                }
            });

    /**
     * A pattern compiled, the gate a value passes before it runs ({@link RegexGate}), and its last answers: the values
     * of a field repeat (a few hundred words, a status, a host), and a pattern no literal can gate
     * ({@code .*[0-9]{2}.*}) would otherwise run RE2 on every one. The answers sit in a small direct-mapped table of
     * (value, answer) pairs, each one immutable object, so a query compiled on one thread and run on another can only
     * miss, never read an answer for another value.
     */
    private static final class Rlike {
        /** Slots of the table of answers (a power of two). */
        static final int MEMO_SLOTS = 64;
        /** Longer values are not remembered: they repeat less, and the table must stay small. */
        static final int MEMO_MAX_LENGTH = 64;
        /** States a pattern's whole DFA may take to be used here. */
        static final int MAX_DFA_STATES = 256;
        final Pattern pattern;
        final RegexGate gate;
        /** The pattern's whole DFA, which answers for ASCII values (threads share it: it never changes); or null. */
        final RegexDfa dfa;
        private final Answer[] answers = new Answer[MEMO_SLOTS];

        Rlike(Pattern pattern, RegexGate gate, RegexDfa dfa) {
            this.pattern = pattern;
            this.gate = gate;
            this.dfa = dfa;
        }

        Pattern pattern() {
            return pattern;
        }

        boolean matches(String text) {
            if (dfa != null) {
                int state = dfa.run(text);
                if (state != RegexDfa.NOT_ASCII) {
                    return dfa.accepts(state).length > 0;
                }
            }
            if (!gate.admits(text)) {
                return false;
            }
            if (text.length() > MEMO_MAX_LENGTH) {
                return rlikeMatches(pattern, text);
            }
            int h = text.hashCode();
            int slot = (h ^ (h >>> 16)) & (MEMO_SLOTS - 1);
            Answer known = answers[slot];
            if (known != null && known.value().equals(text)) {
                return known.matches();
            }
            boolean matches = rlikeMatches(pattern, text);
            answers[slot] = new Answer(text, matches);
            return matches;
        }
    }

    /** Whether the pattern matches this value: written once, read by whoever finds it. */
    private record Answer(String value, boolean matches) {
    }

    private static Rlike rlike(String regex) {
        Map<String, Rlike> cache = PATTERNS.get();
        Rlike r = cache.get(regex);
        if (r == null) {
            r = new Rlike(Pattern.compile(regex), RegexGate.of(regex), RegexDfa.complete(regex, Rlike.MAX_DFA_STATES));
            cache.put(regex, r);
        }
        return r;
    }

    /** The compiled form of an RLIKE pattern: RE2/J, so matching runs in linear time even on hostile patterns. */
    public static Pattern rlikePattern(String regex) {
        return rlike(regex).pattern();
    }

    /**
     * The RLIKE rule (SPEC §6.2), the one place it lives: the pattern must match the <b>whole</b> value, as Java's
     * {@code matches} in the original Bullet, not find a match inside it ({@code .*root.*} finds {@code root}
     * anywhere). Anything that prefilters RLIKE must agree with this.
     */
    public static boolean rlikeMatches(Pattern pattern, CharSequence text) {
        return pattern.matcher(text).matches();
    }

    static boolean equalsAny(Object value, Operand[] operands, Record record) {
        for (Operand operand : operands) {
            if (operand.isNull) {
                if (value == null) {
                    return true;
                }
            } else if (value != null && operand.compareTo(value, record) == 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean rangeAny(Object value, Operation op, Operand[] operands, Record record) {
        if (value == null) {
            return false;
        }
        for (Operand operand : operands) {
            int c = operand.compareTo(value, record);
            if (c == Values.INCOMPARABLE) {
                continue;
            }
            boolean match;
            switch (op) {
                case GREATER_THAN:
                    match = c > 0;
                    break;
                case LESS_THAN:
                    match = c < 0;
                    break;
                case GREATER_EQUALS:
                    match = c >= 0;
                    break;
                default:
                    match = c <= 0;
                    break;
            }
            if (match) {
                return true;
            }
        }
        return false;
    }

    private static boolean regexAny(Object value, Rlike[] patterns) {
        if (value == null || value instanceof Map || value instanceof List) {
            return false;
        }
        String text = value instanceof String ? (String) value : String.valueOf(value);
        for (Rlike p : patterns) {
            if (p.matches(text)) {
                return true;
            }
        }
        return false;
    }

    private static boolean sizeIsAny(Object value, Operand[] operands, Record record) {
        long size;
        if (value instanceof List) {
            size = ((List<?>) value).size();
        } else if (value instanceof Map) {
            size = ((Map<?, ?>) value).size();
        } else if (value instanceof String) {
            size = ((String) value).length();
        } else {
            return false;
        }
        Long boxed = size;
        for (Operand operand : operands) {
            if (operand.compareTo(boxed, record) == 0) {
                return true;
            }
        }
        return false;
    }

    /** CONTAINSKEY: the map has the key, or one of its inner maps does; a list is searched through its maps. */
    private static boolean containsKeyAny(Object value, Operand[] operands, Record record) {
        if (value instanceof Map) {
            Map<?, ?> map = (Map<?, ?>) value;
            return mapHasKey(map, operands, record) || innerMapHasKey(map.values(), operands, record);
        }
        if (value instanceof List) {
            return innerMapHasKey((List<?>) value, operands, record);
        }
        return false;
    }

    private static boolean innerMapHasKey(Iterable<?> elements, Operand[] operands, Record record) {
        for (Object element : elements) {
            if (element instanceof Map && mapHasKey((Map<?, ?>) element, operands, record)) {
                return true;
            }
        }
        return false;
    }

    private static boolean mapHasKey(Map<?, ?> map, Operand[] operands, Record record) {
        for (Operand operand : operands) {
            Object key = operand.resolve(record);
            if (key != null && map.containsKey(key instanceof String ? key : String.valueOf(key))) {
                return true;
            }
        }
        return false;
    }

    /**
     * CONTAINSVALUE: one of the map's values or the list's elements equals the value, or, for an element that is
     * itself a map, one of that inner map's primitive values does (one level down, as the original).
     */
    private static boolean containsValueAny(Object value, Operand[] operands, Record record) {
        if (value instanceof Map) {
            return elementsContain(((Map<?, ?>) value).values(), operands, record);
        }
        if (value instanceof List) {
            return elementsContain((List<?>) value, operands, record);
        }
        return false;
    }

    private static boolean elementsContain(Iterable<?> elements, Operand[] operands, Record record) {
        for (Object element : elements) {
            if (element instanceof Map) {
                if (primitiveEquals(((Map<?, ?>) element).values(), operands, record)) {
                    return true;
                }
            } else if (isPrimitive(element) && equalsAny(element, operands, record)) {
                return true;
            }
        }
        return false;
    }

    private static boolean primitiveEquals(Iterable<?> values, Operand[] operands, Record record) {
        for (Object element : values) {
            if (isPrimitive(element) && equalsAny(element, operands, record)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isPrimitive(Object value) {
        return value != null && !(value instanceof Map) && !(value instanceof List);
    }

    /**
     * One entry of {@code values}, pre-cast: a literal keeps its string, long, double and boolean readings so the
     * comparison picks the one matching the field's runtime type without parsing per record.
     */
    static final class Operand {
        final boolean isNull;
        final String text;
        final Long asLong;
        final Double asDouble;
        final Boolean asBoolean;
        final Object typed;
        final boolean hasType;
        final FieldPath field;
        final ValueType fieldType;

        private Operand(FilterValue v) {
            this.isNull = v.isNull();
            this.field = v.kind() == FilterValue.Kind.FIELD ? v.field() : null;
            this.fieldType = field != null ? v.type() : null;
            this.hasType = field == null && v.type() != null;
            this.text = field == null ? v.value() : null;
            this.typed = hasType ? v.type().cast(text) : null;
            Object n = text == null ? null : Values.asNumber(text);
            this.asLong = n instanceof Long ? (Long) n : n instanceof Double && isWhole((Double) n) ? Long.valueOf(((Double) n).longValue()) : null;
            this.asDouble = n == null ? null : ((Number) n).doubleValue();
            this.asBoolean = text == null ? null : (Boolean) ValueType.BOOLEAN.cast(text);
        }

        static Operand of(FilterValue v) {
            return new Operand(v);
        }

        private static boolean isWhole(double d) {
            return d == Math.rint(d) && Math.abs(d) < 9.0e18;
        }

        /** The operand's value for a key lookup or equality: the literal, or the other field's value. */
        Object resolve(Record record) {
            if (field != null) {
                return Values.cast(record.get(field), fieldType);
            }
            return hasType ? typed : text;
        }

        /** Sign of (value - operand), or {@link Values#INCOMPARABLE}. {@code value} is non-null. */
        int compareTo(Object value, Record record) {
            if (isNull) {
                return Values.INCOMPARABLE;
            }
            if (field != null) {
                Object other = Values.cast(record.get(field), fieldType);
                return other == null ? Values.INCOMPARABLE : Values.compare(value, other);
            }
            if (hasType) {
                return typed == null ? Values.INCOMPARABLE : Values.compare(value, typed);
            }
            if (value instanceof String) {
                return Integer.signum(((String) value).compareTo(text));
            }
            if (value instanceof Long) {
                if (asLong != null && (asDouble == null || asDouble == asLong.doubleValue())) {
                    return Long.compare((Long) value, asLong);
                }
                return asDouble == null ? Values.INCOMPARABLE : Values.compareNumbers((Long) value, asDouble);
            }
            if (value instanceof Number) {
                return asDouble == null ? Values.INCOMPARABLE : Values.compareNumbers((Number) value, asDouble);
            }
            if (value instanceof Boolean) {
                return asBoolean == null ? Values.INCOMPARABLE : Boolean.compare((Boolean) value, asBoolean);
            }
            return Values.INCOMPARABLE;
        }
    }
}

package dev.bullet.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A check on one setting's value, after it was converted to the setting's {@link SettingType}. Each validator also
 * describes itself for the documented settings file ({@code 1..1000}, {@code one of: latest, earliest}).
 */
interface Validator {

    /** Accepts anything. */
    Validator ANY = of("", v -> Optional.empty());

    /** A problem with {@code value} (without the key, e.g. {@code must be at least 1, got 0}), or empty when valid. */
    Optional<String> check(Object value);

    /** The rule in a few words for the documentation, e.g. {@code 1..1000}; empty when there is no rule. */
    String describe();

    static Validator of(String description, Function<Object, Optional<String>> check) {
        return new Validator() {
            @Override
            public Optional<String> check(Object value) {
                return check.apply(value);
            }

            @Override
            public String describe() {
                return description;
            }
        };
    }

    /** Both this and {@code other} must hold; the first problem found is reported. */
    default Validator and(Validator other) {
        Validator self = this;
        String description = self.describe().isEmpty() ? other.describe()
                : other.describe().isEmpty() ? self.describe() : self.describe() + ", " + other.describe();
        return of(description, v -> {
            Optional<String> problem = self.check(v);
            return problem.isPresent() ? problem : other.check(v);
        });
    }

    /** A number at least {@code min}. */
    static Validator atLeast(Number min) {
        return between(min, null);
    }

    /** A number in {@code [min, max]}; a null bound is open. Integral bounds compare exactly, others as doubles. */
    static Validator between(Number min, Number max) {
        String description = max == null ? ">= " + min : min == null ? "<= " + max : min + ".." + max;
        return of(description, v -> {
            Number n = (Number) v;
            boolean tooLow = min != null && compare(n, min) < 0;
            boolean tooHigh = max != null && compare(n, max) > 0;
            if (!tooLow && !tooHigh) {
                return Optional.empty();
            }
            String range = max == null ? "at least " + min : min == null ? "at most " + max
                    : "between " + min + " and " + max;
            return Optional.of("must be " + range + ", got " + v);
        });
    }

    /** An integer that is a power of two in {@code [min, max]} (sketch sizes: DataSketches needs powers of two). */
    static Validator powerOfTwo(long min, long max) {
        return of("power of two, " + min + ".." + max, v -> {
            long n = ((Number) v).longValue();
            if (n >= min && n <= max && Long.bitCount(n) == 1) {
                return Optional.empty();
            }
            return Optional.of("must be a power of two between " + min + " and " + max + ", got " + v);
        });
    }

    /** A string, or every string of a list, that is not blank; a list must also not be empty. */
    static Validator nonEmpty() {
        return of("non-empty", v -> {
            if (v instanceof String s) {
                return s.isBlank() ? Optional.of("must not be empty") : Optional.empty();
            }
            List<?> list = (List<?>) v;
            if (list.isEmpty()) {
                return Optional.of("must not be an empty list");
            }
            for (int i = 0; i < list.size(); i++) {
                if (((String) list.get(i)).isBlank()) {
                    return Optional.of("element " + i + " must not be empty");
                }
            }
            return Optional.empty();
        });
    }

    /** Every string of a list is not blank; the list itself may be empty. */
    static Validator noBlankElements() {
        return of("", v -> {
            List<?> list = (List<?>) v;
            for (int i = 0; i < list.size(); i++) {
                if (((String) list.get(i)).isBlank()) {
                    return Optional.of("element " + i + " must not be empty");
                }
            }
            return Optional.empty();
        });
    }

    /** Browser origins: each {@code http://} or {@code https://} a host, an optional port, nothing after it. */
    static Validator origins() {
        return eachElement("origins scheme://host[:port]", e -> HostPatterns.ORIGIN.matcher(e).matches(),
                           "an origin as a browser sends it, http:// or https:// then a host and an optional port"
                           + " (no path)");
    }

    /** Host header values: {@code *}, or a host name or address with an optional port. */
    static Validator hosts() {
        return eachElement("host[:port] or *", e -> e.equals("*") || HostPatterns.HOST.matcher(e).matches(),
                           "a host name or address with an optional :port, or * alone for any host (no scheme, path or"
                           + " wildcard)");
    }

    /** A list whose every element, trimmed, passes {@code fits}; the first that does not is named, with {@code shape}. */
    private static Validator eachElement(String description, Predicate<String> fits, String shape) {
        return of(description, v -> {
            List<?> list = (List<?>) v;
            for (int i = 0; i < list.size(); i++) {
                String e = ((String) list.get(i)).trim();
                if (!fits.test(e)) {
                    return Optional.of("element " + i + " (\"" + e + "\") must be " + shape);
                }
            }
            return Optional.empty();
        });
    }

    /** A string equal to one of {@code choices}. */
    static Validator oneOf(String... choices) {
        List<String> allowed = List.of(choices);
        return of("one of: " + String.join(", ", allowed), v -> allowed.contains(v) ? Optional.empty()
                : Optional.of("must be one of " + allowed + ", got \"" + v + "\""));
    }

    /** A comma-separated list of {@code host:port} (Kafka's {@code bootstrap.servers}). */
    static Validator hostPorts() {
        Pattern hostPort = Pattern.compile("[^\\s,:]+(:[^\\s,:]+)*:\\d{1,5}|\\[[0-9a-fA-F:.]+]:\\d{1,5}");
        return of("host:port[,host:port...]", v -> {
            for (String part : ((String) v).split(",", -1)) {
                if (!hostPort.matcher(part.trim()).matches()) {
                    return Optional.of("must be a comma-separated list of host:port, got \"" + v + "\"");
                }
            }
            return Optional.empty();
        });
    }

    /** Every value of a map passes {@code values}. */
    static Validator eachValue(Validator values) {
        return of("values " + values.describe(), v -> {
            for (Map.Entry<?, ?> entry : ((Map<?, ?>) v).entrySet()) {
                Optional<String> problem = values.check(entry.getValue());
                if (problem.isPresent()) {
                    return Optional.of("entry \"" + entry.getKey() + "\": " + problem.get());
                }
            }
            return Optional.empty();
        });
    }

    /** Every name of a map is one of {@code names}. */
    static Validator namesIn(Collection<String> names) {
        Set<String> allowed = Set.copyOf(names);
        return of("known names", v -> {
            List<String> unknown = new ArrayList<>();
            for (Object name : ((Map<?, ?>) v).keySet()) {
                if (!allowed.contains(name)) {
                    unknown.add((String) name);
                }
            }
            return unknown.isEmpty() ? Optional.empty()
                    : Optional.of("unknown names " + unknown + "; the names are " + names);
        });
    }

    private static int compare(Number value, Number bound) {
        boolean integral = !(value instanceof Double || value instanceof Float)
                && !(bound instanceof Double || bound instanceof Float);
        return integral ? Long.compare(value.longValue(), bound.longValue())
                : Double.compare(value.doubleValue(), bound.doubleValue());
    }
}

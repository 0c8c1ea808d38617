package dev.bullet.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The definition of one setting: its key, type, default, rule and one-line documentation, plus the section of the
 * documented settings file it appears in. Defined once, in {@link SettingsTable}.
 *
 * @param defaultValue   the canonical default (see {@link SettingType}), or null for a key that is unset unless the
 *                       user sets it (its meaning then comes from another key, e.g. the seed's tick interval)
 * @param commentedValue null for a key the settings file shows with its default; otherwise the value the file shows
 *                       commented out, so that the key stays unset (which matters when another key depends on
 *                       whether this one is set)
 */
record Setting(String name, SettingType type, Object defaultValue, Validator validator, String doc, String section,
               Object commentedValue) {

    Setting {
        if (!name.startsWith("bullet.")) {
            throw new IllegalArgumentException("Setting keys start with 'bullet.': " + name);
        }
        if (defaultValue == null && commentedValue == null) {
            throw new IllegalArgumentException("A setting without a default must be shown commented out: " + name);
        }
        defaultValue = canonical(name, type, validator, defaultValue);
        commentedValue = canonical(name, type, validator, commentedValue);
    }

    /** Whether the settings file shows this key commented out. */
    boolean commented() {
        return commentedValue != null;
    }

    /** The value the settings file shows: the commented-out example, else the default. */
    Object documentedValue() {
        return commented() ? commentedValue : defaultValue;
    }

    /** Converts and validates a raw value; problems (without the key) go to {@code problems}. */
    Optional<Object> parse(Object raw, List<String> problems) {
        int before = problems.size();
        Optional<Object> value = type.coerce(raw, problems::add);
        if (problems.size() > before || value.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> problem = validator.check(value.get());
        if (problem.isPresent()) {
            problems.add(problem.get());
            return Optional.empty();
        }
        return value;
    }

    private static Object canonical(String name, SettingType type, Validator validator, Object value) {
        if (value == null) {
            return null;
        }
        List<String> problems = new ArrayList<>();
        Optional<Object> canonical = type.coerce(value, problems::add);
        canonical.flatMap(validator::check).ifPresent(problems::add);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("Bad built-in value for " + name + ": " + value + " " + problems);
        }
        return canonical.get();
    }
}

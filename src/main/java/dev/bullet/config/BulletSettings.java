package dev.bullet.config;

import dev.bullet.common.Limits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The validated, immutable settings of one Bullet deployment (SPEC §4), built from layers: the built-in defaults of
 * {@link SettingsTable} ← YAML files ({@code --bullet-conf}) ← overrides (command-line flags). Serializable, so the
 * topology ships one instance to every component in its constructor.
 *
 * <p>Loading checks everything and reports every problem at once in a {@link SettingsException}: an unknown
 * {@code bullet.} key (with a suggestion for a likely typo), a value of the wrong type, a value out of range, a broken
 * rule between keys, an unreadable file. Keys that do not start with {@code bullet.} (Storm's {@code topology.*},
 * anything else) are not checked and are kept in {@link #passthrough()}.
 *
 * <p>Layering: a later layer replaces a scalar or list value and merges a map entry by entry. Numeric strings are
 * accepted for numbers and {@code "true"}/{@code "false"} for booleans, so flags can be passed as strings.
 *
 * <p>Reading a key that {@link SettingsTable} does not define, or with the getter of another type, is a bug and throws
 * {@link IllegalArgumentException}. A getter may widen: {@code getLong} reads an integer, {@code getDouble} any number.
 */
public final class BulletSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    private static final String OVERRIDES = "overrides";
    private static final Logger LOG = LoggerFactory.getLogger(BulletSettings.class);

    /** Effective value of every defined key that has one (canonical types, see {@link SettingType}). */
    private final Map<String, Object> values;
    /** Keys set by a YAML file or an override, as opposed to left at their default. */
    private final Set<String> explicitlySet;
    /** Keys outside {@code bullet.}, with their values as given. */
    private final Map<String, Object> passthrough;
    /** What loading noted without refusing: the original Bullet's keys that have no effect here. */
    private final List<String> warnings;

    private BulletSettings(Map<String, Object> values, Set<String> explicitlySet, Map<String, Object> passthrough,
                           List<String> warnings) {
        this.values = values;
        this.explicitlySet = explicitlySet;
        this.passthrough = passthrough;
        this.warnings = warnings;
    }

    /** The built-in defaults alone. */
    public static BulletSettings defaults() {
        return builder().build();
    }

    /**
     * Defaults ← {@code bulletConf} ← {@code overrides}.
     *
     * @param bulletConf the {@code --bullet-conf} YAML file, or null for none
     * @param overrides  key → value from flags (strings are fine), applied last
     * @throws SettingsException listing every problem found
     */
    public static BulletSettings load(Path bulletConf, Map<String, ?> overrides) {
        Builder builder = builder();
        if (bulletConf != null) {
            builder.yaml(bulletConf);
        }
        BulletSettings settings = builder.overrides(overrides).build();
        settings.warnings().forEach(LOG::warn);
        return settings;
    }

    /**
     * What loading noted without refusing: keys of the original Bullet's settings that have no effect here, each
     * with why (logged as warnings by {@link #load}).
     */
    public List<String> warnings() {
        return warnings;
    }

    /**
     * The settings a topology was submitted with, read back from its Storm config in a task (the {@code bullet.*}
     * keys; Storm's own keys are ignored). Values that Storm turned into other number types are accepted.
     *
     * @throws SettingsException listing every problem found
     */
    public static BulletSettings fromTopologyConfig(Map<String, ?> stormConf) {
        Map<String, Object> bullet = new LinkedHashMap<>();
        stormConf.forEach((key, value) -> {
            if (key.startsWith("bullet.") && value != null) {
                bullet.put(key, value);
            }
        });
        return builder().overrides(bullet).build();
    }

    /** These settings with more overrides applied (validated again). */
    public BulletSettings withOverrides(Map<String, ?> more) {
        Map<String, Object> layer = new LinkedHashMap<>();
        for (String key : explicitlySet) {
            layer.put(key, values.get(key));
        }
        layer.putAll(passthrough);
        return builder().overrides(layer).overrides(more).build();
    }

    /** A builder for more layers, or YAML given as text. */
    public static Builder builder() {
        return new Builder();
    }

    /** The bounds on what users send ({@link Limits}), from their settings. */
    public Limits limits() {
        return new Limits(getInt(SettingsTable.QUERY_MAX_DEPTH), getInt(SettingsTable.QUERY_MAX_CLAUSES),
                          getInt(SettingsTable.QUERY_MAX_VALUES), getInt(SettingsTable.QUERY_MAX_REGEX_LENGTH),
                          getInt(SettingsTable.RECORD_MAX_DEPTH), getInt(SettingsTable.RECORD_MAX_BYTES));
    }

    /** The value of an {@code INT} key. */
    public int getInt(String key) {
        return (Integer) typed(key, SettingType.INT);
    }

    /** The value of a {@code LONG} (or {@code INT}) key. */
    public long getLong(String key) {
        return ((Number) typed(key, SettingType.LONG, SettingType.INT)).longValue();
    }

    /** The value of a {@code DOUBLE} (or integral) key. */
    public double getDouble(String key) {
        return ((Number) typed(key, SettingType.DOUBLE, SettingType.LONG, SettingType.INT)).doubleValue();
    }

    /** The value of a {@code BOOLEAN} key. */
    public boolean getBoolean(String key) {
        return (Boolean) typed(key, SettingType.BOOLEAN);
    }

    /** The value of a {@code STRING} key. */
    public String getString(String key) {
        return (String) typed(key, SettingType.STRING);
    }

    /** The unmodifiable value of a {@code LIST} key. */
    @SuppressWarnings("unchecked")
    public List<String> getList(String key) {
        return (List<String>) typed(key, SettingType.LIST);
    }

    /** The unmodifiable, ordered value of a map-of-integers key, e.g. the metric emit interval mapping. */
    @SuppressWarnings("unchecked")
    public Map<String, Integer> getIntMap(String key) {
        return (Map<String, Integer>) typed(key, SettingType.INT_MAP);
    }

    /** The unmodifiable, ordered value of a map-of-strings key, e.g. the metadata renames. */
    @SuppressWarnings("unchecked")
    public Map<String, String> getStringMap(String key) {
        return (Map<String, String>) typed(key, SettingType.STRING_MAP);
    }

    /**
     * The unmodifiable, ordered value of a map of Kafka client properties (name → value as text), e.g.
     * {@link SettingsTable#PUBSUB_KAFKA_PROPERTIES}. Its secret values must not be logged: show it through
     * {@link KafkaProperties#masked}.
     */
    @SuppressWarnings("unchecked")
    public Map<String, String> getProperties(String key) {
        return (Map<String, String>) typed(key, SettingType.PROPERTIES);
    }

    /** Whether {@code key} was set by a YAML file or an override rather than left at its default. */
    public boolean isSet(String key) {
        definition(key);
        return explicitlySet.contains(key);
    }

    /**
     * The tick interval in ms: {@code bullet.topology.tick.spout.interval.ms} if set, else the seed's
     * {@code bullet.topology.tick.interval.secs} if set, else the default of the {@code .ms} key.
     */
    public long tickIntervalMs() {
        if (!explicitlySet.contains(SettingsTable.TICK_SPOUT_INTERVAL_MS)
                && explicitlySet.contains(SettingsTable.TICK_INTERVAL_SECS)) {
            return getInt(SettingsTable.TICK_INTERVAL_SECS) * 1000L;
        }
        return getInt(SettingsTable.TICK_SPOUT_INTERVAL_MS);
    }

    /** Parallelism and resource loads of one component. */
    public ComponentSpec component(Component component) {
        return new ComponentSpec(getInt(component.parallelismKey()), getDouble(component.cpuLoadKey()),
                getDouble(component.onHeapMemoryKey()), getDouble(component.offHeapMemoryKey()));
    }

    /** Emit interval of a built-in metric in seconds: its own entry of the mapping, else the {@code default} entry. */
    public int metricEmitIntervalSecs(String metricName) {
        Map<String, Integer> mapping = getIntMap(SettingsTable.METRICS_BUILT_IN_EMIT_INTERVAL_MAPPING);
        return mapping.getOrDefault(metricName, mapping.get(SettingsTable.DEFAULT_METRIC_ENTRY));
    }

    /** The output name of a result metadata key given by its default name (SPEC §6.8), honouring renames. */
    public String metadataName(String defaultName) {
        if (!SettingsTable.METADATA_NAMES.contains(defaultName)) {
            throw new IllegalArgumentException("Not a result metadata key: " + defaultName
                    + "; known keys are " + SettingsTable.METADATA_NAMES);
        }
        return getStringMap(SettingsTable.RESULT_METADATA_METRICS).getOrDefault(defaultName, defaultName);
    }

    /** Unmodifiable keys outside {@code bullet.} from the YAML files and overrides, with their values as given. */
    public Map<String, Object> passthrough() {
        return passthrough;
    }

    /**
     * The effective settings, one {@code key: value} per line, sorted; unset keys are left out, and the secret values
     * of the Kafka client properties are {@value KafkaProperties#HIDDEN}.
     */
    @Override
    @SuppressWarnings("unchecked")
    public String toString() {
        StringBuilder out = new StringBuilder();
        new TreeMap<>(values).forEach((key, value) -> out.append(key).append(": ")
                .append(definition(key).type() == SettingType.PROPERTIES
                        ? KafkaProperties.masked((Map<String, String>) value) : value).append('\n'));
        new TreeMap<>(passthrough).forEach((key, value) -> out.append(key).append(": ").append(value).append('\n'));
        return out.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BulletSettings that && values.equals(that.values)
                && explicitlySet.equals(that.explicitlySet) && passthrough.equals(that.passthrough);
    }

    @Override
    public int hashCode() {
        return values.hashCode() * 31 + passthrough.hashCode();
    }

    /** The raw effective value of a defined key (for the rules in {@link SettingsTable}). */
    Object value(String key) {
        definition(key);
        Object value = values.get(key);
        if (value == null) {
            throw new IllegalArgumentException("Setting " + key + " is not set and has no default");
        }
        return value;
    }

    private Object typed(String key, SettingType... accepted) {
        Setting setting = definition(key);
        if (!List.of(accepted).contains(setting.type())) {
            throw new IllegalArgumentException("Setting " + key + " is " + setting.type() + ", not " + accepted[0]);
        }
        return value(key);
    }

    private static Setting definition(String key) {
        return SettingsTable.definition(key)
                .orElseThrow(() -> new IllegalArgumentException("Unknown setting: " + key));
    }

    /**
     * Collects layers in order — YAML files or texts as added, then the overrides — and checks them all in
     * {@link #build()}. Not thread-safe; use once.
     */
    public static final class Builder {
        private final List<Layer> layers = new ArrayList<>();
        private final Map<String, Object> overrides = new LinkedHashMap<>();
        private final List<String> problems = new ArrayList<>();
        private final List<String> warnings = new ArrayList<>();

        private Builder() {
        }

        /** Adds a YAML file as the next layer; an unreadable file is reported by {@link #build()}. */
        public Builder yaml(Path file) {
            try {
                return yaml(Files.readString(file, StandardCharsets.UTF_8), file.toString());
            } catch (IOException e) {
                problems.add("cannot read settings file " + file + ": " + e);
                return this;
            }
        }

        /** Adds YAML text as the next layer; {@code source} names it in messages (e.g. a file name). */
        public Builder yaml(String text, String source) {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            Object document;
            try {
                document = new Yaml(new SafeConstructor(options)).load(text);
            } catch (YAMLException e) {
                String detail = e.getMessage().strip().replace(" in 'string', ", " at ").replace("\n", "\n      ");
                problems.add("settings file " + source + " is not valid YAML: " + detail);
                return this;
            }
            if (document == null) {
                return this;
            }
            if (!(document instanceof Map<?, ?> map)) {
                problems.add("settings file " + source + " must be a map of keys to values, got "
                        + SettingType.show(document));
                return this;
            }
            layers.add(new Layer(source, map));
            return this;
        }

        /** Sets one override, applied after every YAML layer (e.g. a command-line flag). */
        public Builder override(String key, Object value) {
            overrides.put(key, value);
            return this;
        }

        /** Sets overrides, applied after every YAML layer (e.g. the command-line flags). */
        public Builder overrides(Map<String, ?> more) {
            overrides.putAll(more);
            return this;
        }

        /**
         * Applies the layers over the defaults and checks the result.
         *
         * @throws SettingsException listing every problem found
         */
        public BulletSettings build() {
            Map<String, Object> values = new LinkedHashMap<>();
            SettingsTable.DEFINITIONS.forEach((key, setting) -> {
                if (setting.defaultValue() != null) {
                    values.put(key, setting.defaultValue());
                }
            });
            Set<String> set = new HashSet<>();
            Set<String> badKeys = new HashSet<>();
            Map<String, Object> passthrough = new LinkedHashMap<>();
            List<Layer> all = new ArrayList<>(layers);
            if (!overrides.isEmpty()) {
                all.add(new Layer(OVERRIDES, overrides));
            }
            for (Layer layer : all) {
                for (Map.Entry<?, ?> entry : layer.entries().entrySet()) {
                    apply(layer.source(), entry.getKey(), entry.getValue(), values, set, badKeys, passthrough);
                }
            }
            BulletSettings settings = new BulletSettings(Collections.unmodifiableMap(values),
                    Collections.unmodifiableSet(new LinkedHashSet<>(set)), Collections.unmodifiableMap(passthrough),
                    List.copyOf(warnings));
            for (SettingsTable.CrossRule rule : SettingsTable.CROSS_RULES) {
                if (rule.keys().stream().noneMatch(badKeys::contains)) {
                    rule.check().apply(settings).ifPresent(problems::add);
                }
            }
            if (!problems.isEmpty()) {
                throw new SettingsException(problems);
            }
            return settings;
        }

        private void apply(String source, Object rawKey, Object raw, Map<String, Object> values, Set<String> set,
                           Set<String> badKeys, Map<String, Object> passthrough) {
            String where = " (in " + source + ")";
            if (!(rawKey instanceof String key)) {
                problems.add(SettingType.show(rawKey) + where + ": keys must be strings");
                return;
            }
            if (!key.equals("bullet") && !key.startsWith("bullet.")) {
                Optional<String> meant = meantBulletKey(key);
                if (meant.isPresent()) { // a typo of a Bullet key would otherwise reach Storm and do nothing
                    problems.add(key + where + ": not a Bullet setting (those start with \"bullet.\"), nor passed to"
                                 + " Storm as one; did you mean " + meant.get() + "?");
                    return;
                }
                passthrough.put(key, frozen(raw));
                return;
            }
            Optional<Setting> definition = SettingsTable.definition(key);
            Optional<Setting> properties = definition.isEmpty() ? propertiesMapOf(key) : Optional.empty();
            if (properties.isPresent()) {
                // "bullet.pubsub.kafka.properties.security.protocol: X" is the entry security.protocol of the map
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put(key.substring(properties.get().name().length() + 1), raw);
                apply(source, properties.get().name(), entry, values, set, badKeys, passthrough);
                return;
            }
            if (definition.isEmpty() && original(source, key, raw, values, set, badKeys, passthrough)) {
                return;
            }
            if (key.equals(SettingsTable.RESULT_METADATA_METRICS) && raw instanceof List<?> list) {
                List<String> unmatched = new ArrayList<>();
                Map<String, Object> renames = OriginalKeys.metadataMap(list, unmatched);
                if (!unmatched.isEmpty()) {
                    warnings.add(key + where + ": the original Bullet's list form, read as renames; no such metadata here"
                                 + " for " + String.join(", ", unmatched));
                }
                apply(source, key, renames, values, set, badKeys, passthrough);
                return;
            }
            if (definition.isEmpty()) {
                problems.add(key + where + ": unknown setting" + SettingsTable.closestKey(key)
                        .map(k -> "; did you mean " + k + "?")
                        .orElse(" (settings are flat dotted keys, see conf/bullet_settings.yaml)"));
                return;
            }
            Setting setting = definition.get();
            List<String> found = new ArrayList<>();
            Optional<Object> value = setting.parse(raw, found);
            if (value.isEmpty()) {
                badKeys.add(key);
                found.forEach(problem -> problems.add(key + where + ": " + problem));
                return;
            }
            Object previous = values.get(key);
            if (previous instanceof Map<?, ?> base) {
                Map<Object, Object> merged = new LinkedHashMap<>(base);
                merged.putAll((Map<?, ?>) value.get());
                values.put(key, Collections.unmodifiableMap(merged));
            } else {
                values.put(key, value.get());
            }
            set.add(key);
        }

        /**
         * A key of the original Bullet's settings that this project does not define ({@link OriginalKeys}): applied
         * under its name here, dropped with a warning, or refused. False when it is no such key.
         */
        private boolean original(String source, String key, Object raw, Map<String, Object> values, Set<String> set,
                                 Set<String> badKeys, Map<String, Object> passthrough) {
            Optional<OriginalKeys.Verdict> verdict = OriginalKeys.of(key, raw);
            if (verdict.isEmpty()) {
                return false;
            }
            String where = " (in " + source + ")";
            OriginalKeys.Verdict v = verdict.get();
            if (v.renamed() != null) {
                if (raw == null) {
                    return true; // left empty in the original's file: the setting here keeps its value
                }
                if (raw instanceof Double d && d.isInfinite()) { // core's .inf: no limit, which no setting here has
                    warnings.add(key + where + ": " + raw + " (no limit) is not taken; " + v.renamed() + " keeps its "
                                 + "value (every query here ends)");
                } else {
                    apply(source, v.renamed(), raw, values, set, badKeys, passthrough);
                }
            } else if (v.ignored() != null) {
                warnings.add(key + where + ": a setting of the original Bullet with no effect here: " + v.ignored());
            } else {
                problems.add(key + where + ": a setting of the original Bullet that cannot be honoured here: "
                             + v.refused());
            }
            return true;
        }

        /**
         * The Bullet key a key outside {@code bullet.} was meant to be: one that starts with "bullet" in another case
         * or spelling ({@code Bullet.query...}, {@code bullet_query_...}), or is a key of the table but for a letter or
         * two ({@code bulet.query.max.duration}).
         */
        private static Optional<String> meantBulletKey(String key) {
            String lower = key.toLowerCase(Locale.ROOT);
            if (lower.startsWith("bullet") || lower.startsWith("bulet")) {
                String dotted = "bullet." + lower.replaceFirst("^bul+et+[._-]?", "").replace('_', '.');
                return Optional.of(SettingsTable.closestKey(dotted).orElse("a key starting with \"bullet.\""));
            }
            Optional<String> close = SettingsTable.closestKey(key);
            return close.isPresent() && SettingsTable.editDistance(key, close.get()) <= 2 ? close : Optional.empty();
        }

        /** The map of Kafka client properties that {@code key} names an entry of (its name plus a dot, plus more). */
        private static Optional<Setting> propertiesMapOf(String key) {
            return SettingsTable.DEFINITIONS.values().stream()
                    .filter(s -> s.type() == SettingType.PROPERTIES && key.startsWith(s.name() + ".")
                            && key.length() > s.name().length() + 1)
                    .findFirst();
        }

        /** A deep, unmodifiable, serializable copy of a passthrough value. */
        private static Object frozen(Object raw) {
            if (raw instanceof List<?> list) {
                List<Object> copy = new ArrayList<>(list.size());
                list.forEach(element -> copy.add(frozen(element)));
                return Collections.unmodifiableList(copy);
            }
            if (raw instanceof Map<?, ?> map) {
                Map<Object, Object> copy = new LinkedHashMap<>();
                map.forEach((k, v) -> copy.put(k, frozen(v)));
                return Collections.unmodifiableMap(copy);
            }
            return raw;
        }
    }

    private record Layer(String source, Map<?, ?> entries) {
    }
}

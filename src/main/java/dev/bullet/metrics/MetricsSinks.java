package dev.bullet.metrics;

import dev.bullet.BulletException;
import dev.bullet.config.SettingsTable;

import java.util.List;
import java.util.Map;

/** Resolves {@code bullet.topology.metrics.classes} entries: aliases and class names, checked at submission. */
public final class MetricsSinks {
    public static final Map<String, Class<? extends MetricsSink>> ALIASES =
            Map.of("json-log", JsonLogSink.class, "prometheus", PrometheusSink.class);

    private MetricsSinks() {
    }

    /** The sink classes named by the settings; a name that is not a fitting class is an error naming it. */
    public static List<Class<? extends MetricsSink>> resolve(List<String> names) {
        return names.stream().<Class<? extends MetricsSink>>map(MetricsSinks::resolve).toList();
    }

    public static Class<? extends MetricsSink> resolve(String name) {
        String trimmed = name.trim();
        Class<? extends MetricsSink> alias = ALIASES.get(trimmed);
        if (alias != null) {
            return alias;
        }
        String key = SettingsTable.METRICS_CLASSES;
        Class<?> type;
        try {
            type = Class.forName(trimmed);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new BulletException(key + ": no class named '" + trimmed + "' (use json-log, prometheus, or the full "
                                      + "name of a class implementing " + MetricsSink.class.getName()
                                      + " or Storm's IMetricsConsumer)");
        }
        if (!MetricsSink.class.isAssignableFrom(type)) {
            throw new BulletException(key + ": " + trimmed + " implements neither " + MetricsSink.class.getName()
                                      + " nor Storm's IMetricsConsumer");
        }
        try {
            type.getConstructor();
        } catch (NoSuchMethodException e) {
            throw new BulletException(key + ": " + trimmed + " needs a public no-argument constructor");
        }
        return type.asSubclass(MetricsSink.class);
    }

    /** Instantiates a resolved sink class. */
    public static MetricsSink create(String name) {
        try {
            return resolve(name).getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new BulletException(SettingsTable.METRICS_CLASSES + ": cannot construct " + name + ": " + e, e);
        }
    }
}

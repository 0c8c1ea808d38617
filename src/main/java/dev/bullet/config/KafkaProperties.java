package dev.bullet.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The rules of the two maps of Kafka client properties ({@link SettingsTable#PUBSUB_KAFKA_PROPERTIES},
 * {@link SettingsTable#DATASOURCE_KAFKA_PROPERTIES}): which properties Bullet owns (refused in the map, each with the
 * reason and the setting to use instead), and which values are secrets (never shown in a message or a dump).
 *
 * <p>Everything else is passed to the Kafka clients as given, over Bullet's defaults; Kafka validates it when the
 * client is created, and resolves config provider references ({@code ${file:/path:key}}) itself.
 */
public final class KafkaProperties {
    /** What a secret value is shown as. */
    public static final String HIDDEN = "[hidden]";

    private static final String BYTES = "Bullet's messages are raw bytes; it sets the (de)serializers itself";

    /** Properties of the PubSub clients that Bullet sets itself: name → why. */
    public static final Map<String, String> PUBSUB_OWNED = owned(
            "bootstrap.servers", "set it with " + SettingsTable.PUBSUB_KAFKA_BOOTSTRAP_SERVERS,
            "group.id", "the query spout's group is named after " + SettingsTable.TOPOLOGY_NAME
                    + " and a REST instance reads its partitions without a group",
            "enable.auto.commit", "the query spout's group commits automatically and the REST instances do not commit",
            "key.serializer", BYTES, "value.serializer", BYTES,
            "key.deserializer", BYTES, "value.deserializer", BYTES);

    /** Properties of the firehose consumer (the DataSource spout) that Bullet sets itself: name → why. */
    public static final Map<String, String> DATASOURCE_OWNED = owned(
            "bootstrap.servers", "set it with " + SettingsTable.DATASOURCE_KAFKA_BOOTSTRAP_SERVERS,
            "group.id", "set it with " + SettingsTable.DATASOURCE_KAFKA_GROUP_ID,
            "auto.offset.reset", "set it with " + SettingsTable.DATASOURCE_KAFKA_AUTO_OFFSET_RESET,
            "enable.auto.commit", "the spout commits offsets itself, after a batch is acked (at-least-once)",
            "key.deserializer", BYTES, "value.deserializer", BYTES);

    /**
     * Names whose values are secrets: Kafka's PASSWORD-typed client properties and anything named like a password,
     * secret, token, credential, key material or JAAS configuration (including listener- and mechanism-prefixed
     * forms such as {@code listener.name.x.plain.sasl.jaas.config}).
     */
    private static final Pattern SECRET = Pattern.compile(
            ".*(password|passwd|secret|jaas|token|credential|passphrase|private|user\\.info"
            + "|ssl\\.keystore\\.key|ssl\\.keystore\\.certificate\\.chain|ssl\\.truststore\\.certificates).*");
    /** A value that is only a config provider reference, e.g. {@code ${file:/etc/bullet/kafka.properties:pw}}. */
    private static final Pattern PROVIDER_REFERENCE = Pattern.compile("\\$\\{[^}]*}");

    private KafkaProperties() {
    }

    /** Whether the value of property {@code name} is a secret. */
    public static boolean isSecret(String name) {
        return SECRET.matcher(name.toLowerCase(Locale.ROOT)).matches();
    }

    /**
     * {@code properties} as they may be shown (logs, settings dumps, error messages), sorted by name: secret values are
     * {@value #HIDDEN}, unless the value is a config provider reference alone (which holds no secret).
     */
    public static Map<String, String> masked(Map<String, String> properties) {
        Map<String, String> out = new TreeMap<>();
        properties.forEach((name, value) -> out.put(name,
                isSecret(name) && !PROVIDER_REFERENCE.matcher(value.trim()).matches() ? HIDDEN : value));
        return out;
    }

    /** The problem of a properties map that sets one of {@code owned}, naming each such property and why. */
    static Validator notOwned(Map<String, String> owned) {
        return Validator.of("Bullet sets " + String.join(", ", owned.keySet()) + " itself", v -> {
            List<String> found = new ArrayList<>();
            for (String name : ((Map<?, ?>) v).keySet().stream().map(String::valueOf).toList()) {
                String why = owned.get(name.trim());
                if (why != null) {
                    found.add(name + " (" + why + ")");
                }
            }
            return found.isEmpty() ? Optional.empty()
                    : Optional.of("must not set " + String.join("; ", found) + ": Bullet sets "
                    + (found.size() == 1 ? "it" : "them") + " itself");
        });
    }

    private static Map<String, String> owned(String... nameThenWhy) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < nameThenWhy.length; i += 2) {
            out.put(nameThenWhy[i], nameThenWhy[i + 1]);
        }
        return Collections.unmodifiableMap(out);
    }
}

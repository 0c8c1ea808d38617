package dev.bullet.local;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How the listeners of an {@link EmbeddedKafka} are secured: {@code SASL_SSL}, {@code SASL_PLAINTEXT} or {@code SSL}.
 * Both the client listener and the controller listener use the protocol, so the broker has no plaintext port at all.
 * SASL is SASL/PLAIN with the given users; TLS uses one PKCS12 keystore (the broker's key and certificate, whose
 * subject alternative name must cover 127.0.0.1) and one PKCS12 truststore (what clients trust), both under
 * {@code storePassword}. Clients do not present certificates ({@code ssl.client.auth=none}).
 *
 * @param protocol      {@code SASL_SSL}, {@code SASL_PLAINTEXT} or {@code SSL}
 * @param keystore      the broker's keystore (null for {@code SASL_PLAINTEXT})
 * @param truststore    the truststore of the clients (null for {@code SASL_PLAINTEXT})
 * @param storePassword password of both stores and of the key
 * @param users         SASL/PLAIN user → password; the broker connects to itself as {@code brokerUser}
 * @param brokerUser    one of {@code users}
 */
public record KafkaListenerSecurity(String protocol, Path keystore, Path truststore, String storePassword,
                                    Map<String, String> users, String brokerUser) {
    public static final String PLAIN = "PLAIN";
    private static final Set<String> PROTOCOLS = Set.of("SASL_SSL", "SASL_PLAINTEXT", "SSL");
    private static final String PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";

    public KafkaListenerSecurity {
        if (!PROTOCOLS.contains(protocol)) {
            throw new IllegalArgumentException("protocol must be one of " + PROTOCOLS + ", got " + protocol);
        }
        if (usesTls(protocol) && (keystore == null || truststore == null || storePassword == null)) {
            throw new IllegalArgumentException(protocol + " needs a keystore, a truststore and their password");
        }
        users = Map.copyOf(Objects.requireNonNull(users, "users"));
        if (usesSasl(protocol) && !users.containsKey(brokerUser)) {
            throw new IllegalArgumentException(protocol + " needs the broker's user among the users, got " + brokerUser);
        }
    }

    /** SASL/PLAIN over TLS with these users; the broker is {@code brokerUser}. */
    public static KafkaListenerSecurity saslSsl(Path keystore, Path truststore, String storePassword,
                                                Map<String, String> users, String brokerUser) {
        return new KafkaListenerSecurity("SASL_SSL", keystore, truststore, storePassword, users, brokerUser);
    }

    /** The listener name (the protocol's name, as Kafka's default protocol map has it). */
    String listenerName() {
        return protocol;
    }

    /** The broker properties for its client listener and its controller listener. */
    Map<String, String> brokerProperties(String controllerListener) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("listener.security.protocol.map", protocol + ":" + protocol + "," + controllerListener + ":" + protocol);
        if (usesSasl(protocol)) {
            StringBuilder jaas = new StringBuilder(PLAIN_MODULE).append(" required username=\"").append(brokerUser)
                .append("\" password=\"").append(users.get(brokerUser)).append('"');
            users.forEach((user, password) -> jaas.append(" user_").append(user).append("=\"").append(password)
                .append('"'));
            jaas.append(';');
            p.put("sasl.enabled.mechanisms", PLAIN);
            p.put("sasl.mechanism.inter.broker.protocol", PLAIN);
            p.put("sasl.mechanism.controller.protocol", PLAIN);
            for (String listener : new String[] {listenerName(), controllerListener}) {
                String prefix = "listener.name." + listener.toLowerCase(Locale.ROOT) + ".";
                p.put(prefix + "sasl.enabled.mechanisms", PLAIN);
                p.put(prefix + "plain.sasl.jaas.config", jaas.toString());
            }
        }
        if (usesTls(protocol)) {
            p.put("ssl.keystore.type", "PKCS12");
            p.put("ssl.keystore.location", keystore.toString());
            p.put("ssl.keystore.password", storePassword);
            p.put("ssl.key.password", storePassword);
            p.put("ssl.truststore.type", "PKCS12");
            p.put("ssl.truststore.location", truststore.toString());
            p.put("ssl.truststore.password", storePassword);
            p.put("ssl.client.auth", "none");
        }
        return p;
    }

    /** The client properties of {@code user} (any of {@link #users}; ignored for {@code SSL}). */
    public Map<String, String> clientProperties(String user) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("security.protocol", protocol);
        if (usesSasl(protocol)) {
            String password = users.get(user);
            if (password == null) {
                throw new IllegalArgumentException("no such user: " + user);
            }
            p.put("sasl.mechanism", PLAIN);
            p.put("sasl.jaas.config", PLAIN_MODULE + " required username=\"" + user + "\" password=\"" + password + "\";");
        }
        if (usesTls(protocol)) {
            p.put("ssl.truststore.type", "PKCS12");
            p.put("ssl.truststore.location", truststore.toString());
            p.put("ssl.truststore.password", storePassword);
        }
        return p;
    }

    /** The properties of the broker's own user, for the broker's admin client. */
    Map<String, String> brokerClientProperties() {
        return clientProperties(brokerUser);
    }

    @Override
    public String toString() {
        return "KafkaListenerSecurity[" + protocol + ", users " + users.keySet() + "]";
    }

    private static boolean usesTls(String protocol) {
        return protocol.endsWith("SSL");
    }

    private static boolean usesSasl(String protocol) {
        return protocol.startsWith("SASL");
    }
}

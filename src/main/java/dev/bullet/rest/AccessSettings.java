package dev.bullet.rest;

import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;

import java.util.List;

/**
 * Who may use the REST service and how much (the {@code bullet.rest.auth.*}, {@code bullet.rest.tls.*},
 * {@code bullet.rest.tenant.*} and {@code bullet.rest.allowed.*} keys), typed and immutable.
 *
 * @param authType                   {@code none}, {@code tokens}, {@code mtls} or an {@link Authenticator} class name
 * @param tokensFile                 the tokens file of {@code tokens} (empty when unset)
 * @param admins                     tenants that are admins whatever their credentials say
 * @param tls                        the HTTPS listener, when on
 * @param tenantMaxConcurrentQueries with authentication on, most queries of one tenant at once
 * @param tenantMaxQueriesPerMinute  with authentication on, most queries one tenant submits per minute
 * @param allowedOrigins             browser origins besides the service's own that may POST and DELETE
 * @param allowedHosts               Host header values besides the bound address ({@code *} = any)
 */
public record AccessSettings(String authType, String tokensFile, List<String> admins, TlsSettings tls,
                             int tenantMaxConcurrentQueries, int tenantMaxQueriesPerMinute,
                             List<String> allowedOrigins, List<String> allowedHosts) {
    public static final String NONE = "none";
    public static final String TOKENS = "tokens";
    public static final String MTLS = "mtls";

    /** Local use: no authentication, plain HTTP, the default quotas (which do not apply without authentication). */
    public static final AccessSettings LOCAL = new AccessSettings(NONE, "", List.of(), TlsSettings.OFF, 1000, 600,
                                                                  List.of(), List.of());

    public AccessSettings {
        admins = List.copyOf(admins);
        allowedOrigins = List.copyOf(allowedOrigins);
        allowedHosts = List.copyOf(allowedHosts);
    }

    /** Whether queries carry a tenant that authentication proved (anything but {@code none}): quotas apply. */
    public boolean authenticated() {
        return !NONE.equals(authType.trim());
    }

    /** The same settings with another authentication type and tokens file. */
    public AccessSettings withAuth(String type, String file) {
        return new AccessSettings(type, file, admins, tls, tenantMaxConcurrentQueries, tenantMaxQueriesPerMinute,
                                  allowedOrigins, allowedHosts);
    }

    static AccessSettings from(BulletSettings s) {
        TlsSettings tls = new TlsSettings(s.getString(SettingsTable.REST_TLS_KEYSTORE_PATH),
                                          s.getString(SettingsTable.REST_TLS_KEYSTORE_PASSWORD),
                                          s.getString(SettingsTable.REST_TLS_KEYSTORE_TYPE),
                                          s.getString(SettingsTable.REST_TLS_TRUSTSTORE_PATH),
                                          s.getString(SettingsTable.REST_TLS_TRUSTSTORE_PASSWORD),
                                          s.getString(SettingsTable.REST_TLS_TRUSTSTORE_TYPE),
                                          s.getString(SettingsTable.REST_TLS_CLIENT_AUTH));
        return new AccessSettings(s.getString(SettingsTable.REST_AUTH_TYPE), s.getString(SettingsTable.REST_AUTH_TOKENS_FILE),
                                  s.getList(SettingsTable.REST_AUTH_ADMINS), tls,
                                  s.getInt(SettingsTable.REST_TENANT_MAX_CONCURRENT_QUERIES),
                                  s.getInt(SettingsTable.REST_TENANT_MAX_QUERIES_PER_MINUTE),
                                  s.getList(SettingsTable.REST_ALLOWED_ORIGINS),
                                  s.getList(SettingsTable.REST_ALLOWED_HOSTS));
    }

    /**
     * The HTTPS listener: on when {@code keystorePath} is set. {@code clientAuth} is {@code none}, {@code requested}
     * or {@code required}. {@link #toString()} hides the passwords.
     */
    public record TlsSettings(String keystorePath, String keystorePassword, String keystoreType, String truststorePath,
                              String truststorePassword, String truststoreType, String clientAuth) {
        public static final TlsSettings OFF = new TlsSettings("", "", "PKCS12", "", "", "PKCS12", "none");

        public boolean enabled() {
            return !keystorePath.isBlank();
        }

        @Override
        public String toString() {
            return "TlsSettings[keystore=" + keystorePath + " (" + keystoreType + "), truststore=" + truststorePath + " ("
                   + truststoreType + "), clientAuth=" + clientAuth + "]";
        }
    }
}

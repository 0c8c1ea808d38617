package dev.bullet.rest;

import dev.bullet.BulletException;
import dev.bullet.rest.AccessSettings.TlsSettings;
import org.xnio.SslClientAuthMode;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/** The REST service's TLS: an {@link SSLContext} from {@code bullet.rest.tls.*}, every problem naming its key. */
final class TlsContexts {
    private TlsContexts() {
    }

    /** The server's context: its certificate from the keystore; the truststore (if set) verifies client certificates. */
    static SSLContext server(TlsSettings tls) {
        KeyStore keys = load(tls.keystorePath(), tls.keystorePassword(), tls.keystoreType(), "bullet.rest.tls.keystore");
        try {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, tls.keystorePassword().toCharArray());
            TrustManager[] trust = null;
            if (!tls.truststorePath().isBlank()) {
                KeyStore trusted = load(tls.truststorePath(), tls.truststorePassword(), tls.truststoreType(),
                                        "bullet.rest.tls.truststore");
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(trusted);
                trust = tmf.getTrustManagers();
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), trust, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new BulletException("Cannot set up TLS from bullet.rest.tls.keystore.* / bullet.rest.tls.truststore.*: "
                                      + e.getClass().getSimpleName() + " " + e.getMessage()
                                      + " (is bullet.rest.tls.keystore.password also the key's password?)");
        }
    }

    static SslClientAuthMode clientAuth(TlsSettings tls) {
        return switch (tls.clientAuth()) {
            case "required" -> SslClientAuthMode.REQUIRED;
            case "requested" -> SslClientAuthMode.REQUESTED;
            default -> SslClientAuthMode.NOT_REQUESTED;
        };
    }

    private static KeyStore load(String path, String password, String type, String prefix) {
        try (InputStream in = Files.newInputStream(Path.of(path))) {
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, password.toCharArray());
            return store;
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            throw new BulletException("Cannot read " + prefix + ".path " + path + " (" + prefix + ".type " + type + "): "
                                      + e.getClass().getSimpleName() + " " + e.getMessage()
                                      + " (check the file, " + prefix + ".password and " + prefix + ".type)");
        }
    }
}

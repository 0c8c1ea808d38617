package dev.bullet.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * TLS material for a test broker on 127.0.0.1, made with the JDK's {@code keytool}: a self-signed RSA key and
 * certificate (subject alternative names 127.0.0.1 and localhost, valid two days) in a PKCS12 keystore, and a PKCS12
 * truststore holding that certificate alone. Each {@code keytool} run is bounded in time.
 *
 * @param keystore   the broker's key and certificate
 * @param truststore what clients trust
 * @param password   of both stores and of the key
 */
public record TestCertificates(Path keystore, Path truststore, String password) {
    private static final long KEYTOOL_TIMEOUT_SECONDS = 60;

    /** Makes the stores in {@code dir}. */
    public static TestCertificates create(Path dir, String password) {
        try {
            Files.createDirectories(dir);
            Path keystore = dir.resolve("broker.p12");
            Path truststore = dir.resolve("truststore.p12");
            Path certificate = dir.resolve("broker.crt");
            keytool("-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                    "-dname", "CN=127.0.0.1, O=Bullet test", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                    "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", password,
                    "-keypass", password);
            keytool("-exportcert", "-alias", "broker", "-rfc", "-file", certificate.toString(),
                    "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", password);
            keytool("-importcert", "-noprompt", "-alias", "broker", "-file", certificate.toString(),
                    "-keystore", truststore.toString(), "-storetype", "PKCS12", "-storepass", password);
            return new TestCertificates(keystore, truststore, password);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make test certificates in " + dir, e);
        }
    }

    private static void keytool(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!process.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("keytool " + args[0] + " did not finish within " + KEYTOOL_TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running keytool " + args[0], e);
        }
        if (process.exitValue() != 0) {
            throw new IOException("keytool " + args[0] + " failed (exit " + process.exitValue() + "): "
                    + new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}

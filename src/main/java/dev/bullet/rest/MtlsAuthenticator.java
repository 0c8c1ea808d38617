package dev.bullet.rest;

import dev.bullet.BulletException;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * {@code bullet.rest.auth.type: mtls}: the tenant is the subject CN of the client certificate that the TLS handshake
 * verified against {@code bullet.rest.tls.truststore.*}. Admins are the CNs listed in {@code bullet.rest.auth.admins}.
 * A certificate without a CN that is a valid tenant name proves nobody (401).
 */
final class MtlsAuthenticator implements Authenticator {
    private final Set<String> admins;

    MtlsAuthenticator(Set<String> admins) {
        this.admins = Set.copyOf(admins);
    }

    @Override
    public void prepare(RestSettings settings) {
        AccessSettings.TlsSettings tls = settings.access().tls();
        if (!tls.enabled()) {
            throw new BulletException("bullet.rest.auth.type is mtls but TLS is off: set bullet.rest.tls.keystore.path "
                                      + "(and bullet.rest.tls.truststore.path for the client certificates' authority)");
        }
        if (!"required".equals(tls.clientAuth())) {
            throw new BulletException("bullet.rest.auth.type is mtls but bullet.rest.tls.client.auth is "
                                      + tls.clientAuth() + ": set it to required");
        }
    }

    @Override
    public Optional<Tenant> authenticate(Credentials credentials) {
        List<X509Certificate> chain = credentials.clientCertificates();
        if (chain.isEmpty()) {
            return Optional.empty();
        }
        String cn = commonName(chain.get(0));
        if (cn == null || !Tenant.NAME.matcher(cn).matches()) {
            return Optional.empty();
        }
        return Optional.of(new Tenant(cn, admins.contains(cn)));
    }

    /** The (last) CN of the certificate's subject, or null. */
    static String commonName(X509Certificate certificate) {
        try {
            String cn = null;
            for (Rdn rdn : new LdapName(certificate.getSubjectX500Principal().getName()).getRdns()) {
                if ("CN".equalsIgnoreCase(rdn.getType())) {
                    cn = String.valueOf(rdn.getValue());
                }
            }
            return cn;
        } catch (InvalidNameException e) {
            return null;
        }
    }
}

package dev.bullet.rest;

import dev.bullet.BulletException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code bullet.rest.auth.type: tokens}: a request carries {@code Authorization: Bearer TOKEN} (exactly one such
 * header) with a token of the tokens file ({@link TokensFile}). The presented token is hashed (SHA-256) and compared
 * with the hash of every known token in constant time ({@link MessageDigest#isEqual}), without stopping at a match:
 * the time taken says nothing about how much of a token was right, nor which one matched.
 */
final class TokenAuthenticator implements Authenticator {
    static final String SCHEME = "Bearer";
    /** Longest Authorization value looked at; longer ones cannot be a token of the file. */
    private static final int MAX_HEADER_CHARS = 4096;

    private final byte[][] hashes;
    private final Tenant[] tenants;

    TokenAuthenticator(Map<String, Tenant> tokens, Set<String> admins) {
        List<byte[]> h = new ArrayList<>();
        List<Tenant> t = new ArrayList<>();
        tokens.forEach((token, tenant) -> {
            h.add(sha256(token));
            t.add(admins.contains(tenant.name()) ? new Tenant(tenant.name(), true) : tenant);
        });
        this.hashes = h.toArray(new byte[0][]);
        this.tenants = t.toArray(new Tenant[0]);
    }

    /** The authenticator of {@code settings}' tokens file. */
    static TokenAuthenticator of(AccessSettings settings) {
        if (settings.tokensFile().isBlank()) {
            throw new BulletException("bullet.rest.auth.type is tokens but bullet.rest.auth.tokens.file is not set: "
                                      + "name a file of lines TOKEN TENANT [admin]");
        }
        return new TokenAuthenticator(TokensFile.load(Path.of(settings.tokensFile())), Set.copyOf(settings.admins()));
    }

    @Override
    public Optional<Tenant> authenticate(Credentials credentials) {
        List<String> values = credentials.authorization();
        if (values.size() != 1) {
            return Optional.empty(); // none, or ambiguous
        }
        String token = bearerToken(values.get(0));
        if (token == null) {
            return Optional.empty();
        }
        byte[] presented = sha256(token);
        Tenant found = null;
        for (int i = 0; i < hashes.length; i++) {
            if (MessageDigest.isEqual(hashes[i], presented)) {
                found = tenants[i];
            }
        }
        return Optional.ofNullable(found);
    }

    @Override
    public String challenge() {
        return SCHEME;
    }

    /** The token of {@code Bearer TOKEN} (scheme in any case), or null for anything else. */
    static String bearerToken(String value) {
        if (value == null || value.length() > MAX_HEADER_CHARS || value.length() <= SCHEME.length() + 1
            || !value.regionMatches(true, 0, SCHEME, 0, SCHEME.length()) || value.charAt(SCHEME.length()) != ' ') {
            return null;
        }
        String token = value.substring(SCHEME.length() + 1).strip();
        return token.isEmpty() ? null : token;
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}

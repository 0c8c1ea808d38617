package dev.bullet.rest;

import java.util.regex.Pattern;

/**
 * Who a request comes from, as its {@link Authenticator} proved it. Every running query belongs to one tenant; an
 * admin sees and kills every tenant's queries. Names are safe to log: letters, digits and {@code . _ @ -} only.
 *
 * @param name  the tenant's name, as in logs and in {@code GET /api/bullet/queries}
 * @param admin whether the tenant may see and kill other tenants' queries
 */
public record Tenant(String name, boolean admin) {
    /** The characters a tenant name may have. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@-]{1,128}");
    /** The one tenant of {@code bullet.rest.auth.type: none}: an admin, so that local use sees everything. */
    public static final Tenant ANONYMOUS = new Tenant("anonymous", true);

    public Tenant {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a tenant name is 1 to 128 of A-Z a-z 0-9 . _ @ -, got \""
                                               + (name == null ? "null" : Replies.printable(name, 64)) + "\"");
        }
    }

    /** Whether this tenant may see or kill a query of {@code owner}. */
    public boolean mayAccess(String owner) {
        return admin || name.equals(owner);
    }
}

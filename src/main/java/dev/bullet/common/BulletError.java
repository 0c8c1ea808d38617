package dev.bullet.common;

import java.util.List;

/**
 * A problem with a user's input, with what to do about it (SPEC §6.9): rendered as
 * {@code {"error": "...", "resolutions": ["..."]}} in a result's {@code meta.errors} (or {@code meta.warnings}).
 */
public record BulletError(String error, List<String> resolutions) {
    public BulletError {
        resolutions = List.copyOf(resolutions);
    }

    public static BulletError of(String error, String... resolutions) {
        return new BulletError(error, List.of(resolutions));
    }
}

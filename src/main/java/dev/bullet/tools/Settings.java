package dev.bullet.tools;

import dev.bullet.config.BulletSettings;
import dev.bullet.query.QuerySettings;

import java.nio.file.Path;
import java.util.Map;

/** Loads the query settings for the command-line tools. */
final class Settings {
    private Settings() {
    }

    static QuerySettings defaults() {
        return QuerySettings.defaults();
    }

    static QuerySettings load(Path file) {
        return QuerySettings.from(BulletSettings.load(file, Map.of()));
    }
}

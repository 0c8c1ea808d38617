package dev.bullet.tools;

import dev.bullet.query.QuerySettings;

import java.nio.file.Path;

/** Loads the query settings for the command-line tools. */
final class Settings {
    private Settings() {
    }

    static QuerySettings defaults() {
        return QuerySettings.defaults();
    }

    static QuerySettings load(Path file) {
        throw new IllegalArgumentException("--bullet-conf is not supported yet");
    }
}

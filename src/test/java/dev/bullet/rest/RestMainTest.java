package dev.bullet.rest;

import dev.bullet.config.SettingsTable;
import dev.bullet.testing.CommandLines;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The command line of {@code scripts/bullet-rest.sh} (no server is started here). */
class RestMainTest {
    @Test
    void flagsBecomeTheSettingsFileAndOverrides() {
        RestMain.Options o = new RestMain.Options();
        assertEquals(-1, CommandLines.parse(o, "--bullet-conf", "my.yaml", "--port", "8080").exitCode());
        assertEquals(Path.of("my.yaml"), o.conf());
        assertEquals(Map.of(SettingsTable.REST_PORT, "8080"), o.overrides());
    }

    @Test
    void helpListsEveryFlagAndAnUnknownFlagIsAOneLineErrorWithExitTwo() {
        CommandLines.assertHelpListsEveryFlag(CommandLines.parse(new RestMain.Options(), "--help"), "bullet-rest.sh",
            List.of("--bullet-conf", "--port"));
        CommandLines.assertOneLineUsageError(CommandLines.parse(new RestMain.Options(), "--host", "0.0.0.0"), "--host");
    }
}

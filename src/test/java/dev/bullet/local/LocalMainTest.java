package dev.bullet.local;

import dev.bullet.testing.CommandLines;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line of {@code scripts/bullet-local.sh} (SPEC §9 flags). */
class LocalMainTest {
    @Test
    void defaultsAreKafkaOn9092TheSettingsRestPortAndTheSampleFeed() {
        LocalMain.Options o = LocalMain.parse(new String[0]);
        assertEquals(EmbeddedKafka.DEFAULT_PORT, o.stack().kafkaPort());
        assertNull(o.stack().restPort(), "bullet.rest.port of the settings (9999)");
        assertEquals(LocalMain.DEFAULT_RATE, o.stack().sampleRate());
        assertNull(o.stack().bulletConf());
        assertEquals(-1, o.seconds());
    }

    @Test
    void everyFlagIsRead() {
        LocalMain.Options o = LocalMain.parse(new String[] {"--bullet-conf", "my.yaml", "--port", "8080", "--rate", "50",
            "--kafka-port", "19092", "--data-dir", "/tmp/k", "--seconds", "5"});
        assertEquals(Path.of("my.yaml"), o.stack().bulletConf());
        assertEquals(8080, o.stack().restPort());
        assertEquals(50.0, o.stack().sampleRate());
        assertEquals(19092, o.stack().kafkaPort());
        assertEquals(Path.of("/tmp/k"), o.stack().dataDir());
        assertEquals(5, o.seconds());
    }

    @Test
    void noGeneratorMeansNoSampleFeed() {
        assertEquals(0.0, LocalMain.parse(new String[] {"--no-generator"}).stack().sampleRate());
        assertTrue(LocalMain.parse(new String[] {"--help"}).help());
    }

    @Test
    void badFlagsAreClearErrors() {
        assertTrue(message("--nope").contains("unknown option '--nope'"));
        assertTrue(message("--port").contains("--port") && message("--port").contains("Missing"));
        assertTrue(message("--port", "70000").contains("between 0 and 65535"));
        assertTrue(message("--rate", "0").contains("--no-generator"));
        assertTrue(message("--rate", "fast").contains("--rate") && message("--rate", "fast").contains("'fast'"));
        assertTrue(message("--kafka-port", "x").contains("--kafka-port") && message("--kafka-port", "x").contains("'x'"));
        assertTrue(message("stray").contains("unexpected argument 'stray'"));
    }

    @Test
    void helpListsEveryFlagAndAnUnknownFlagIsAOneLineErrorWithExitTwo() {
        CommandLines.assertHelpListsEveryFlag(CommandLines.parse(new LocalMain.Options(), "--help"), "bullet-local.sh",
            List.of("--bullet-conf", "--port", "--rate", "--no-generator", "--kafka-port", "--data-dir", "--seconds"));
        CommandLines.assertOneLineUsageError(CommandLines.parse(new LocalMain.Options(), "--nope"), "--nope");
        CommandLines.assertOneLineUsageError(CommandLines.parse(new LocalMain.Options(), "--port", "x"), "--port");
    }

    private static String message(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> LocalMain.parse(args)).getMessage();
    }
}

package dev.bullet.local;

import dev.bullet.testing.CommandLines;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line of the local stack's broker process (no broker is started here). */
class KafkaMainTest {
    @Test
    void everyFlagIsRead() {
        KafkaMain.Options o = KafkaMain.parse(new String[] {"--port", "19092", "--controller-port", "19093", "--dir", "/tmp/k",
            "--topic", "a", "--topic", "b:4"});
        assertEquals(19092, o.port());
        assertEquals(19093, o.controllerPort());
        assertEquals(Path.of("/tmp/k"), o.dir());
        assertEquals(Map.of("a", 1, "b", 4), o.topics());
    }

    @Test
    void badValuesAreUsageErrors() {
        assertTrue(message("--port", "9092", "--controller-port", "9092").contains("must differ"));
        assertTrue(message("--topic", "a:0").contains("PARTITIONS >= 1"));
        assertTrue(message("--port", "70000").contains("1-65535"));
    }

    @Test
    void helpListsEveryFlagAndAnUnknownFlagIsAOneLineErrorWithExitTwo() {
        CommandLines.assertHelpListsEveryFlag(CommandLines.parse(new KafkaMain.Options(), "--help"), "KafkaMain",
            List.of("--port", "--controller-port", "--dir", "--topic"));
        CommandLines.assertOneLineUsageError(CommandLines.parse(new KafkaMain.Options(), "--partitions", "3"), "--partitions");
    }

    private static String message(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> KafkaMain.parse(args)).getMessage();
    }
}

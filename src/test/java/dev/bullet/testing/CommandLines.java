package dev.bullet.testing;

import dev.bullet.common.Cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checks every main's command line passes ({@link Cli}): generated --help, one-line errors, exit codes. */
public final class CommandLines {
    private CommandLines() {
    }

    /** What a main printed and answered for one command line. */
    public record Outcome(int exitCode, String stdout, String stderr) {
    }

    /** Runs {@link Cli#parse(Object, String[], PrintStream, PrintStream)} as the mains do, capturing the output. */
    public static Outcome parse(Object options, String... args) {
        return run((out, err) -> Cli.parse(options, args, out, err));
    }

    /** Runs a main's in-process entry ({@code (out, err) -> exit code}), capturing the output. */
    public static Outcome run(BiFunction<PrintStream, PrintStream, Integer> main) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = main.apply(new PrintStream(out, true, StandardCharsets.UTF_8),
                              new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** --help: exit 0, the usage on stdout naming the script and listing every flag, nothing on stderr. */
    public static void assertHelpListsEveryFlag(Outcome help, String name, List<String> flags) {
        assertEquals(Cli.EXIT_OK, help.exitCode(), help.stderr());
        assertEquals("", help.stderr());
        assertTrue(help.stdout().startsWith("Usage: "), help.stdout());
        assertTrue(help.stdout().contains(name), help.stdout());
        for (String flag : flags) {
            assertTrue(help.stdout().contains(flag), flag + " missing from:\n" + help.stdout());
        }
        assertTrue(help.stdout().contains("--help"), help.stdout());
    }

    /** A bad command line: exit 2, nothing on stdout, "error: ..." naming {@code culprit} then "try ... --help". */
    public static void assertOneLineUsageError(Outcome outcome, String culprit) {
        assertEquals(Cli.EXIT_USAGE, outcome.exitCode(), outcome.stderr());
        assertEquals("", outcome.stdout());
        List<String> lines = outcome.stderr().lines().toList();
        assertEquals(2, lines.size(), outcome.stderr());
        assertTrue(lines.get(0).startsWith("error: ") && lines.get(0).contains(culprit), lines.get(0));
        assertTrue(lines.get(1).startsWith("try '") && lines.get(1).endsWith(" --help'"), lines.get(1));
    }
}

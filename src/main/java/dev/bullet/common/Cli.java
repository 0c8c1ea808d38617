package dev.bullet.common;

import picocli.CommandLine;

import java.io.PrintStream;

/**
 * How every main reads its command line (picocli), so all of them behave alike:
 * <ul>
 *   <li>{@code --help} (or {@code -h}) prints the usage, generated from the options class, on stdout: exit
 *       {@value #EXIT_OK};</li>
 *   <li>a command line that cannot run (an unknown flag, a missing or bad value) prints one line
 *       {@code error: ...} and then {@code try 'NAME --help'} on stderr: exit {@value #EXIT_USAGE};</li>
 *   <li>a failure at run time prints one line {@code error: ...} on stderr: exit {@value #EXIT_FAILED}.</li>
 * </ul>
 * Each main declares one options class annotated with picocli's {@code @Command} (its name is the script's) and
 * {@code @Option}s, including {@code @Option(names = {"-h", "--help"}, usageHelp = true)}. Checks beyond a value's
 * type (ranges, flags that exclude each other) go in {@link Validated#validate()}.
 */
public final class Cli {
    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_USAGE = 2;
    /** What {@link #parse(Object, String[], PrintStream, PrintStream)} answers when the command should run. */
    public static final int RUN = -1;

    private Cli() {
    }

    /** An options class whose values need checks beyond their types; runs after parsing (not for --help). */
    public interface Validated {
        /** Throws {@link UsageException} naming the flag when the values cannot run. */
        void validate();
    }

    /** A command line that cannot run; the message is one line naming the flag. Exit {@value #EXIT_USAGE}. */
    public static final class UsageException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message);
        }
    }

    /**
     * Reads {@code args} into {@code options} (a picocli-annotated object) and validates them.
     *
     * @return {@code options}, filled in; its help flag is set for --help (and nothing else is checked then)
     * @throws UsageException for a command line that cannot run
     */
    public static <T> T parse(T options, String... args) {
        parse(commandLine(options), options, args);
        return options;
    }

    /**
     * Reads {@code args} into {@code options}; prints the usage for --help or the error for a bad command line.
     *
     * @return {@link #RUN} when the command should run, else the exit code ({@value #EXIT_OK} after --help,
     *         {@value #EXIT_USAGE} after an error)
     */
    public static int parse(Object options, String[] args, PrintStream out, PrintStream err) {
        CommandLine commandLine = commandLine(options);
        try {
            parse(commandLine, options, args);
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            err.println("try '" + commandLine.getCommandName() + " --help'");
            err.flush();
            return EXIT_USAGE;
        }
        if (commandLine.isUsageHelpRequested()) {
            out.print(commandLine.getUsageMessage(CommandLine.Help.Ansi.OFF));
            out.flush();
            return EXIT_OK;
        }
        return RUN;
    }

    /** Prints the one line of a run-time failure on {@code err}; returns {@value #EXIT_FAILED}. */
    public static int failed(PrintStream err, String message) {
        err.println("error: " + message);
        err.flush();
        return EXIT_FAILED;
    }

    /** The usage text generated from the options class. */
    public static String usage(Object options) {
        return commandLine(options).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    private static void parse(CommandLine commandLine, Object options, String[] args) {
        try {
            commandLine.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw new UsageException(oneLine(e));
        }
        if (!commandLine.isUsageHelpRequested() && options instanceof Validated validated) {
            validated.validate();
        }
    }

    private static String oneLine(CommandLine.ParameterException e) {
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
            String first = unmatched.getUnmatched().get(0);
            if (!first.startsWith("-")) {
                return "unexpected argument '" + first + "'";
            }
            String flag = first.contains("=") ? first.substring(0, first.indexOf('=')) : first;
            String closest = closest(flag, unmatched.getCommandLine().getCommandSpec().optionsMap().keySet());
            return "unknown option '" + flag + "'" + (closest == null ? "" : " (did you mean " + closest + "?)");
        }
        return String.join("; ", e.getMessage().strip().lines().toList());
    }

    /** The flag nearest to a mistyped one (edit distance at most a third of its length), or null. */
    private static String closest(String typed, Iterable<String> flags) {
        String best = null;
        int bestDistance = Math.max(2, typed.length() / 3) + 1;
        for (String flag : flags) {
            int distance = editDistance(typed, flag);
            if (distance < bestDistance) {
                best = flag;
                bestDistance = distance;
            }
        }
        return best;
    }

    private static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    private static CommandLine commandLine(Object options) {
        CommandLine commandLine = new CommandLine(options);
        // As before picocli: a flag given twice keeps the last value.
        commandLine.setOverwrittenOptionsAllowed(true);
        commandLine.setUsageHelpAutoWidth(false);
        commandLine.setUsageHelpWidth(110);
        return commandLine;
    }
}

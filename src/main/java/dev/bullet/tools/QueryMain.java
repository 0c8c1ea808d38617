package dev.bullet.tools;

import dev.bullet.common.Cli;
import dev.bullet.common.Clock;
import dev.bullet.query.QuerySettings;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code scripts/bullet-query.sh}: the offline runner's command line (SPEC §6.11). Exit status 0 when the query
 * ran, 2 for an invalid query or bad arguments, 1 when a file cannot be read.
 */
public final class QueryMain {
    private static final String STDIN = "-";

    private QueryMain() {
    }

    /** The command line. */
    @Command(name = "bullet-query.sh", sortOptions = false,
             customSynopsis = "bullet-query.sh --query FILE|- --records FILE|- [--bullet-conf FILE]",
             description = {"Runs one Bullet query over a file of JSON records (one object per line, in order, as if they",
                            "arrived live) and prints every result - each closed window, then the final result - as one",
                            "JSON line on stdout. At the end of the input the query's duration counts as elapsed."},
             footer = {"Exit status: 0 ran, 2 invalid query or arguments (the error result is printed), 1 unreadable file.",
                       "Malformed record lines are reported on stderr and skipped."})
    static final class Options implements Cli.Validated {
        @Option(names = "--query", paramLabel = "FILE",
                description = "the query: JSON, or BQL (recognised by its first word) ('-' reads it from stdin)")
        private String query;
        @Option(names = "--bql", description = "read the query as BQL whatever it looks like")
        private boolean bql;
        @Option(names = "--records", paramLabel = "FILE", description = "the records, JSON lines ('-' reads them from stdin)")
        private String records;
        @Option(names = "--bullet-conf", paramLabel = "FILE",
                description = "settings (query limits, sketch sizes, metadata), as for the topology")
        private String bulletConf;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        private boolean help;

        @Override
        public void validate() {
            if (query == null || records == null) {
                throw new Cli.UsageException("--query and --records are both required");
            }
            if (query.equals(STDIN) && records.equals(STDIN)) {
                throw new Cli.UsageException("only one of --query and --records can read stdin");
            }
        }
    }

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
        Options options = new Options();
        int early = Cli.parse(options, args, out, err);
        if (early != Cli.RUN) {
            return early;
        }
        String queryArg = options.query;
        String recordsArg = options.records;
        String confArg = options.bulletConf;
        QuerySettings settings;
        try {
            settings = confArg == null ? Settings.defaults() : Settings.load(Path.of(confArg));
        } catch (RuntimeException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        PrintWriter writer = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), false);
        try {
            String query = queryArg.equals("-")
                    ? new String(stdin.readAllBytes(), StandardCharsets.UTF_8)
                    : new String(Files.readAllBytes(Path.of(queryArg)), StandardCharsets.UTF_8);
            // ill-formed UTF-8 is read as U+FFFD (as gson and the topology do), never a read error
            try (BufferedReader records = new BufferedReader(new InputStreamReader(
                    recordsArg.equals("-") ? stdin : Files.newInputStream(Path.of(recordsArg)), StandardCharsets.UTF_8))) {
                OfflineRunner.Outcome outcome = new OfflineRunner(settings, Clock.SYSTEM).run(query, options.bql, records, result -> {
                    writer.println(result.toJson());
                    writer.flush();
                }, err);
                writer.flush();
                return outcome.valid() ? 0 : 2;
            }
        } catch (NoSuchFileException e) {
            err.println("error: no such file: " + e.getFile());
            return 1;
        } catch (IOException | UncheckedIOException e) {
            err.println("error: cannot read input: " + e.getMessage());
            return 1;
        } catch (RuntimeException | StackOverflowError e) {
            // a bug, never bad input: one line, no stack trace on the user's terminal
            err.println("error: internal error (" + e + "); please report it with the query and records");
            return 1;
        }
    }
}

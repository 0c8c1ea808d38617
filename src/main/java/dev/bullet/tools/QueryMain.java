package dev.bullet.tools;

import dev.bullet.common.Clock;
import dev.bullet.query.QuerySettings;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * {@code scripts/bullet-query.sh}: the offline runner's command line (SPEC §6.11). Exit status 0 when the query
 * ran, 2 for an invalid query or bad arguments, 1 when a file cannot be read.
 */
public final class QueryMain {
    static final String USAGE = String.join("\n",
            "Usage: bullet-query.sh --query FILE|- --records FILE|- [--bql] [--bullet-conf FILE]",
            "",
            "Runs one Bullet query over a file of JSON records (one object per line, in order, as if they",
            "arrived live) and prints every result - each closed window, then the final result - as one",
            "JSON line on stdout. At the end of the input the query's duration counts as elapsed.",
            "",
            "  --query FILE        the query: JSON, or BQL (recognised by its first word) ('-' reads stdin)",
            "  --bql               read the query as BQL whatever it looks like",
            "  --records FILE      the records, JSON lines ('-' reads them from stdin)",
            "  --bullet-conf FILE  settings (query limits, sketch sizes, metadata), as for the topology",
            "  --help              this text",
            "",
            "Exit status: 0 ran, 2 invalid query or arguments (the error result is printed), 1 unreadable file.",
            "Malformed record lines are reported on stderr and skipped.");

    private QueryMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    static int run(String[] args, java.io.InputStream stdin, PrintStream out, PrintStream err) {
        String queryArg = null;
        String recordsArg = null;
        String confArg = null;
        boolean bql = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                out.println(USAGE);
                return 0;
            }
            if (a.equals("--bql")) {
                bql = true;
                continue;
            }
            if (i + 1 >= args.length || !(a.equals("--query") || a.equals("--records") || a.equals("--bullet-conf"))) {
                err.println(a.startsWith("--") && i + 1 >= args.length && a.matches("--(query|records|bullet-conf)")
                            ? "error: " + a + " needs a value" : "error: unknown argument '" + a + "'");
                err.println(USAGE);
                return 2;
            }
            String value = args[++i];
            switch (a) {
                case "--query":
                    queryArg = value;
                    break;
                case "--records":
                    recordsArg = value;
                    break;
                default:
                    confArg = value;
                    break;
            }
        }
        if (queryArg == null || recordsArg == null) {
            err.println("error: --query and --records are both required");
            err.println(USAGE);
            return 2;
        }
        if (queryArg.equals("-") && recordsArg.equals("-")) {
            err.println("error: only one of --query and --records can read stdin");
            return 2;
        }
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
                    : Files.readString(Path.of(queryArg), StandardCharsets.UTF_8);
            try (BufferedReader records = recordsArg.equals("-")
                    ? new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8))
                    : Files.newBufferedReader(Path.of(recordsArg), StandardCharsets.UTF_8)) {
                OfflineRunner.Outcome outcome = new OfflineRunner(settings, Clock.SYSTEM).run(query, bql, records, result -> {
                    writer.println(result.toJson());
                    writer.flush();
                }, err);
                writer.flush();
                return outcome.valid() ? 0 : 2;
            }
        } catch (NoSuchFileException e) {
            err.println("error: no such file: " + e.getFile());
            return 1;
        } catch (IOException | java.io.UncheckedIOException e) {
            err.println("error: cannot read input: " + e.getMessage());
            return 1;
        }
    }
}

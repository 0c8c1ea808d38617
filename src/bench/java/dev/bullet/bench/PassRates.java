package dev.bullet.bench;

import dev.bullet.common.Cli;
import dev.bullet.common.Limits;
import dev.bullet.query.AggregationType;
import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.Predicates;
import dev.bullet.querying.RecordPredicate;
import dev.bullet.querying.eval.Evaluator;
import dev.bullet.querying.eval.Evaluators;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * How often each query of a mix passes its filter (its clauses and its expression filters) over a file of records,
 * counted by aggregation kind in bands: what decides whether queries can share work. Queries whose filters take every
 * record can ride on one aggregation (the engine's agreeing filters); the others keep a state of their own, updated per
 * match.
 */
public final class PassRates {
    /** The bands' lower bounds, as fractions of the records; the last band is "every record". */
    private static final double[] BANDS = {0, 0.01, 0.5, 0.9, 0.99};
    private static final String[] NAMES = {"<1%", "1-50%", "50-90%", "90-99%", "99-<100%", "100%"};

    private PassRates() {
    }

    @Command(name = "PassRates", sortOptions = false,
             description = {"Prints, per aggregation kind, how many of a mix's queries pass their filters on what share",
                            "of the records.", ""})
    static final class Options {
        @Option(names = "--queries-file", paramLabel = "FILE", required = true, description = "the mix (as bench-engine.sh reads it)")
        String queries;
        @Option(names = "--records", paramLabel = "FILE", required = true, description = "JSON records, one a line")
        String records;
        @Option(names = "--count", paramLabel = "N", description = "the records read from the file's start (default 3000)")
        int count = 3_000;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        boolean help;
    }

    public static void main(String[] args) throws IOException {
        Options o = new Options();
        int early = Cli.parse(o, args, System.out, System.err);
        if (early != Cli.RUN) {
            System.exit(early);
        }
        List<Record> records = new ArrayList<>();
        RecordDecoder decoder = new RecordDecoder();
        try (var lines = Files.lines(Path.of(o.records), StandardCharsets.UTF_8)) {
            lines.limit(o.count).forEach(line -> {
                Record r = decoder.decode(line.getBytes(StandardCharsets.UTF_8));
                if (r != null) {
                    records.add(r);
                }
            });
        }
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        Map<String, int[]> bands = new TreeMap<>();
        for (String text : QueryFile.read(Path.of(o.queries))) {
            QueryParser.Result parsed = parser.parse(text);
            if (!parsed.isValid()) {
                continue;
            }
            Query query = parsed.query();
            bands.computeIfAbsent(kind(query), k -> new int[NAMES.length])[band(query, records)]++;
        }
        System.out.println(String.format(Locale.ROOT, "%-20s", "kind") + String.join("\t", NAMES));
        bands.forEach((kind, counts) -> {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-20s", kind));
            for (int i = 0; i < counts.length; i++) {
                line.append(i == 0 ? "" : "\t").append(counts[i]);
            }
            System.out.println(line);
        });
    }

    private static String kind(Query query) {
        AggregationType type = query.aggregation().type();
        return type + (query.aggregation().fields().isEmpty() ? "" : " BY");
    }

    private static int band(Query query, List<Record> records) {
        RecordPredicate clauses = query.filter() == null ? r -> true : Predicates.compile(query.filter());
        List<Evaluator> where = new ArrayList<>();
        for (var expr : query.where()) {
            where.add(Evaluators.compile(expr, () -> 0L, Limits.defaults()));
        }
        int passed = 0;
        for (Record record : records) {
            boolean passes = clauses.test(record);
            for (int i = 0; passes && i < where.size(); i++) {
                passes = Evaluators.matches(where.get(i).evaluate(record));
            }
            passed += passes ? 1 : 0;
        }
        if (passed == records.size()) {
            return NAMES.length - 1;
        }
        double share = passed / (double) records.size();
        int band = 0;
        while (band + 1 < BANDS.length && share >= BANDS[band + 1]) {
            band++;
        }
        return band;
    }
}
